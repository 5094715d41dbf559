import TLSCrypto

/// A certificate chain (leaf first, DER; RFC 5246 §7.4.2) and the leaf's RSA private key.
public struct TLSIdentity: Sendable {
    public var certificateChain: [[UInt8]]
    public var privateKey: RSAPrivateKey

    public init(certificateChain: [[UInt8]], privateKey: RSAPrivateKey) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
