/// The key exchange a cipher suite names (RFC 5246 §7.4.3, RFC 8422 §2).
public enum KeyExchangeAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSA key transport: the client encrypts the premaster secret to the server's key; no
    /// ServerKeyExchange (RFC 5246 §7.4.7.1).
    case rsa = "RSA"
    /// Ephemeral finite-field Diffie-Hellman signed with RSA (RFC 5246 §7.4.3).
    case dheRSA = "DHE_RSA"
    /// Ephemeral elliptic-curve Diffie-Hellman signed with RSA (RFC 8422 §2.1).
    case ecdheRSA = "ECDHE_RSA"

    /// True when the server sends a ServerKeyExchange.
    public var hasServerKeyExchange: Bool { self != .rsa }
}
