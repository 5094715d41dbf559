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

/// A scripted fault: "the `nth` segment sent from `from` to `to` (counting from 1) is dropped /
/// duplicated / delayed".
public struct TCPFaultRule: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        case drop
        case duplicate
        case delay(TCPTime)
    }
    public var from: IPv4Address
    public var to: IPv4Address
    public var nth: Int
    public var action: Action
    public init(from: IPv4Address, to: IPv4Address, nth: Int, _ action: Action) {
        self.from = from
        self.to = to
        self.nth = nth
        self.action = action
    }
}

/// Why the network did not deliver a segment.
public enum TCPDropReason: String, Hashable, Sendable {
    case scriptedLoss = "scripted loss"
    case randomLoss = "random loss"
    /// No host has the destination address (a spoofed source, a silenced host).
    case noRoute = "no route to host"
    /// A SYN for a listener whose backlog of half-open connections is full.
    case backlogFull = "listen backlog full"
    /// The bytes did not decode (only when the network round-trips segments through the wire format).
    case malformed = "malformed segment"
}

/// One thing that happened in a `TCPNetwork`, at a virtual time.
public struct TCPNetworkEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A host handed a segment to the network. A retransmission is preceded by the connection's
        /// `.retransmitted` event for the same segment.
        case sent(TCPPacket)
        case delivered(TCPPacket)
        case dropped(TCPPacket, TCPDropReason)
        /// A second copy was scheduled.
        case duplicated(TCPPacket)
        /// A segment put on the wire by the scenario (an attacker, an old duplicate).
        case injected(TCPPacket)
        /// A stateless SYN-ACK carrying a SYN cookie.
        case synCookieSent(TCPPacket)
        case synCookieAccepted(TCPConnectionID)
        /// Something a connection reported (state change, timer, retransmission, …).
        case connection(TCPConnectionID, TCPEvent)
    }
    public var time: TCPTime
    public var kind: Kind
}
