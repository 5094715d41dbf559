import TLSCrypto
import TLSEngine
#if canImport(Glibc)
import Glibc
#endif

/// The records `tlslab bench cbc-padding` times: MAC-then-encrypt AES-128-CBC records whose MAC is
/// wrong, with padding of different lengths (the Lucky 13 question: does refusing them take the same time?).
public enum CBCPaddingMeasure {
    public static let length = 1_024
    public static let writeKey = [UInt8](repeating: 0x2a, count: 16)
    public static let iv = [UInt8](repeating: 0x11, count: 16)

    /// What each timed record's padding is (the renderer words it).
    public enum Case: Sendable, CaseIterable {
        /// Padding length 0.
        case paddingZero
        /// A valid padding of 255.
        case paddingMaximum
        /// The last byte claims 255, the bytes before it do not match.
        case paddingMalformed
        /// Padding 0, the record 64 bytes shorter: the scale.
        case shorterRecord
    }

    /// The decrypted bytes of each case (every MAC in them is wrong).
    public static func bodies(_ mac: RecordMAC) -> [(Case, [UInt8])] {
        let text = [UInt8](repeating: 0x41, count: length)
        return [
            (.paddingZero, Array(text.dropLast()) + [0]),
            (.paddingMaximum, Array(text.prefix(length - 256)) + [UInt8](repeating: 255, count: 256)),
            (.paddingMalformed, Array(text.dropLast()) + [255]),
            (.shorterRecord, Array(text.prefix(length - 65)) + [0]),
        ]
    }

    /// CBC encryption of `body` (whole blocks) under `writeKey` from `iv`, one `seal` per block.
    public static func encrypt(_ body: [UInt8], mac: RecordMAC) throws -> [UInt8] {
        var sealer = try RecordProtector(cipher: .aesCBC(keyLength: 16, mac: mac),
                                         keys: RecordKeys(macKey: [UInt8](repeating: 7, count: mac.length), writeKey: writeKey, fixedIV: []))
        let random = HMACDRBG(seed: 13)
        var previous = iv, out: [UInt8] = []
        for start in stride(from: 0, to: body.count, by: 16) {
            let sealed = try sealer.seal(contentType: 23, version: 0x0303, plaintext: Array(body[start ..< start + 16]),
                                         random: random, explicitNonce: previous)
            previous = Array(sealed.fragment[16 ..< 32])  // after the IV: E(block ⊕ previous)
            out += previous
        }
        return out
    }

    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

}
