import PKI
import TLSCrypto

/// What the trust layer decided about a peer's certificate chain (the engine only carries it out),
/// with the evidence: the chain validation the decision rests on, every check per link in order,
/// when the deciding evaluator validated a chain (nil for evaluators that check no path).
public enum CertificateDecision: Sendable {
    /// Trusted: the handshake continues with the leaf's key (RSA or ECDSA); `summary` is why, for the trace.
    case accept(leafPublicKey: VerificationKey, summary: CertificateAccount, validation: ChainValidationResult? = nil)
    /// Refused, for a named reason; the engine answers it with its alert (``TLSAlertTable``).
    case reject(CertificateRefusal, reason: CertificateAccount, validation: ChainValidationResult? = nil)

    /// The chain validation behind the decision, when there was one.
    public var validation: ChainValidationResult? {
        switch self {
        case .accept(_, _, let validation), .reject(_, _, let validation): return validation
        }
    }
}
