/// Why this side sent an alert, as a fact for the trace: renderers word it from their catalogue
/// (the JSON Lines contract's `cause` is the catalogue's English).
public enum AlertCause: Sendable, Hashable, CustomStringConvertible {
    /// close_notify on the application's close (RFC 5246 §7.2.1).
    case close
    /// close_notify answering the peer's (RFC 5246 §7.2.1).
    case replyToCloseNotify
    /// no_renegotiation (warning) answering a HelloRequest or a second ClientHello (RFC 5246 §7.2.2).
    case renegotiationRefused
    /// user_canceled (warning) when this side gives up an unfinished handshake for a reason that is
    /// no protocol failure, such as its driver's deadline (RFC 5246 §7.2.2); close_notify follows.
    case handshakeCanceled
    /// A failure: the fatal alert is the one ``TLSAlertTable`` gives its reason.
    case failure(TLSError)
    /// A TLS 1.3 side's failure: the alert is the one RFC 8446 §6.2 names for it (``TLS13Failure/alert``).
    case tls13(TLS13Failure)

    /// A debugging identifier (the case's name); the catalogue words the cause (en and zh).
    public var description: String {
        switch self {
        case .close: return "close"
        case .replyToCloseNotify: return "replyToCloseNotify"
        case .renegotiationRefused: return "renegotiationRefused"
        case .handshakeCanceled: return "handshakeCanceled"
        case .failure(let error): return "failure(\(error))"
        case .tls13(let failure): return "tls13(\(failure))"
        }
    }
}
