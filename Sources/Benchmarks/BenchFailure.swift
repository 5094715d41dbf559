/// A benchmark that cannot give a figure: what went wrong, for the person running it.
public struct BenchFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
