import BigNum
import TLSCrypto

extension SignatureCheck {
    /// RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) with EMSA-PSS-VERIFY (§9.1.2) under certificate
    /// parameters (RFC 4055 §3.1), whose MGF1 hash may differ from the message hash — which
    /// `RSAPublicKey.verifyPSS` (TLS 1.3 style, one hash for both) cannot express.
    /// Returns whether it verified and, when not, the step that failed.
    static func verifyPSS(key: RSAPublicKey, signature: [UInt8], message: [UInt8],
                          parameters p: RSAPSSParameters) -> (passed: Bool, failure: PSSFailure?) {
        // §8.1.2 step 1: the signature is exactly k bytes.
        guard signature.count == key.byteLength else {
            return (false, .signatureLength(bytes: signature.count, modulusBytes: key.byteLength))
        }
        // Step 2: s = OS2IP(S) < n, m = s^e mod n, EM = I2OSP(m, emLen) with emBits = modBits − 1.
        let s = BigInt(bigEndian: signature)
        guard s < key.modulus else { return (false, .representativeOutOfRange) }
        let emBits = key.bitLength - 1
        let emLen = (emBits + 7) / 8
        let em: [UInt8]
        do {
            em = try s.power(key.publicExponent, modulus: key.modulus).bigEndianBytes(width: emLen)
        } catch {
            return (false, .messageRepresentativeTooLong(emLen: emLen))
        }
        // §9.1.2.
        let hLen = p.hash.digestLength, sLen = p.saltLength
        let mHash = p.hash.digest(message)
        guard emLen >= hLen + sLen + 2 else { return (false, .modulusTooShort(hash: p.hash, saltLength: sLen)) }
        guard em.last == 0xbc else { return (false, .noTrailerByte) }
        let maskedDB = Array(em[0..<(emLen - hLen - 1)])
        let h = Array(em[(emLen - hLen - 1)..<(emLen - 1)])
        let unusedBits = 8 * emLen - emBits
        let topMask = UInt8(truncatingIfNeeded: 0xFF >> unusedBits)
        if let first = maskedDB.first, first & ~topMask != 0 { return (false, .leftmostBitsNotZero) }
        let dbMask = PKCS1Encoding.mgf1(seed: h, length: emLen - hLen - 1, hash: p.maskHash)
        var db = zip(maskedDB, dbMask).map { $0 ^ $1 }
        if !db.isEmpty { db[0] &= topMask }
        let psLength = emLen - hLen - sLen - 2
        guard db[0..<psLength].allSatisfy({ $0 == 0 }), db[psLength] == 0x01 else {
            return (false, .dataBlockMalformed)
        }
        let salt = Array(db[(psLength + 1)...])
        let mPrime = [UInt8](repeating: 0, count: 8) + mHash + salt
        guard p.hash.digest(mPrime) == h else { return (false, .hashMismatch) }
        return (true, nil)
    }
}
