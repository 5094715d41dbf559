import HTTP2
import TCPSim
import TLSEngine

/// Who did or saw something in a run.
public enum Actor: String, Sendable, Hashable, CaseIterable {
    case client, server, network, eavesdropper, attacker
}

/// One entry of a run's trace: when (virtual microseconds since the start), who, and what.
///
/// The engines produce the facts (TCP segments and state changes, TLS messages and derived
/// values); the simulation only stamps them with time and actor. Renderers read this.
public struct TraceEvent: Sendable {
    public enum Kind: Sendable {
        /// A TCP-level event (segment sent/delivered/dropped, state change, timer, …).
        case tcp(TCPNetworkEvent.Kind)
        /// A TLS engine event (message, record, derived value, alert, …).
        case tls(TLSEvent)
        /// An HTTP request or response handed to / delivered by TLS (or plain TCP).
        case http(HTTPEvent)
        /// HTTP/2 framing (mode `h2`): the preface, each frame sent or received, connection errors.
        case http2(HTTP2Event)
        /// A phase of the run begins (renderers name it: "TCP three-way handshake", …).
        case phase(Phase)
        /// What an attacker or observer did or worked out.
        case attack(AttackEvent)
        /// Virtual CPU time spent on public-key operations before a side could answer.
        case compute(operations: [ComputeOperation], duration: Int64)
        /// A message the sender sent that the receiver (this event's actor) dropped unprocessed.
        case dropped(UndeliveredMessage)
        /// The whole chain validation behind the certificate decision just before it.
        case chainValidation(ChainValidationTrace)
        /// A lesson without a TLS connection: an ATS decision, Diffie-Hellman by hand, a TCP script.
        case lesson(LessonEvent)
    }

    public var time: Int64
    public var actor: Actor
    public var kind: Kind
    /// Which connection of the run (0 for the first; an attacker's two legs share the number).
    public var connection: Int
    /// For a TLS or HTTP event: the party at the other end of this actor's connection (nil: the
    /// usual peer, server for the client and client for the server). A MITM makes it `.attacker`.
    public var peer: Actor?
    /// For a TCP event about a packet: the network's number for it and what it answers or replaces
    /// (a SYN-ACK names the SYN it answers; an attacker's changed copy the segment it replaces).
    public var packetLinks: TCPPacketLinks?

    public init(time: Int64, actor: Actor, kind: Kind, connection: Int = 0, peer: Actor? = nil, packetLinks: TCPPacketLinks? = nil) {
        self.time = time
        self.actor = actor
        self.kind = kind
        self.connection = connection
        self.peer = peer
        self.packetLinks = packetLinks
    }

    /// The other end of this event's actor: `peer`, or client ↔ server.
    public var counterpart: Actor {
        if let peer { return peer }
        switch actor {
        case .client: return .server
        case .server: return .client
        default: return .network
        }
    }
}

/// HTTP as the simulation's application: requests and responses.
public enum HTTPEvent: Sendable, Hashable {
    case requestSent(String)
    /// HTTP/2: a request sent again on a new stream after the server refused its first stream with
    /// RST_STREAM REFUSED_STREAM (RFC 9113 §8.7: not processed, so safe to retry); `stream` is the refused one.
    case requestRetried(String, refusedStream: UInt32)
    case requestReceived(String)
    case responseSent(String)
    case responseReceived(String)
    /// A real peer's exchange ended in failure after the point the TLS events show (no response, a
    /// timeout, the peer's HTTP/2 error, an early close): why, in one line (`tlslab connect`/`serve`).
    case failed(ExchangeFailure)
}
