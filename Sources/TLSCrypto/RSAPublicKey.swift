import BigNum

/// An RSA public key (n, e): RFC 8017 §3.1.
public struct RSAPublicKey: Sendable, Hashable {
    /// n, the RSA modulus.
    public let modulus: BigInt
    /// e, the public exponent.
    public let publicExponent: BigInt

    /// Bits in the modulus.
    public var bitLength: Int { modulus.bitWidth }

    /// k, the modulus length in octets (RFC 8017 §7.1): the length of every ciphertext and signature.
    public var byteLength: Int { modulus.byteWidth }

    /// Checks RFC 8017 §3.1: n odd and greater than e; 3 ≤ e < n, e odd.
    public init(modulus: BigInt, publicExponent: BigInt) throws(RSAError) {
        guard modulus.isOdd, modulus.bitWidth >= 64 else {
            throw .invalidKey("the modulus must be odd and at least 64 bits")
        }
        guard publicExponent.isOdd, publicExponent >= BigInt(3), publicExponent < modulus else {
            throw .invalidKey("the public exponent must be odd and in 3 ..< n")
        }
        self.modulus = modulus
        self.publicExponent = publicExponent
    }

    // MARK: RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2)

    /// The RSA public primitive `x^e mod n` for `0 ≤ x < n` (the caller checks the range).
    func publicOperation(_ x: BigInt) -> BigInt {
        // The modulus is positive and the exponent non-negative (checked in init): power cannot throw.
        (try? x.power(publicExponent, modulus: modulus)) ?? .zero
    }

    /// OS2IP of a k-byte input, checked to be in `0 ..< n`.
    func representative(of bytes: [UInt8], outOfRange: RSAError, wrongLength: (Int, Int) -> RSAError)
        throws(RSAError) -> BigInt {
        guard bytes.count == byteLength else { throw wrongLength(bytes.count, byteLength) }
        let value = BigInt(bigEndian: bytes)
        guard value < modulus else { throw outOfRange }
        return value
    }

    // MARK: RSAES-PKCS1-v1_5 (RFC 8017 §7.2.1)

    /// RSAES-PKCS1-v1_5-ENCRYPT: EM = 0x00 || 0x02 || PS || 0x00 || M, PS being k − mLen − 3 ≥ 8
    /// nonzero random octets drawn from `source`; returns the k-octet ciphertext.
    public func encryptPKCS1v15(_ message: [UInt8], using source: RandomSource) throws(RSAError) -> [UInt8] {
        let k = byteLength
        guard message.count <= k - 11 else { throw .messageTooLong(length: message.count, maximum: max(k - 11, 0)) }
        let padding = Self.nonzeroRandomBytes(count: k - message.count - 3, using: source)
        let encoded: [UInt8] = [0x00, 0x02] + padding + [0x00] + message
        let c = publicOperation(BigInt(bigEndian: encoded))
        return Self.i2osp(c, length: k)
    }

    /// `count` random octets, none of them zero: zeros are replaced by fresh draws (RFC 8017 §7.2.1 step 2a).
    static func nonzeroRandomBytes(count: Int, using source: RandomSource) -> [UInt8] {
        var out = source.bytes(count: count).filter { $0 != 0 }
        while out.count < count {
            out += source.bytes(count: count - out.count).filter { $0 != 0 }
        }
        return out
    }

    // MARK: RSASSA-PKCS1-v1_5 (RFC 8017 §8.2.2)

    /// RSASSA-PKCS1-v1_5-VERIFY: recomputes EM = EMSA-PKCS1-v1_5(M) and compares it with s^e mod n
    /// byte for byte (the comparison the RFC recommends, so no parsing leniency can be abused).
    public func verifyPKCS1v15(signature: [UInt8], message: [UInt8], hash: HashAlgorithm) -> Bool {
        guard let recovered = try? recoverEncodedMessage(signature: signature),
              let expected = try? Self.emsaPKCS1v15(digestInfo: hash.digestInfo(digest: hash.digest(message)),
                                                      length: byteLength)
        else { return false }
        return Self.constantTimeEqual(recovered, expected)
    }

    /// RSAVP1 and I2OSP: the k-octet EM a signature opens to, with the length and range checks of
    /// RFC 8017 §8.2.2 step 1 and §5.2.2 step 1.
    func recoverEncodedMessage(signature: [UInt8]) throws(RSAError) -> [UInt8] {
        let s = try representative(of: signature, outOfRange: .signatureOutOfRange,
                                   wrongLength: { .invalidSignatureLength(length: $0, expected: $1) })
        return Self.i2osp(publicOperation(s), length: byteLength)
    }

    /// Opens a PKCS#1 v1.5 signature and takes its EM apart (for teaching traces): checks
    /// 00 01, at least eight FF octets, 00, then a DER DigestInfo. It does not check any digest.
    public func recoverPKCS1v15(signature: [UInt8]) throws(RSAError) -> RSASignatureBlock {
        let em = try recoverEncodedMessage(signature: signature)
        guard em.count >= 11, em[0] == 0x00, em[1] == 0x01 else {
            throw .invalidSignatureEncoding("EM does not start with 00 01")
        }
        var index = 2
        while index < em.count, em[index] == 0xFF { index += 1 }
        guard index - 2 >= 8 else { throw .invalidSignatureEncoding("fewer than eight FF padding octets") }
        guard index < em.count, em[index] == 0x00 else {
            throw .invalidSignatureEncoding("the padding is not terminated by 00")
        }
        let digestInfo = Array(em[(index + 1)...])
        let parsed = try DigestInfo(derEncoded: digestInfo)
        return RSASignatureBlock(encodedMessage: em, digestInfo: digestInfo,
                                 hash: parsed.hash, digest: parsed.digest)
    }

    /// EMSA-PKCS1-v1_5 (RFC 8017 §9.2) from a ready DigestInfo T: 00 01 FF…FF 00 T, `length` octets.
    static func emsaPKCS1v15(digestInfo t: [UInt8], length emLen: Int) throws(RSAError) -> [UInt8] {
        guard emLen >= t.count + 11 else { throw .modulusTooShort }
        return [0x00, 0x01] + [UInt8](repeating: 0xFF, count: emLen - t.count - 3) + [0x00] + t
    }

    // MARK: RSASSA-PSS (RFC 8017 §8.1.2, §9.1.2)

    /// RSASSA-PSS-VERIFY with MGF1 over the same hash. `saltLength` nil accepts any salt length
    /// (recovered from the position of the 0x01 separator).
    public func verifyPSS(signature: [UInt8], message: [UInt8], hash: HashAlgorithm, saltLength: Int?) -> Bool {
        if let saltLength, saltLength < 0 { return false }
        guard signature.count == byteLength else { return false }
        let s = BigInt(bigEndian: signature)
        guard s < modulus else { return false }
        let emBits = bitLength - 1
        let emLen = (emBits + 7) / 8
        let m = publicOperation(s)
        guard m.byteWidth <= emLen, let em = try? m.bigEndianBytes(width: emLen) else { return false }
        return RSAPSS.verify(message: message, encoded: em, emBits: emBits, hash: hash, saltLength: saltLength)
    }

    // MARK: Helpers

    /// I2OSP (RFC 8017 §4.1) for values known to fit (results of a modular operation mod n).
    static func i2osp(_ x: BigInt, length: Int) -> [UInt8] {
        let bytes = x.bigEndianBytes
        guard bytes.count <= length else { return Array(bytes.suffix(length)) }
        return [UInt8](repeating: 0, count: length - bytes.count) + bytes
    }

    /// Equality whose running time depends only on the lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}
