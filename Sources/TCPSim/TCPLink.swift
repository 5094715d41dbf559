/// One direction of the simulated path between two hosts: latency, and faults drawn from the
/// network's injected random source.
public struct TCPLink: Hashable, Sendable {
    /// One-way delay.
    public var latency: TCPTime
    /// Probability that a segment is lost.
    public var lossRate: Double
    /// Probability that a segment is delivered twice.
    public var duplicateRate: Double
    /// Extra delay drawn uniformly in 0...jitter per segment; segments then overtake each other.
    public var jitter: TCPTime

    public init(latency: TCPTime = TCPDuration.milliseconds(10), lossRate: Double = 0,
                duplicateRate: Double = 0, jitter: TCPTime = 0) {
        self.latency = latency
        self.lossRate = lossRate
        self.duplicateRate = duplicateRate
        self.jitter = jitter
    }
}
