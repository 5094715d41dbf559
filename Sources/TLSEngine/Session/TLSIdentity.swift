import TLSCrypto

/// A certificate chain (leaf first, DER; RFC 5246 §7.4.2) and the leaf's private key: RSA, or ECDSA
/// for the ECDHE_ECDSA suites.
public struct TLSIdentity: Sendable {
    public var certificateChain: [[UInt8]]
    public var key: SigningKey

    public init(certificateChain: [[UInt8]], key: SigningKey) {
        self.certificateChain = certificateChain
        self.key = key
    }

    public init(certificateChain: [[UInt8]], privateKey: RSAPrivateKey) {
        self.init(certificateChain: certificateChain, key: .rsa(privateKey))
    }

    /// The RSA key (RSA key transport and RSA signatures); nil for an ECDSA identity.
    public var privateKey: RSAPrivateKey? { key.rsa }
}
