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
