import Foundation
import TLSCrypto

/// RSA keys derived from (seed, label, bits), generated once per process.
///
/// Each key has its own HMAC_DRBG seeded from the three values, so a key never depends on which
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

        func key(_ key: Key, make: () throws(RSAError) -> RSAPrivateKey) throws(RSAError) -> RSAPrivateKey {
            lock.lock()
            defer { lock.unlock() }
            if let cached = keys[key] { return cached }
            let made = try make()
            keys[key] = made
            return made
        }

        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return keys.count
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
        } catch {
            throw .unsupportedKey("RSA-\(bits) key generation for \(label): \(error)")
        }
    }

    /// How many keys are cached (for tests).
    public static var cachedKeyCount: Int { shared.count }
}
