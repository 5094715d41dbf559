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

    /// Every note of `fields`, with the name of the field carrying it.
    public var notes: [(field: String, note: DissectionNote)] {
        fields.flatMap(\.all).flatMap { f in f.notes.map { (field: f.name, note: $0) } }
    }

    /// The engine's verdicts, reassembled messages included: the errors it refuses the bytes with.
    public var refusals: [TLSError] {
        (fields + reassembled).flatMap(\.all).flatMap(\.notes).compactMap(\.refusal)
    }

    public var description: String {
        (fields.flatMap { $0.outline() } + reassembled.flatMap { ["(reassembled)"] + $0.outline() })
            .joined(separator: "\n")
    }
}
