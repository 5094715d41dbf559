import BigNum

/// Why a finite-field Diffie-Hellman operation refused its input.
public enum DHError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer's public value is outside 2 ... p-2 (RFC 7919 §5.1: 1 < y < p-1); 0, 1 and p-1
    /// would force the shared secret into {0, 1, p-1}.
    case peerValueOutOfRange
    /// The peer's public value is in range but not in the prime-order subgroup: y^q mod p ≠ 1 for
    /// q = (p-1)/2 of a safe-prime group (NIST SP 800-56A Rev. 3 §5.6.2.3.1, full public-key
    /// validation; what OpenSSL's DH_check_pub_key does when it knows q). Such a y leaks whether the
    /// private exponent is even (the small-subgroup confinement of Lim and Lee, 1997).
    case peerValueNotInSubgroup
    /// The peer's public value is longer than the modulus (RFC 5246 §7.4.3 dh_Ys is at most |p|).
    case peerValueTooLong(byteCount: Int, limit: Int)
    /// A private exponent outside 1 ... p-2, or an exponent size the group cannot hold.
    case invalidPrivateExponent
    /// The group's modulus is not usable (p < 5 or g not in 2 ... p-1 after reduction).
    case invalidGroup(String)
    /// The arithmetic layer refused (cannot happen for a valid group; kept typed, not trapped).
    case arithmetic(BigNumError)

    public var description: String {
        switch self {
        case .peerValueOutOfRange: return "peer DH public value is not in 2 ... p-2"
        case .peerValueNotInSubgroup: return "peer DH public value is not in the group's prime-order subgroup (y^q mod p ≠ 1)"
        case .peerValueTooLong(let count, let limit): return "peer DH public value has \(count) bytes, more than |p| = \(limit)"
        case .invalidPrivateExponent: return "DH private exponent is not in 1 ... p-2"
        case .invalidGroup(let why): return "unusable DH group: \(why)"
        case .arithmetic(let error): return "DH arithmetic: \(error)"
        }
    }
}
