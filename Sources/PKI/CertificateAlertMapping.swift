/// The TLS alert (RFC 5246 §7.2.2) a peer sends when it refuses a certificate chain because of a
/// failed check — the same for a client refusing a server's chain and a server refusing a client's.
/// Keyed by the check's kind (and, for validity, which side of the period failed), following
/// OpenSSL's X509 error → alert table (`ssl_verify_alarm_type`, OpenSSL 3.0):
/// - certificate expired → certificate_expired; not yet valid → bad_certificate
/// - no path to an anchor, self-signed leaf, CA:FALSE issuer (INVALID_CA), pathLen exceeded,
///   chain too long (CERT_CHAIN_TOO_LONG) → unknown_ca
/// - EKU or keyUsage unsuitable for the purpose (INVALID_PURPOSE) → unsupported_certificate
/// - signature does not verify (CERT_SIGNATURE_FAILURE) → decrypt_error
/// - weak key or digest (EE_KEY_TOO_SMALL, CA_MD_TOO_WEAK), host name mismatch → bad_certificate
/// - unhandled critical extension, CA keyUsage without keyCertSign, a name-constraint violation
///   (PERMITTED_/EXCLUDED_VIOLATION), a profile rule (X509_STRICT errors): not in that table → certificate_unknown
/// - TLSLab's own end-entity rule (CA:TRUE leaf), which OpenSSL does not make → bad_certificate
/// The client side was measured against `s_client` (OpenSSLAlertTests, TLSAlertMappingTests).
public enum CertificateAlertMapping {
    public static func alert(for kind: ChainCheck.Kind, validity: ChainCheck.ValidityFailure? = nil) -> TLSAlertName {
        switch kind {
        case .validity: return validity == .notYetValid ? .badCertificate : .certificateExpired
        case .anchor, .pathBuilding, .caFlag, .pathLength, .chainDepth: return .unknownCA
        case .extendedKeyUsage, .keyUsage: return .unsupportedCertificate
        case .signature: return .decryptError
        case .criticalExtensions, .keyCertSign, .nameConstraints, .profile: return .certificateUnknown
        case .algorithmStrength, .endEntity, .name: return .badCertificate
        }
    }

    /// The alert for a failed check; a refusal without one (a pin mismatch on a chain the system
    /// accepts) is bad_certificate, as a verify callback's refusal is.
    public static func alert(for check: ChainCheck?) -> TLSAlertName {
        guard let check else { return .badCertificate }
        return alert(for: check.kind, validity: check.validityFailure)
    }
}
