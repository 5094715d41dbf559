import Crypto
import Foundation

/// An Ed25519 key (RFC 8032 §5.1) as TLS 1.2 uses it for certificates and handshake signatures
/// (RFC 8422 §5.1.3, signature scheme ed25519 0x0807): the signature covers the message itself, with no
/// separate hash, and is deterministic. Signing and verifying are swift-crypto's `Curve25519.Signing`.
public struct Ed25519PublicKey: Sendable, Hashable {
    /// The 32-byte public key A (RFC 8032 §5.1.5).
    public let rawRepresentation: [UInt8]

    /// The fixed DER before the key in an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4: id-Ed25519
    /// 1.3.101.112, no parameters, BIT STRING of 32 bytes).
    static let spkiPrefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]

    public init(rawRepresentation bytes: [UInt8]) throws(ECDSAError) {
        guard bytes.count == 32, (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)) != nil else {
            throw .invalidKey("not a 32-byte Ed25519 public key")
        }
        rawRepresentation = bytes
    }

    /// From a SubjectPublicKeyInfo (RFC 8410 §4).
    public init(subjectPublicKeyInfoDER der: [UInt8]) throws(ECDSAError) {
        guard der.count == Self.spkiPrefix.count + 32, Array(der.prefix(Self.spkiPrefix.count)) == Self.spkiPrefix else {
            throw .unsupportedCurve("Ed25519 SubjectPublicKeyInfo expected")
        }
        try self.init(rawRepresentation: Array(der.suffix(32)))
    }

    public var subjectPublicKeyInfoDER: [UInt8] { Self.spkiPrefix + rawRepresentation }

    /// RFC 8032 §5.1.7 over `message` (the whole message: no pre-hash in TLS, RFC 8422 §5.1.3).
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}

/// An Ed25519 private key: the 32-byte seed (RFC 8032 §5.1.5).
public struct Ed25519PrivateKey: Sendable {
    public let seed: [UInt8]
    public let publicKey: Ed25519PublicKey

    /// The fixed DER before the seed in an Ed25519 PKCS #8 PrivateKeyInfo (RFC 8410 §7: version 0,
    /// id-Ed25519, OCTET STRING holding the 32-byte CurvePrivateKey OCTET STRING).
    static let pkcs8Prefix: [UInt8] = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70,
                                       0x04, 0x22, 0x04, 0x20]

    public init(seed: [UInt8]) throws(ECDSAError) {
        guard seed.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
            throw .invalidKey("an Ed25519 private key is a 32-byte seed")
        }
        self.seed = seed
        publicKey = try Ed25519PublicKey(rawRepresentation: Array(key.publicKey.rawRepresentation))
    }

    /// A PKCS #8 `PRIVATE KEY` PEM holding an Ed25519 key (what `openssl genpkey -algorithm ed25519` writes).
    public init(pem text: String) throws(ECDSAError) {
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard text.contains("BEGIN PRIVATE KEY"), let der = Data(base64Encoded: body).map(Array.init),
              der.count == Self.pkcs8Prefix.count + 32, Array(der.prefix(Self.pkcs8Prefix.count)) == Self.pkcs8Prefix else {
            throw .invalidKey("not an Ed25519 PKCS #8 PRIVATE KEY")
        }
        try self.init(seed: Array(der.suffix(32)))
    }

    /// PKCS #8 PEM of the key.
    public var pem: String {
        let base64 = Data(Self.pkcs8Prefix + seed).base64EncodedString()
        return "-----BEGIN PRIVATE KEY-----\n\(base64)\n-----END PRIVATE KEY-----\n"
    }

    /// RFC 8032 §5.1.6: a deterministic 64-byte signature of `message`.
    public func sign(message: [UInt8]) throws(ECDSAError) -> [UInt8] {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed),
              let signature = try? key.signature(for: message) else { throw .signingFailed("Ed25519") }
        return Array(signature)
    }
}
