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
    public var value: FieldValue
    /// What is remarkable here: where the bytes stop, the engine's verdict, how a record relates to
    /// the messages it carries.
    public var notes: [DissectionNote]
    public var children: [DissectedField]

    public init(offset: Int, length: Int, name: String, value: FieldValue, notes: [DissectionNote] = [],
                children: [DissectedField] = []) {
        self.offset = offset
        self.length = length
        self.name = name
        self.value = value
        self.notes = notes
        self.children = children
    }

    public var isLeaf: Bool { children.isEmpty }

    /// One past the last byte.
    public var end: Int { offset + length }

    /// The leaves under this field (itself if it is one), in order.
    public var leaves: [DissectedField] {
        isLeaf ? [self] : children.flatMap(\.leaves)
    }

    /// This field and every field under it, in input order (a structure before its children).
    public var all: [DissectedField] { [self] + children.flatMap(\.all) }

    /// Adds `note` to the first field (this one or below, structure before children) that
    /// `matches`; false when none does.
    @discardableResult
    public mutating func annotate(_ note: DissectionNote, where matches: (DissectedField) -> Bool) -> Bool {
        if matches(self) {
            notes.append(note)
            return true
        }
        for i in children.indices where children[i].annotate(note, where: matches) { return true }
        return false
    }

    /// An indented outline, one field a line: `offset+length name = value  [notes]` (for debugging;
    /// the renderers word values and notes from their catalogue).
    public func outline(indent: Int = 0) -> [String] {
        var line = String(repeating: "  ", count: indent) + "\(offset)+\(length) \(name)"
        if value != .none { line += " = \(value)" }
        if !notes.isEmpty { line += "  \(notes)" }
        return [line] + children.flatMap { $0.outline(indent: indent + 1) }
    }

    public var description: String { outline().joined(separator: "\n") }
}
