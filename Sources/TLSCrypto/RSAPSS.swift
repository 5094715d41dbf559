/// EMSA-PSS encoding and verification with MGF1 (RFC 8017 §9.1, Appendix B.2.1), the hash and the MGF1
/// hash being the same (as TLS's rsa_pss_rsae_* schemes require, RFC 8446 §4.2.3).
enum RSAPSS {
    /// MGF1 (RFC 8017 §B.2.1): Hash(seed || C) for C = 0, 1, … (4-octet big-endian), truncated to `length`.
    static func mgf1(seed: [UInt8], length: Int, hash: HashAlgorithm) -> [UInt8] {
        var mask: [UInt8] = []
        mask.reserveCapacity(length + hash.digestLength)
        var counter: UInt32 = 0
        while mask.count < length {
            let c = [UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
                     UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter)]
            mask += hash.digest(seed + c)
            counter &+= 1
        }
        return Array(mask.prefix(length))
    }

    /// EMSA-PSS-ENCODE (RFC 8017 §9.1.1) with the given salt; `emBits` = modBits − 1.
    static func encode(message: [UInt8], emBits: Int, hash: HashAlgorithm, salt: [UInt8]) throws(RSAError) -> [UInt8] {
        let hLen = hash.digestLength
        let emLen = (emBits + 7) / 8
        guard emLen >= hLen + salt.count + 2 else { throw .modulusTooShort }
        let mHash = hash.digest(message)
        let h = hash.digest([UInt8](repeating: 0, count: 8) + mHash + salt)
        var db = [UInt8](repeating: 0, count: emLen - salt.count - hLen - 2) + [0x01] + salt
        let mask = mgf1(seed: h, length: emLen - hLen - 1, hash: hash)
        for i in db.indices { db[i] ^= mask[i] }
        db[0] &= UInt8(0xFF >> (8 * emLen - emBits))
        return db + h + [0xBC]
    }

    /// EMSA-PSS-VERIFY (RFC 8017 §9.1.2). `saltLength` nil: any salt length.
    static func verify(message: [UInt8], encoded em: [UInt8], emBits: Int, hash: HashAlgorithm,
                       saltLength: Int?) -> Bool {
        let hLen = hash.digestLength
        let emLen = (emBits + 7) / 8
        guard em.count == emLen, emLen >= hLen + (saltLength ?? 0) + 2 else { return false }
        guard em[emLen - 1] == 0xBC else { return false }
        let dbLen = emLen - hLen - 1
        let maskedDB = Array(em[0..<dbLen])
        let h = Array(em[dbLen..<(dbLen + hLen)])
        let topMask = UInt8(0xFF >> (8 * emLen - emBits))
        guard maskedDB[0] & ~topMask == 0 else { return false }
        let mask = mgf1(seed: h, length: dbLen, hash: hash)
        var db = maskedDB
        for i in db.indices { db[i] ^= mask[i] }
        db[0] &= topMask
        let separator: Int
        if let saltLength {
            separator = dbLen - saltLength - 1
            guard separator >= 0, db[0..<separator].allSatisfy({ $0 == 0 }), db[separator] == 0x01 else { return false }
        } else {
            guard let first = db.firstIndex(where: { $0 != 0 }), db[first] == 0x01 else { return false }
            separator = first
        }
        let salt = Array(db[(separator + 1)...])
        let mHash = hash.digest(message)
        let expected = hash.digest([UInt8](repeating: 0, count: 8) + mHash + salt)
        return RSAPublicKey.constantTimeEqual(expected, h)
    }
}
