import BigNum

/// The encoding steps of PKCS#1 (RFC 8017) that sit between a message and the RSA primitive:
/// EME-PKCS1-v1_5 (§7.2), EMSA-PKCS1-v1_5 (§9.2), EMSA-PSS (§9.1) and MGF1 (Appendix B.2.1).
/// Pure functions over bytes; the RSA types call them.
public enum PKCS1Encoding {
    // MARK: Integer/octet-string conversion (RFC 8017 §4)

    /// I2OSP (RFC 8017 §4.1): `x` as exactly `length` big-endian bytes.
    static func i2osp(_ x: BigInt, length: Int) throws(RSAError) -> [UInt8] {
        do {
            return try x.bigEndianBytes(width: length)
        } catch {
            throw .encodingError("integer too large for \(length) bytes")
        }
    }

    /// OS2IP (RFC 8017 §4.2).
    static func os2ip(_ bytes: [UInt8]) -> BigInt { BigInt(bigEndian: bytes) }

    // MARK: EME-PKCS1-v1_5 (RFC 8017 §7.2)

    /// Draws in a row without a usable byte after which `encodeEncryptionBlock` calls the source broken.
    public static let paddingDrawLimit = 64

    /// EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M, PS nonzero random bytes drawn from `source`,
    /// at least eight of them (RFC 8017 §7.2.1 step 2).
    public static func encodeEncryptionBlock(_ message: [UInt8], modulusLength k: Int,
                                             using source: RandomSource) throws(RSAError) -> [UInt8] {
        guard k >= 11, message.count <= k - 11 else {
            throw .messageTooLong(maximum: max(k - 11, 0), actual: message.count)
        }
        let psLength = k - message.count - 3
        var ps: [UInt8] = []
        ps.reserveCapacity(psLength)
        var fruitlessDraws = 0
        while ps.count < psLength {
            // A working source yields nonzero bytes 255 times in 256; one that keeps giving zeros (or
            // nothing) would loop forever, so give up after a run of draws that added nothing.
            guard fruitlessDraws < paddingDrawLimit else {
                throw .randomSourceFailed("no nonzero padding bytes in \(paddingDrawLimit) draws in a row")
            }
            let before = ps.count
            // Draw what is still missing and keep the nonzero bytes: deterministic for a seeded source.
            for byte in source.bytes(count: psLength - ps.count).prefix(psLength - ps.count) where byte != 0 {
                ps.append(byte)
            }
            fruitlessDraws = ps.count == before ? fruitlessDraws + 1 : 0
        }
        return [0x00, 0x02] + ps + [0x00] + message
    }

    /// The message inside EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M (RFC 8017 §7.2.2 step 3). Scans the whole
    /// block without an early exit and reports every failure as the same ``RSAError/decryptionError``.
    public static func decodeEncryptionBlock(_ em: [UInt8]) throws(RSAError) -> [UInt8] {
        guard em.count >= 11 else { throw .decryptionError }
        var good = (em[0] == 0x00 ? 1 : 0) & (em[1] == 0x02 ? 1 : 0)
        var separator = 0        // index of the first zero after the PS, 0 while not found
        for index in 2..<em.count {
            let isZero = em[index] == 0 ? 1 : 0
            let firstZero = isZero & (separator == 0 ? 1 : 0)
            separator = firstZero == 1 ? index : separator
        }
        good &= separator != 0 ? 1 : 0
        good &= separator >= 10 ? 1 : 0          // PS is at least eight bytes
        guard good == 1 else { throw .decryptionError }
        return Array(em[(separator + 1)...])
    }

    // MARK: EMSA-PKCS1-v1_5 (RFC 8017 §9.2)

    /// EM = 0x00 ‖ 0x01 ‖ 0xFF… ‖ 0x00 ‖ DigestInfo, `emLength` bytes.
    public static func encodeSignatureBlock(digest: [UInt8], hash: HashAlgorithm,
                                            emLength: Int) throws(RSAError) -> [UInt8] {
        let t = hash.digestInfo(digest: digest)
        guard emLength >= t.count + 11 else {
            throw .messageTooLong(maximum: max(emLength - 11, 0), actual: t.count)
        }
        return [0x00, 0x01] + [UInt8](repeating: 0xFF, count: emLength - t.count - 3) + [0x00] + t
    }

