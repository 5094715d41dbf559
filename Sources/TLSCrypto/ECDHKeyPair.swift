import BigNum
import Crypto

/// One side's ephemeral ECDH key for ECDHE (RFC 8422 §2.1), over swift-crypto's X25519, P-256, P-384 and P-521,
/// with the private key drawn from an injected ``RandomSource`` so a seed reproduces it.
///
/// Stored as bytes, so the value is `Sendable` and can be shown in a trace; the swift-crypto key
/// objects are rebuilt when needed.
public struct ECDHKeyPair: Sendable, Hashable {
    /// At most this many 32-byte draws for a P-256 scalar (a uniform draw is ≥ n with probability
    /// about 2^-32, so more than one redraw means the source is broken).
    public static let maxScalarAttempts = 64

    public let curve: ECDHCurve
    /// The private scalar: 32 bytes (X25519 clamps it when used, RFC 7748 §5).
    public let privateKeyBytes: [UInt8]
    /// The public key in TLS wire form (ECPoint.point, RFC 8422 §5.4).
    public let publicKeyBytes: [UInt8]

    /// A fresh key pair drawn from `random`.
    public init(curve: ECDHCurve, using random: RandomSource) throws(ECDHError) {
        for _ in 0..<Self.maxScalarAttempts {
            var candidate = random.bytes(count: curve.privateKeyLength)
            // P-521: 66 bytes hold 528 bits; n has 521, so the top 7 bits are cleared (else almost
            // every draw would be ≥ n).
            if curve == .secp521r1 { candidate[0] &= 0x01 }
            do {
                try self.init(curve: curve, privateKey: candidate)
                return
            } catch .invalidPrivateKey {
                continue  // P-256: 0 or ≥ n, draw again
            }
        }
        throw .randomSourceExhausted
    }

    /// The key pair for a given private key (32 bytes; for P-256 a scalar in 1 ..< n).
    public init(curve: ECDHCurve, privateKey: [UInt8]) throws(ECDHError) {
        guard privateKey.count == curve.privateKeyLength else { throw .invalidPrivateKey }
        self.curve = curve
        self.privateKeyBytes = privateKey
        switch curve {
        case .x25519:
            guard let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else {
                throw .invalidPrivateKey
            }
            publicKeyBytes = Array(key.publicKey.rawRepresentation)
        case .secp256r1:
            // swift-crypto validates the scalar: it throws for 0 and for values ≥ n.
            guard let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else {
                throw .invalidPrivateKey
            }
            publicKeyBytes = Array(key.publicKey.x963Representation)
        case .secp384r1:
            guard let key = try? P384.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else {
                throw .invalidPrivateKey
            }
            publicKeyBytes = Array(key.publicKey.x963Representation)
        case .secp521r1:
            guard let key = try? P521.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else {
                throw .invalidPrivateKey
            }
            publicKeyBytes = Array(key.publicKey.x963Representation)
        }
    }

    /// Checks a peer's public key for this curve: length, point format, on-curve (P-256).
    /// X25519 keys of the right length are all accepted here; a low-order key shows up as an
    /// all-zero shared secret, which ``sharedSecret(peerPublicKey:)`` rejects.
    public static func validatePeerPublicKey(_ bytes: [UInt8], curve: ECDHCurve) throws(ECDHError) {
        _ = try parsePeer(bytes, curve: curve)
    }

    /// The shared secret, used as the TLS 1.2 premaster secret (RFC 8422 §5.10): for P-256 the
    /// x-coordinate of the shared point, 32 bytes with leading zeros kept; for X25519 the 32-byte
    /// output, rejected when all zero (RFC 7748 §6.1).
    public func sharedSecret(peerPublicKey bytes: [UInt8]) throws(ECDHError) -> [UInt8] {
        let peer = try Self.parsePeer(bytes, curve: curve)
        let secret: [UInt8]
        switch (curve, peer) {
        case (.x25519, .x25519(let publicKey)):
            guard let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKeyBytes),
                  let shared = try? key.sharedSecretFromKeyAgreement(with: publicKey) else {
                throw .invalidPrivateKey
            }
            secret = shared.withUnsafeBytes { Array($0) }
            guard secret.contains(where: { $0 != 0 }) else { throw .lowOrderPeerKey }
        case (.secp256r1, .p256(let publicKey)):
            guard let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: privateKeyBytes) else {
                throw .invalidPrivateKey
            }
            guard let shared = try? key.sharedSecretFromKeyAgreement(with: publicKey) else {
                throw .peerKeyNotOnCurve
            }
            secret = shared.withUnsafeBytes { Array($0) }
        case (.secp384r1, .p384(let publicKey)):
            guard let key = try? P384.KeyAgreement.PrivateKey(rawRepresentation: privateKeyBytes) else {
                throw .invalidPrivateKey
            }
            guard let shared = try? key.sharedSecretFromKeyAgreement(with: publicKey) else {
                throw .peerKeyNotOnCurve
            }
            secret = shared.withUnsafeBytes { Array($0) }
        case (.secp521r1, .p521(let publicKey)):
            guard let key = try? P521.KeyAgreement.PrivateKey(rawRepresentation: privateKeyBytes) else {
                throw .invalidPrivateKey
            }
            guard let shared = try? key.sharedSecretFromKeyAgreement(with: publicKey) else {
                throw .peerKeyNotOnCurve
            }
            secret = shared.withUnsafeBytes { Array($0) }
        default:
            throw .peerKeyNotOnCurve  // unreachable: parsePeer follows `curve`
        }
        return secret
    }

    // MARK: - Private

    private enum PeerKey {
        case x25519(Curve25519.KeyAgreement.PublicKey)
        case p256(P256.KeyAgreement.PublicKey)
        case p384(P384.KeyAgreement.PublicKey)
        case p521(P521.KeyAgreement.PublicKey)
    }

    private static func parsePeer(_ bytes: [UInt8], curve: ECDHCurve) throws(ECDHError) -> PeerKey {
        guard bytes.count == curve.publicKeyLength else {
            throw .invalidPeerKeyLength(have: bytes.count, need: curve.publicKeyLength)
        }
        switch curve {
        case .x25519:
            guard let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes) else {
                throw .invalidPeerKeyLength(have: bytes.count, need: curve.publicKeyLength)
            }
            return .x25519(key)
        case .secp256r1:
            guard let format = bytes.first, format == 0x04 else {
                throw .unsupportedPointFormat(bytes.first ?? 0)
            }
            guard let key = try? P256.KeyAgreement.PublicKey(x963Representation: bytes) else {
                throw .peerKeyNotOnCurve
            }
            return .p256(key)
        case .secp384r1:
            guard let format = bytes.first, format == 0x04 else {
                throw .unsupportedPointFormat(bytes.first ?? 0)
            }
            guard let key = try? P384.KeyAgreement.PublicKey(x963Representation: bytes) else {
                throw .peerKeyNotOnCurve
            }
            return .p384(key)
        case .secp521r1:
            guard let format = bytes.first, format == 0x04 else {
                throw .unsupportedPointFormat(bytes.first ?? 0)
            }
            guard let key = try? P521.KeyAgreement.PublicKey(x963Representation: bytes) else {
                throw .peerKeyNotOnCurve
            }
            return .p521(key)
        }
    }
}
