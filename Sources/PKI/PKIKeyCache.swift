import Foundation
import TLSCrypto

/// RSA keys derived from (seed, label, bits) and EC keys derived from (seed, label, curve),
/// generated once per process.
///
/// Each key has its own HMAC_DRBG seeded from those values, so a key never depends on which
/// other keys were generated before it: the same seed gives the same keys in any order.
public enum PKIKeyCache {
    struct Key: Hashable {
        let seed: UInt64
        let label: String
        let bits: Int
    }

    /// The cache. `@unchecked Sendable` because every access to `keys` holds `lock`
    /// (Synchronization's `Mutex` would need macOS 15; the package supports macOS 14).
    final class Storage: @unchecked Sendable {
        private let lock = NSLock()
        private var keys: [Key: RSAPrivateKey] = [:]
        private var ecKeys: [Key: ECDSAPrivateKey] = [:]

        func key(_ key: Key, make: () throws(RSAError) -> RSAPrivateKey) throws(RSAError) -> RSAPrivateKey {
            lock.lock()
            defer { lock.unlock() }
            if let cached = keys[key] { return cached }
            let made = try make()
            keys[key] = made
            return made
        }

        func ecKey(_ key: Key, make: () throws(ECDSAError) -> ECDSAPrivateKey) throws(ECDSAError) -> ECDSAPrivateKey {
            lock.lock()
            defer { lock.unlock() }
            if let cached = ecKeys[key] { return cached }
            let made = try make()
            ecKeys[key] = made
            return made
        }

        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return keys.count + ecKeys.count
        }
    }

    static let shared = Storage()

    /// The RSA key for (`seed`, `label`, `bits`): generated from a DRBG seeded with those three
    /// values the first time, then served from memory.
    public static func key(seed: UInt64, label: String, bits: Int) throws(PKIError) -> RSAPrivateKey {
        do {
            return try shared.key(Key(seed: seed, label: label, bits: bits)) { () throws(RSAError) -> RSAPrivateKey in
                let drbg = HMACDRBG(seed: Array("TLSLab PKI key|\(seed)|\(label)|\(bits)".utf8))
                return try RSAPrivateKey.generate(bits: bits, using: drbg)
            }
        } catch RSAError.unsupportedKeySize(let bits) {
            throw .unsupportedKey(.rsaKeySize(bits: bits, label: label))
        } catch {
            throw .unsupportedKey(.generationFailed(kind: .rsa, label: label))
        }
    }

    /// The EC key for (`seed`, `label`, `curve`): d uniform in 1 ..< n (`ECDSAPrivateKey.generate`),
    /// drawn from a DRBG seeded with those three values.
    public static func ecKey(seed: UInt64, label: String, curve: ECDSACurve.Name) throws(PKIError) -> ECDSAPrivateKey {
        do {
            return try shared.ecKey(Key(seed: seed, label: label, bits: curve == .p256 ? 256 : curve == .p384 ? 384 : 521)) { () throws(ECDSAError) -> ECDSAPrivateKey in
                let drbg = HMACDRBG(seed: Array("TLSLab PKI EC key|\(seed)|\(label)|\(curve.rawValue)".utf8))
                return try ECDSAPrivateKey.generate(curve: curve, using: drbg)
            }
        } catch {
            throw .unsupportedKey(.generationFailed(kind: PKIKeyKind(curve), label: label))
        }
    }

    /// The key of `kind` for (`seed`, `label`): RSA of `bits`, or EC on the kind's curve.
    public static func signingKey(seed: UInt64, label: String, kind: PKIKeyKind, bits: Int) throws(PKIError) -> SigningKey {
        if kind == .ed25519 {
            // RFC 8032 §5.1.5: the private key is 32 bytes from a DRBG seeded with (seed, label).
            let drbg = HMACDRBG(seed: Array("TLSLab PKI Ed25519 key|\(seed)|\(label)".utf8))
            do { return .ed25519(try Ed25519PrivateKey(seed: drbg.bytes(count: 32))) } catch {
                throw .unsupportedKey(.generationFailed(kind: .ed25519, label: label))
            }
        }
        guard let curve = kind.curve else { return .rsa(try key(seed: seed, label: label, bits: bits)) }
        return .ecdsa(try ecKey(seed: seed, label: label, curve: curve))
    }

    /// How many keys are cached (for tests).
    public static var cachedKeyCount: Int { shared.count }
}
