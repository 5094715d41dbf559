/// The `name: value` lines of a session file after its header, as both forms write them (the TLS 1.2
/// session, ``SessionFile``, and the TLS 1.3 ticket, ``TLS13TicketFile``): each field read once, by
/// name, and any line or value out of form a ``SessionFile/FormatError`` naming its line or field.
struct SessionFileFields {
    private var fields: [String: String] = [:]

    /// Reads `text`: line 1 must be `header`; each later non-empty line is `name: value`, no name twice.
    init(_ text: String, header: String) throws(SessionFile.FormatError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first.map(String.init) == header else { throw .notASessionFile }
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw .notNameValue(line: index + 1) }
            let name = String(line[..<colon]), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard fields[name] == nil else { throw .givenTwice(line: index + 1, name: name) }
            fields[name] = value
        }
    }

    /// The field's value, taken out (so that ``expectNoOtherField()`` knows it was read), or nil.
    mutating func optional(_ name: String) -> String? { fields.removeValue(forKey: name) }

    mutating func required(_ name: String) throws(SessionFile.FormatError) -> String {
        guard let value = optional(name) else { throw .missing(name: name) }
        return value
    }

    /// Hex digits, an even number of them, for between `lengths` bytes.
    static func bytes(_ name: String, _ value: String, lengths: ClosedRange<Int>) throws(SessionFile.FormatError) -> [UInt8] {
        guard value.count % 2 == 0, let decoded = SessionFile.unhex(value), lengths.contains(decoded.count) else {
            throw .hexExpected(name: name, lengths: lengths)
        }
        return decoded
    }

    mutating func bytes(_ name: String, lengths: ClosedRange<Int>) throws(SessionFile.FormatError) -> [UInt8] {
        try Self.bytes(name, required(name), lengths: lengths)
    }

    /// A decimal number that fits 32 bits.
    static func number(_ name: String, _ value: String) throws(SessionFile.FormatError) -> UInt32 {
        guard let n = UInt32(value) else { throw .numberExpected(name: name) }
        return n
    }

    mutating func number(_ name: String) throws(SessionFile.FormatError) -> UInt32 {
        try Self.number(name, required(name))
    }

    /// A decimal number that fits 64 bits.
    mutating func wideNumber(_ name: String) throws(SessionFile.FormatError) -> UInt64 {
        guard let n = UInt64(try required(name)) else { throw .numberExpected(name: name) }
        return n
    }

    /// `true` or `false`.
    mutating func flag(_ name: String) throws(SessionFile.FormatError) -> Bool {
        switch try required(name) {
        case "true": return true
        case "false": return false
        default: throw .booleanExpected(name: name)
        }
    }

    /// A field left unread is one the form does not have: the first by name is named.
    func expectNoOtherField() throws(SessionFile.FormatError) {
        if let unknown = fields.keys.sorted().first { throw .unknownField(unknown) }
    }
}
