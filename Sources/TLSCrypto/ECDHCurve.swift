/// An elliptic curve for ECDHE in TLS 1.2 (RFC 8422 §5.1.1 NamedCurve; RFC 7748 for X25519).
public enum ECDHCurve: String, Sendable, Hashable, CaseIterable {
    /// x25519 (RFC 7748 §5, RFC 8422 §5.1.1 code point 29).
    case x25519
    /// secp256r1 / NIST P-256 (RFC 8422 §5.1.1 code point 23).
    case secp256r1
    /// secp384r1 / NIST P-384 (RFC 8422 §5.1.1 code point 24).
    case secp384r1
    /// secp521r1 / NIST P-521 (RFC 8422 §5.1.1 code point 25).
    case secp521r1

    /// The NamedGroup code point (RFC 8422 §5.1.1).
    public var namedGroup: UInt16 {
        switch self {
        case .x25519: return 29
        case .secp256r1: return 23
        case .secp384r1: return 24
        case .secp521r1: return 25
        }
    }

    /// Bytes of a private key: the X25519 scalar (RFC 7748 §5) or the P-256 / P-384 / P-521 scalar
    /// (66 bytes for P-521's 521 bits).
    public var privateKeyLength: Int {
        switch self {
        case .x25519, .secp256r1: return 32
        case .secp384r1: return 48
        case .secp521r1: return 66
        }
    }

    /// Bytes of a public key on the wire (ECPoint.point, RFC 8422 §5.4): the raw u-coordinate for
    /// X25519 (§5.11), the uncompressed point 0x04 ‖ x ‖ y for the NIST curves (§5.4.1, ANSI X9.62).
    public var publicKeyLength: Int {
        switch self {
        case .x25519: return 32
        case .secp256r1: return 65
        case .secp384r1: return 97
        case .secp521r1: return 133
        }
    }

    /// Bytes of the shared secret, which TLS 1.2 uses as the premaster secret (RFC 8422 §5.10:
    /// the x-coordinate for NIST curves; the X25519 output for x25519).
    public var sharedSecretLength: Int { privateKeyLength }
}
