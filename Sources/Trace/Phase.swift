import HTTP2
import TCPSim

/// A part of a run beginning, as a fact: the renderers name it (in the reader's language) and
/// explain it; the trace never carries the heading's words.
public enum Phase: Sendable, Hashable {
    /// TCP's three-way handshake (RFC 9293 §3.5), as the simulation draws it segment by segment.
    case tcpOpen
    /// A real peer's TCP connection: only what the socket API shows (connect/accept, bytes, close).
    case tcpSocketLevel
    /// The TLS 1.2 handshake (RFC 5246 §7.3).
    case tlsHandshake
    /// HTTP/1.x requests and responses, inside TLS records or in the clear.
    case http(overTLS: Bool)
    /// HTTP/2 (RFC 9113), chosen by ALPN (`h2`) or by prior knowledge (`h2c`); `allRequestsAtOnce`
    /// when the client opens one stream per request in its first flight (the simulation's runs).
    case http2(HTTP2Negotiation, allRequestsAtOnce: Bool)
    /// The simulated client's TLS handshake selected `selected` (nil: no protocol) rather than h2, so
    /// the connection is not HTTP/2 and the client sends no preface (RFC 9113 §3.2).
    case http2NotSelected(selected: String?)
    /// A real peer's ALPN chose a protocol it does not speak (RFC 7301 §3.2): the client sends no
    /// request; the server closes after the handshake.
    case unspokenApplicationProtocol(String, by: Actor)
    /// The end of a connection.
    case closing(Closing)
    /// The run could not go on: the simulated network refused a user call (RFC 9293 §3.10).
    case failed(Failure, error: TCPUserError)
    /// What a real peer's socket showed (connect, accept, a deadline, a failed write, close), as the
    /// driver observed it.
    case socket(SocketNote)
    /// A real peer's trace reached its bounds: `dropped` later events were not kept.
    case traceLimit(dropped: Int, events: Int, mebibytes: Int)

    public enum Closing: Sendable, Hashable {
        /// close_notify, then TCP's close (the simulation draws the segments).
        case closeNotifyAndTCPClose
        /// Plain TCP: the close alone.
        case tcpClose
        /// A real peer: close_notify, then close() on the socket.
        case closeNotifyAndSocketClose
        /// A real HTTP/2 server: GOAWAY sent (after the last response), then close_notify and close().
        case goAwayThenCloseNotify
        /// A real HTTP/2 server ending an idle or slow connection: GOAWAY, close_notify, close() (the
        /// exchange's failure says why).
        case idleGoAway
        /// A real peer giving up an unfinished handshake (its deadline passed): user_canceled, then
        /// close_notify, then close() (RFC 5246 §7.2.2).
        case userCanceledThenCloseNotify
    }

    public enum Failure: Sendable, Hashable {
        case serverCouldNotListen, connectionNotOpened, attackerCouldNotReachServer
    }
}

extension Phase {
    /// The phase's stable identifier: JSON Lines writes it as the `phase` object's `id` (its `name` is
    /// the English heading, which may be reworded; the identifier is not). One per heading the
    /// catalogue has for the phase; the values inside a heading (a protocol name, a count) are not part of it.
    public var identifier: String {
        switch self {
        case .tcpOpen: "tcp_open"
        case .tcpSocketLevel: "tcp_socket_level"
        case .tlsHandshake: "tls_handshake"
        case .http(let overTLS): overTLS ? "http_over_tls" : "http_in_the_clear"
        case .http2(let how, let allAtOnce):
            switch (how, allAtOnce) {
            case (.h2, true): "http2_h2_all_at_once"
            case (.h2c, true): "http2_h2c_all_at_once"
            case (.h2, false): "http2_h2"
            case (.h2c, false): "http2_h2c"
            }
        case .http2NotSelected: "http2_not_selected"
        case .unspokenApplicationProtocol(_, let actor): actor == .server ? "unspoken_protocol_server_closes" : "unspoken_protocol_client_silent"
        case .closing(let how):
            switch how {
            case .closeNotifyAndTCPClose: "closing_close_notify_and_tcp_close"
            case .tcpClose: "closing_tcp_close"
            case .closeNotifyAndSocketClose: "closing_close_notify_and_socket_close"
            case .goAwayThenCloseNotify: "closing_goaway_then_close_notify"
            case .idleGoAway: "closing_idle_goaway"
            case .userCanceledThenCloseNotify: "closing_user_canceled_then_close_notify"
            }
        case .failed(let failure, _):
            switch failure {
            case .serverCouldNotListen: "failed_server_could_not_listen"
            case .connectionNotOpened: "failed_connection_not_opened"
            case .attackerCouldNotReachServer: "failed_attacker_could_not_reach_server"
            }
        case .socket: "socket"
        case .traceLimit: "trace_limit"
        }
    }
}
