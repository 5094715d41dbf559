import PKI

/// Why a connection failed, grouped as rustls groups its errors; ``alert`` is the one mapping from
/// any failure to the alert to send (RFC 5246 §7.2.2), through ``reason`` and ``TLSAlertTable``.
public enum TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A message or record that is not valid in the current state (RFC 5246 §7.3, §7.4).
    case inappropriateMessage(expected: ExpectedMessage, got: ArrivedMessage)
    /// Bytes that do not decode (DecodeError says which alert).
    case invalidMessage(DecodeError)
    /// A protected record that does not open (bad_record_mac, record_overflow).
    case recordProtection(RecordProtectionError)
    /// The peer wants something we do not support (no common suite or version).
    case peerIncompatible(PeerIncompatible)
    /// The peer broke a rule (bad signature, bad Finished, illegal value).
    case peerMisbehaved(PeerMisbehaved)
    /// The certificate evaluator (or the engine's own rule) refused the peer's chain, with the
    /// account of why.
    case certificateRejected(CertificateRefusal, CertificateAccount)
    /// The peer sent a fatal alert (we send none back).
    case alertReceived(Alert)
    /// Our own configuration, keys or a local computation failed.
    case internalError(InternalFailure)

    /// The alert to send, or nil when the peer already ended the connection with one.
    public var alert: AlertDescription? { reason.map(TLSAlertTable.alert(for:)) }

    /// A debugging line (JSON Lines and the renderers word the case from their catalogue).
    public var description: String {
        switch self {
        case let .inappropriateMessage(expected, got): return "unexpected \(got) (expected \(expected))"
        case .invalidMessage(let e): return "malformed: \(e)"
        case .recordProtection(let e): return e.description
        case .peerIncompatible(let reason): return "\(reason.alert): \(reason)"
        case .peerMisbehaved(let reason): return "\(reason.alert): \(reason)"
        case let .certificateRejected(refusal, why): return "certificate rejected (\(TLSAlertTable.alert(for: refusal))): \(why)"
        case .alertReceived(let a): return "peer sent alert \(a)"
        case .internalError(let why): return "internal error: \(why)"
        }
    }
}
