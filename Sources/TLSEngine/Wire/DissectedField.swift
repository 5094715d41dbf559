/// One field found by the `Dissector`: where it is in the input, its RFC name, and what it means.
///
/// A field either has children (a structure or vector) or is a leaf; the leaves of a dissection
/// cover every input byte exactly once, in order.
public struct DissectedField: Hashable, Sendable, CustomStringConvertible {
    /// Offset of the first byte in the dissected input.
    public var offset: Int
    /// Number of bytes (0 only for a note where the bytes stop).
    public var length: Int
    /// The RFC field name with its path inside the message, e.g. `random.gmt_unix_time`,
    /// `cipher_suites[3]`, `extensions[0].extension_type`.
    public var name: String
    /// The decoded meaning, e.g. `TLS 1.2 (0x0303)`.
    public var value: String
    /// Why something is off here: truncation, a length outside the RFC bounds, trailing bytes.
    public var note: String?
    public var children: [DissectedField]

    public init(offset: Int, length: Int, name: String, value: String, note: String? = nil,
                children: [DissectedField] = []) {
        self.offset = offset
        self.length = length
        self.name = name
        self.value = value
        self.note = note
        self.children = children
    }

    public var isLeaf: Bool { children.isEmpty }

    /// One past the last byte.
    public var end: Int { offset + length }

    /// The leaves under this field (itself if it is one), in order.
    public var leaves: [DissectedField] {
        isLeaf ? [self] : children.flatMap(\.leaves)
    }

    /// An indented outline, one field a line: `offset+length name = value  (note)`.
    public func outline(indent: Int = 0) -> [String] {
        var line = String(repeating: "  ", count: indent) + "\(offset)+\(length) \(name)"
        if !value.isEmpty { line += " = \(value)" }
        if let note { line += "  [\(note)]" }
        return [line] + children.flatMap { $0.outline(indent: indent + 1) }
    }

    public var description: String { outline().joined(separator: "\n") }
}

/// The result of dissecting a byte string.
public struct Dissection: Hashable, Sendable, CustomStringConvertible {
    /// Top-level fields (records, or handshake messages); their leaves cover the input exactly.
    public var fields: [DissectedField]
    /// Handshake messages that spanned records, dissected again once whole; offsets here are
    /// relative to the reassembled message (header included), not to the input.
    public var reassembled: [DissectedField]

    public init(fields: [DissectedField], reassembled: [DissectedField] = []) {
        self.fields = fields
        self.reassembled = reassembled
    }

    /// Every leaf, in input order.
    public var leaves: [DissectedField] { fields.flatMap(\.leaves) }

    /// Every note, with the name of the field carrying it.
    public var notes: [(field: String, note: String)] {
        func walk(_ f: DissectedField) -> [(String, String)] {
            (f.note.map { [(f.name, $0)] } ?? []) + f.children.flatMap(walk)
        }
        return fields.flatMap(walk).map { (field: $0.0, note: $0.1) }
    }

    public var description: String {
        (fields.flatMap { $0.outline() } + reassembled.flatMap { ["(reassembled)"] + $0.outline() })
            .joined(separator: "\n")
    }
}
