/// The TLS alerts a PKI decision can end in (RFC 5246 §7.2.2). The TLS engine maps these to its
/// own alert type; PKI only names them.
public enum TLSAlertName: String, Sendable, Hashable, CaseIterable {
    case handshakeFailure = "handshake_failure"
    case badCertificate = "bad_certificate"
    case unsupportedCertificate = "unsupported_certificate"
    case certificateExpired = "certificate_expired"
    case certificateUnknown = "certificate_unknown"
    case unknownCA = "unknown_ca"
    case accessDenied = "access_denied"
    case decryptError = "decrypt_error"

    /// AlertDescription code (RFC 5246 §7.2).
    public var code: UInt8 {
        switch self {
        case .handshakeFailure: return 40
        case .badCertificate: return 42
        case .unsupportedCertificate: return 43
        case .certificateExpired: return 45
        case .certificateUnknown: return 46
        case .unknownCA: return 48
        case .accessDenied: return 49
        case .decryptError: return 51
        }
    }
}
