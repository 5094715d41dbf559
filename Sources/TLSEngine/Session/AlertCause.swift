/// Why this side sent an alert, as a fact for the trace: renderers word it from their catalogue.
/// ``description`` is the one English line the JSON Lines contract's `cause` field carries.
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

    public var description: String {
        switch self {
        case .close: return "close"
        case .replyToCloseNotify: return "reply to close_notify"
        case .renegotiationRefused: return "renegotiation is not supported"
        case .handshakeCanceled: return "the handshake is canceled for a reason unrelated to a protocol failure"
        case .failure(let error): return error.description
        case .tls13(let failure): return "\(failure)"
        }
    }

    /// The failure's own account without the alert's name, when the alert already says it (a driver's
    /// "alert: why" line).
    public var detailWithoutAlert: String {
        guard case .failure(let error) = self else { return description }
        switch error {
        case .peerIncompatible(let reason): return reason.description
        case .peerMisbehaved(let reason): return reason.description
        case .recordProtection(.badRecordMAC(let why)): return why.description
        case .recordProtection(.recordOverflow(let length)): return "\(length) bytes"
        default: return error.description
        }
    }
}