    // MARK: MGF1 (RFC 8017 Appendix B.2.1)

    /// MGF1(seed, length) with the given hash.
    public static func mgf1(seed: [UInt8], length: Int, hash: HashAlgorithm) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(length + hash.digestLength)
        var counter: UInt32 = 0
        while output.count < length {
            let c: [UInt8] = [UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
                              UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter)]
            output += hash.digest(seed + c)
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    // MARK: EMSA-PSS (RFC 8017 §9.1)

    /// EMSA-PSS-ENCODE (§9.1.1) with MGF1 over the same hash; the salt is drawn from `source`.
    public static func encodePSS(messageHash mHash: [UInt8], emBits: Int, hash: HashAlgorithm,
                                 saltLength: Int, using source: RandomSource) throws(RSAError) -> [UInt8] {
        let hLen = hash.digestLength
        let emLen = (emBits + 7) / 8
        guard saltLength >= 0 else { throw .encodingError("negative salt length") }
        guard mHash.count == hLen else { throw .encodingError("digest length \(mHash.count) ≠ \(hLen)") }
        guard emLen >= hLen + saltLength + 2 else {
            throw .encodingError("modulus too small for \(hash) with a \(saltLength)-byte salt")
        }
        let salt = saltLength > 0 ? source.bytes(count: saltLength) : []
        guard salt.count == saltLength else {
            throw .randomSourceFailed("\(salt.count) salt bytes instead of \(saltLength)")
        }
        let mPrime = [UInt8](repeating: 0, count: 8) + mHash + salt
        let h = hash.digest(mPrime)
        let db = [UInt8](repeating: 0, count: emLen - saltLength - hLen - 2) + [0x01] + salt
        let dbMask = mgf1(seed: h, length: emLen - hLen - 1, hash: hash)
        var maskedDB = zip(db, dbMask).map { $0 ^ $1 }
        let unusedBits = 8 * emLen - emBits
        if !maskedDB.isEmpty { maskedDB[0] &= UInt8(0xFF >> unusedBits) }
        return maskedDB + h + [0xbc]
    }

    /// EMSA-PSS-VERIFY (§9.1.2): whether `em` (exactly ⌈emBits/8⌉ bytes) encodes `mHash`.
    /// `saltLength` nil accepts whatever salt length the block carries.
    public static func verifyPSS(messageHash mHash: [UInt8], encodedMessage em: [UInt8], emBits: Int,
                                 hash: HashAlgorithm, saltLength: Int?) -> Bool {
        let hLen = hash.digestLength
        let emLen = (emBits + 7) / 8
        guard em.count == emLen, mHash.count == hLen else { return false }
        if let saltLength {
            guard saltLength >= 0, emLen >= hLen + saltLength + 2 else { return false }
        } else {
            guard emLen >= hLen + 2 else { return false }
        }
        guard em.last == 0xbc else { return false }
        let maskedDB = Array(em[0..<(emLen - hLen - 1)])
        let h = Array(em[(emLen - hLen - 1)..<(emLen - 1)])
        let unusedBits = 8 * emLen - emBits
        if unusedBits > 0, let first = maskedDB.first, first & ~UInt8(0xFF >> unusedBits) != 0 { return false }
        let dbMask = mgf1(seed: h, length: emLen - hLen - 1, hash: hash)
        var db = zip(maskedDB, dbMask).map { $0 ^ $1 }
        if !db.isEmpty { db[0] &= UInt8(0xFF >> unusedBits) }
        // DB = PS (zeros) ‖ 0x01 ‖ salt
        guard let one = db.firstIndex(where: { $0 != 0 }), db[one] == 0x01 else { return false }
        let salt = Array(db[(one + 1)...])
        if let saltLength, salt.count != saltLength { return false }
        let mPrime = [UInt8](repeating: 0, count: 8) + mHash + salt
        return hash.digest(mPrime) == h
    }
}
