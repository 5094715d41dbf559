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
