/// One thing that happened in a `TCPNetwork`, at a virtual time.
public struct TCPNetworkEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A host handed a segment to the network. A retransmission is preceded by the connection's
        /// `.retransmitted` event for the same segment.
        case sent(TCPPacket)
        case delivered(TCPPacket)
        case dropped(TCPPacket, TCPDropReason)
        /// The segment just `sent`, as an on-path hook (an attacker) changed it before it went on:
        /// what the rest of the path carries from the same instant — the hook's own send — and what
        /// it changed. Recorded only when it differs.
        case forwarded(TCPPacket, TCPRewrite)
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
    /// For an event about a packet: its number and what caused it (nil for a connection's own event).
    public var links: TCPPacketLinks?

    public init(time: TCPTime, kind: Kind, links: TCPPacketLinks? = nil) {
        self.time = time
        self.kind = kind
        self.links = links
    }
}
