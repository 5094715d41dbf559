/// The record MAC (RFC 5246 §6.2.3.1); `none` for AEAD suites.
public enum MACAlgorithm: String, Sendable, Hashable, CaseIterable {
    case none = "AEAD"
    case hmacSHA1 = "SHA"
    case hmacSHA256 = "SHA256"
    case hmacSHA384 = "SHA384"

    /// mac_length (= mac_key_length) in bytes.
    public var length: Int {
        switch self {
        case .none: return 0
        case .hmacSHA1: return 20
        case .hmacSHA256: return 32
        case .hmacSHA384: return 48
        }
    }
}
