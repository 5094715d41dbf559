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
        /// An HTTP request or response handed to / delivered by TLS.
        case http(HTTPEvent)
        /// A phase of the run begins (for headings): "TCP three-way handshake", …
        case phase(String)
    }

    public var time: Int64
    public var actor: Actor
    public var kind: Kind

    public init(time: Int64, actor: Actor, kind: Kind) {
        self.time = time
        self.actor = actor
        self.kind = kind
    }
}

/// HTTP as the simulation's application: one request, one response.
public enum HTTPEvent: Sendable, Hashable {
    case requestSent(String)
    case requestReceived(String)
    case responseSent(String)
    case responseReceived(String)
}
