/// How a host chooses initial sequence numbers (RFC 9293 §3.4.1; RFC 6528 for why they must be
/// unpredictable).
public enum ISNMode: Hashable, Sendable {
    /// 32 bits from the injected random source for every connection.
    case random
    /// The BSD-style counter: `start`, then `+ increment` per connection (64,000 in 4.3BSD, 64 in 4.2BSD), which
    /// an off-path attacker can predict after one connection of its own.
    case counter(start: UInt32, increment: UInt32)
}

/// Produces ISNs for one host.
public struct ISNGenerator: Hashable, Sendable {
    public let mode: ISNMode
    private var nextCounter: UInt32

    public init(_ mode: ISNMode) {
        self.mode = mode
        if case .counter(let start, _) = mode { nextCounter = start } else { nextCounter = 0 }
    }

    public mutating func next(using random: any TCPRandomSource) -> SeqNumber {
        switch mode {
        case .random:
            return SeqNumber(random.next32())
        case .counter(_, let increment):
            let isn = nextCounter
            nextCounter &+= increment
            return SeqNumber(isn)
        }
    }
}
