/// What a receiver must know to read handshake bodies whose shape is not self-describing:
/// ServerKeyExchange and ClientKeyExchange depend on the negotiated key exchange (RFC 5246
/// §7.4.3, §7.4.7), `digitally-signed` and CertificateRequest on the version (TLS 1.2 adds the
/// SignatureAndHashAlgorithm), Finished on verify_data_length (§7.4.9).
public struct HandshakeDecodingContext: Sendable, Hashable {
    /// The negotiated version (TLS 1.2 unless the hellos said otherwise).
    public var version: ProtocolVersion
    /// The negotiated key exchange; nil before ServerHello.
    public var keyExchange: KeyExchangeAlgorithm?
    /// verify_data_length of the negotiated suite (12 for every TLS 1.2 suite here).
    public var verifyDataLength: Int

    public init(version: ProtocolVersion = .tls12, keyExchange: KeyExchangeAlgorithm? = nil,
                verifyDataLength: Int = 12) {
        precondition(verifyDataLength >= 0, "verify_data_length cannot be negative")
        self.version = version
        self.keyExchange = keyExchange
        self.verifyDataLength = verifyDataLength
    }

    /// True when `digitally-signed` carries a SignatureAndHashAlgorithm (TLS 1.2, RFC 5246 §4.7).
    public var signsWithAlgorithm: Bool { version >= .tls12 }
}

extension HandshakeDecodingContext {
    /// The context once ServerHello has fixed the version and suite (an unimplemented suite
    /// leaves the key exchange unknown).
    public init(negotiated suite: CipherSuite, version: ProtocolVersion = .tls12) {
        self.init(version: version, keyExchange: suite.parameters?.keyExchange,
                  verifyDataLength: suite.parameters?.verifyDataLength ?? 12)
    }
}
