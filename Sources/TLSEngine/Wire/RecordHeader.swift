/// The 5-byte record header (RFC 5246 §6.2.1), checked: a content type of RFC 5246 (else
/// unexpected_message), major version 3 (else decode_error), length within `limit` (else
/// record_overflow). An SSL 2.0 CLIENT-HELLO (RFC 5246 Appendix E.2) is reported as such.
public struct RecordHeader: Hashable, Sendable {
    public var contentType: ContentType
    public var version: ProtocolVersion
    public var length: Int

    public init(contentType: ContentType, version: ProtocolVersion, length: Int) {
        self.contentType = contentType
        self.version = version
        self.length = length
    }

    /// Checks the header's first bytes as soon as they arrive, so garbage is refused without
    /// waiting for a whole header: nil means "fine so far".
    static func earlyError(_ prefix: ArraySlice<UInt8>) -> DecodeError? {
        guard let first = prefix.first else { return nil }
        if first & 0x80 != 0 {
            // SSL 2.0: a 2-byte length with the high bit set, then msg_type 1 (CLIENT-HELLO).
            let third = prefix.dropFirst(2).first
            if third == nil { return nil }
            if third == 1 { return .sslv2ClientHello }
        }
        guard ContentType(rawValue: first).isTLS12Defined else { return .unexpectedContentType(first) }
        if let major = prefix.dropFirst().first, major != 3 {
            return .malformed(field: "record.version", reason: .recordMajorVersion(major))
        }
        return nil
    }

    public init(from reader: inout ByteReader, limit: Int) throws(DecodeError) {
        let available = Array(reader.bytes[reader.position ..< min(reader.end, reader.position + 3)])
        if let error = Self.earlyError(available[...]) { throw error }
        self = try Self.readFields(from: &reader)
        guard length <= limit else { throw .recordOverflow(length: length, limit: limit) }
    }

    /// The three fields as they come, `type`, `version`, `length` (the checks are the caller's): the
    /// one reading of a record header, the engine's and, with a recorder on the reader, the dissector's.
    static func readFields(from reader: inout ByteReader) throws(DecodeError) -> RecordHeader {
        let type = try reader.readCodePoint(ContentType.self, field: "ContentType", recordedAs: "type")
        let version = try reader.readCodePoint(ProtocolVersion.self, field: "ProtocolVersion", recordedAs: "version")
        let available = reader.remaining - 2
        let length = Int(try reader.readUInt(width: 2, field: "record.length", recordedAs: "length", as: .number, notes: { n in
            Int(n) > available ? [.declaresMore(declared: Int(n), present: max(available, 0))] : []
        }))
        return RecordHeader(contentType: type, version: version, length: length)
    }
}
