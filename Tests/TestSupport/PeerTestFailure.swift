/// A test's own failure with a sentence for the test log (a peer that did not start, a tool that
/// failed): tests only, never shown to a learner.
public struct PeerTestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
