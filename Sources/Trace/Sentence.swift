/// A sentence of the teaching text, named by its key in the renderer's catalogue (Rendering's
/// `Explanations`) with the values it mentions. The simulation states facts; it never writes
/// prose itself, so a second language is a new catalogue, not a code change.
public struct Sentence: Sendable, Hashable, CustomStringConvertible {
    public var key: String
    /// Values for the catalogue text's `{name}` placeholders.
    public var values: [String: String]

    public init(_ key: String, _ values: [String: String] = [:]) {
        self.key = key
        self.values = values
    }

    /// The key and values (a renderer shows the catalogue's text instead).
    public var description: String {
        values.isEmpty ? key : key + " " + values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
