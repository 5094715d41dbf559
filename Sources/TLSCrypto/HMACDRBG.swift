import BigNum
import Crypto

/// NIST SP 800-90A Rev. 1 §10.1.2 HMAC_DRBG with SHA-256, as a deterministic ``RandomSource``.
///
/// Given the same entropy input, nonce and personalization string it yields the same bytes,
/// so one seed reproduces a whole TLSLab run. It is not reseeded from the system: reseeding is
/// explicit (``reseed(entropy:additionalInput:)``), and the reseed counter only advances.
///
/// Prediction resistance is not offered (there is no entropy source inside the engine).
public final class HMACDRBG: RandomSource {
    /// SP 800-90A Table 2: at most 2^19 bits (65 536 bytes) per generate request.
    public static let maxBytesPerRequest = 1 << 16

    /// The chaining key `Key` (SP 800-90A §10.1.2.1), `outlen` = 32 bytes.
    private var key: [UInt8]
    /// The chaining value `V`, 32 bytes.
    private var value: [UInt8]
    /// Generate requests since the last (re)seed, starting at 1 (§10.1.2.3 step 5).
    public private(set) var reseedCounter: UInt64

    /// HMAC_DRBG_Instantiate_algorithm (SP 800-90A §10.1.2.3):
    /// seed_material = entropy_input ‖ nonce ‖ personalization_string; Key = 0x00…; V = 0x01…;
    /// (Key, V) = HMAC_DRBG_Update(seed_material, Key, V).
    public init(entropy: [UInt8], nonce: [UInt8], personalization: [UInt8] = []) {
        key = [UInt8](repeating: 0x00, count: 32)
        value = [UInt8](repeating: 0x01, count: 32)
        reseedCounter = 1
        update(entropy + nonce + personalization)
    }

    /// A generator seeded from bytes (used as the entropy input, with an empty nonce and the
    /// personalization "TLSLab HMAC-DRBG").
    public convenience init(seed: [UInt8]) {
        self.init(entropy: seed, nonce: [], personalization: Array("TLSLab HMAC-DRBG".utf8))
    }

    /// A generator seeded from an integer (its 8 big-endian bytes), for scenarios and tests.
    public convenience init(seed: UInt64) {
        self.init(seed: (0..<8).map { UInt8(truncatingIfNeeded: seed >> (56 - 8 * $0)) })
    }

    /// HMAC_DRBG_Reseed_algorithm (SP 800-90A §10.1.2.4):
    /// (Key, V) = HMAC_DRBG_Update(entropy_input ‖ additional_input, Key, V); reseed_counter = 1.
    public func reseed(entropy: [UInt8], additionalInput: [UInt8] = []) {
        update(entropy + additionalInput)
        reseedCounter = 1
    }

    /// HMAC_DRBG_Generate_algorithm (SP 800-90A §10.1.2.5) for `count` bytes. Requests larger than
    /// ``maxBytesPerRequest`` are served as several consecutive requests (each with the same
    /// additional input), so any count works.
    public func generate(count: Int, additionalInput: [UInt8] = []) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            let chunk = min(count - out.count, Self.maxBytesPerRequest)
            out += generateOnce(count: chunk, additionalInput: additionalInput)
        }
        return out
    }

    public func bytes(count: Int) -> [UInt8] {
        generate(count: count)
    }

    // MARK: - The mechanism

    private func generateOnce(count: Int, additionalInput: [UInt8]) -> [UInt8] {
        // Step 2: if additional_input ≠ Null, (Key, V) = Update(additional_input, Key, V).
        if !additionalInput.isEmpty { update(additionalInput) }
        // Steps 3–5: V = HMAC(Key, V); temp = temp ‖ V until enough bits.
        var out = [UInt8]()
        out.reserveCapacity(count + 32)
        while out.count < count {
            value = hmac(key, value)
            out += value
        }
        // Step 6: (Key, V) = Update(additional_input, Key, V).
        update(additionalInput)
        reseedCounter &+= 1
        return Array(out.prefix(count))
    }

    /// HMAC_DRBG_Update (SP 800-90A §10.1.2.2).
    private func update(_ providedData: [UInt8]) {
        key = hmac(key, value + [0x00] + providedData)
        value = hmac(key, value)
        guard !providedData.isEmpty else { return }
        key = hmac(key, value + [0x01] + providedData)
        value = hmac(key, value)
    }

    private func hmac(_ key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }
}
