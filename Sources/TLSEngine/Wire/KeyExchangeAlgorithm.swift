/// The key exchange a cipher suite names (RFC 5246 §7.4.3, RFC 8422 §2).
public enum KeyExchangeAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSA key transport: the client encrypts the premaster secret to the server's key; no
    /// ServerKeyExchange (RFC 5246 §7.4.7.1).
    case rsa = "RSA"
    /// Ephemeral finite-field Diffie-Hellman signed with RSA (RFC 5246 §7.4.3).
    case dheRSA = "DHE_RSA"
    /// Ephemeral elliptic-curve Diffie-Hellman signed with RSA (RFC 8422 §2.1).
    case ecdheRSA = "ECDHE_RSA"
    /// Ephemeral elliptic-curve Diffie-Hellman signed with ECDSA (RFC 8422 §2.1): the server's
    /// certificate carries an EC key, and ServerKeyExchange is signed with it.
    case ecdheECDSA = "ECDHE_ECDSA"

    /// True when the server sends a ServerKeyExchange.
    public var hasServerKeyExchange: Bool { self != .rsa }

    /// ECDHE, whichever the signature (same ServerECDHParams and ClientKeyExchange, RFC 8422 §5.4, §5.7).
    public var isECDHE: Bool { self == .ecdheRSA || self == .ecdheECDSA }

    /// The server certificate's key must be ECDSA (RFC 8422 §5.3) rather than RSA.
    public var authenticatesWithECDSA: Bool { self == .ecdheECDSA }
}
