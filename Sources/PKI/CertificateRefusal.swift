/// Why a certificate chain was refused, by name — the same reasons for a client refusing a server's
/// chain and a server refusing a client's. PKI names the reason only; which TLS alert answers it is
/// the TLS engine's one table (`TLSAlertTable`).
///
/// A failed check of the validation (RFC 5280 §6.1) becomes the reason of its kind, and a failed
/// validity check says which side of the period failed.
public enum CertificateRefusal: String, Sendable, Hashable, CaseIterable {
    // Nothing to validate.
    /// The peer sent an empty Certificate message where a chain is required (RFC 5246 §7.4.2, §7.4.6).
    case noCertificate
    /// A certificate's DER does not parse as an X.509 certificate (RFC 5280 §4.1).
    case unparsable
    /// No evaluator was configured for the chain: nothing could decide whether to trust it.
    case notEvaluated

    // A failed check of the chain validation (RFC 5280 §6.1.3, §6.1.4; RFC 9525 for the name).
    /// No chain could be built from the leaf towards an issuer.
    case noPath
    /// The path ends in a certificate that is not a trust anchor (a self-signed leaf included).
    case untrustedAnchor
    /// A signature in the path does not verify with its issuer's key.
    case signatureInvalid
    /// A certificate's notAfter is in the past.
    case expired
    /// A certificate's notBefore is in the future.
    case notYetValid
    /// A key too small or a digest too weak (SHA-1, MD5) for the verifier's rules.
    case weakAlgorithm
    /// A critical extension the verifier does not process (RFC 5280 §4.2).
    case unhandledCriticalExtension
    /// An issuer without basicConstraints cA = TRUE (RFC 5280 §4.2.1.9).
    case issuerNotCA
    /// An issuer whose keyUsage lacks keyCertSign (RFC 5280 §4.2.1.3).
    case issuerCannotSignCertificates
    /// More certificates below a CA than its pathLenConstraint allows (RFC 5280 §4.2.1.9).
    case pathLengthExceeded
    /// More intermediates than the verifier allows.
    case chainTooLong
    /// An extendedKeyUsage that does not allow the purpose (serverAuth, clientAuth; RFC 5280 §4.2.1.12).
    case extendedKeyUsageUnsuitable
    /// A keyUsage that does not allow the purpose (RFC 5280 §4.2.1.3).
    case keyUsageUnsuitable
    /// A leaf that is a CA (TLSLab's end-entity rule).
    case leafIsCA
    /// The leaf does not name the host (RFC 9525 §6).
    case nameMismatch
    /// A name outside a CA's permitted subtrees or inside its excluded ones (RFC 5280 §4.2.1.10).
    case nameConstraintViolated
    /// A certificate-profile rule broken (RFC 5280 §4.1.2.2, §4.2.1.x; CABF Baseline Requirements §7.1.2).
    case profileViolated

    // Decisions after a validation.
    /// The chain validates, but the application's own rule (a pin, a delegate) refused it.
    case refusedByPolicy
    /// A valid client chain whose subject is not on the server's list.
    case subjectNotAllowed
    /// The leaf's key is of a type or size the handshake cannot use (RSA, EC P-256/P-384 only; the
    /// suite's authentication algorithm decides which one).
    case unsupportedKey

    /// The reason for a failed check; nil (a refusal without a failing check, as a pin mismatch on a
    /// chain the system accepts) is the application's own refusal.
    public init(failing check: ChainCheck?) {
        guard let check else { self = .refusedByPolicy; return }
        switch check.kind {
        case .pathBuilding: self = .noPath
        case .anchor: self = .untrustedAnchor
        case .signature: self = .signatureInvalid
        case .validity: self = check.validityFailure == .notYetValid ? .notYetValid : .expired
        case .algorithmStrength: self = .weakAlgorithm
        case .criticalExtensions: self = .unhandledCriticalExtension
        case .caFlag: self = .issuerNotCA
        case .keyCertSign: self = .issuerCannotSignCertificates
        case .pathLength: self = .pathLengthExceeded
        case .chainDepth: self = .chainTooLong
        case .extendedKeyUsage: self = .extendedKeyUsageUnsuitable
        case .keyUsage: self = .keyUsageUnsuitable
        case .endEntity: self = .leafIsCA
        case .name: self = .nameMismatch
        case .nameConstraints: self = .nameConstraintViolated
        case .profile: self = .profileViolated
        }
    }
}
