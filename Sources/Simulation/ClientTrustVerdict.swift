import PKI

/// What the simulated client decided about the server's chain, with everything a renderer shows:
/// the challenge outcome (disposition), the reasons in order, the first failing chain check and
/// the alert the client sends when it refuses.
public struct ClientTrustVerdict: Sendable, Equatable {
    /// The ServerTrust challenge's disposition and whether the handshake continues; nil when the
    /// decision was made before the challenge (ATS, or a chain that does not parse).
    public let outcome: ChallengeOutcome?
    public let accepted: Bool
    /// Every reason in the order it was reached (ATS first, then the app's policy, then the URL loading system).
    public let reasons: [String]
    /// The chain evaluation the decision relied on (the system default one when the policy ran none).
    public let evaluation: ChainValidationResult?
    /// The first failing check of `evaluation`, if any.
    public var firstFailure: ChainCheck? { evaluation?.firstFailure }
    /// The alert sent on refusal (RFC 5246 §7.2.2), as OpenSSL's client maps the failure; nil when accepted.
    public let alert: TLSAlertName?
}

/// The alert an OpenSSL client sends for a failed certificate check. Measured with OpenSSL 3.0
/// (`s_client -tls1_2 -verify_return_error -auth_level 2` against `s_server`, one defect each):
/// expired → certificate_expired; not yet valid, wrong host, SHA-1 signature, RSA-1024 leaf →
/// bad_certificate; missing intermediate, self-signed leaf, CA:FALSE intermediate, pathLen exceeded
/// → unknown_ca; EKU without serverAuth → unsupported_certificate; a bad signature → decrypt_error
/// (OpenSSLAlertTests re-measures this with TLSLAB_HEAVY=1). A chain the system accepts but the app
/// refuses (a pin mismatch) → bad_certificate, as a verify callback's refusal is.
public enum CertificateAlertMapping {
    public static func alert(for check: ChainCheck?) -> TLSAlertName {
        guard let check else { return .badCertificate }
        switch check.kind {
        case .validity: return check.detail.hasPrefix("expired") ? .certificateExpired : .badCertificate
        case .anchor, .pathBuilding, .caFlag, .pathLength: return .unknownCA
        case .extendedKeyUsage: return .unsupportedCertificate
        case .signature: return .decryptError
        case .algorithmStrength, .criticalExtensions, .keyCertSign, .endEntity, .name: return .badCertificate
        }
    }
}
