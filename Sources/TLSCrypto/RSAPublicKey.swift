import BigNum

/// An RSA public key (n, e) — RFC 8017 §3.1 — with the public-key operations of PKCS#1:
/// RSAES-PKCS1-v1_5 encryption (§7.2.1), RSASSA-PKCS1-v1_5 verification (§8.2.2) and
/// RSASSA-PSS verification (§8.1.2).
public struct RSAPublicKey: Sendable, Hashable {
    /// n, the product of the two primes.
    public let modulus: BigInt
    /// e.
    public let publicExponent: BigInt

    /// Moduli we accept at all: big enough for the teaching sizes, small enough to bound work.
    static let modulusBits = 256...16_384

    /// The modulus length in bits.
    public var bitLength: Int { modulus.bitWidth }

    /// k, the modulus length in bytes (RFC 8017 §7.2.1).
    public var byteLength: Int { modulus.byteWidth }

    /// Checks RFC 8017 §3.1: n odd and in our size range, 3 ≤ e < n, e odd.
    public init(modulus: BigInt, publicExponent: BigInt) throws(RSAError) {
        guard RSAPublicKey.modulusBits.contains(modulus.bitWidth), !modulus.isNegative else {
            throw .invalidKey("modulus of \(modulus.bitWidth) bits (\(RSAPublicKey.modulusBits) supported)")
        }
        guard modulus.isOdd else { throw .invalidKey("even modulus") }
        guard publicExponent >= BigInt(3), publicExponent < modulus, publicExponent.isOdd else {
            throw .invalidKey("public exponent must be odd with 3 ≤ e < n")
        }
        self.modulus = modulus
        self.publicExponent = publicExponent
    }

    // MARK: The RSA primitive

    /// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2): m^e mod n, for 0 ≤ m < n.
    func publicOperation(_ m: BigInt) throws(RSAError) -> BigInt {
        guard !m.isNegative, m < modulus else { throw .representativeOutOfRange }
        do {
            return try m.power(publicExponent, modulus: modulus)
        } catch {
            throw .invalidKey("public operation: \(error)")
        }
    }

    /// The public operation on a k-byte signature, returned as `length` bytes.
    func openSignature(_ signature: [UInt8], length: Int) throws(RSAError) -> [UInt8] {
        guard signature.count == byteLength else {
            throw .wrongLength(expected: byteLength, actual: signature.count)
        }
        let m = try publicOperation(PKCS1Encoding.os2ip(signature))
        return try PKCS1Encoding.i2osp(m, length: length)
    }

    // MARK: PKCS#1 v1.5 encryption (RFC 8017 §7.2.1)

    /// RSAES-PKCS1-V1_5-ENCRYPT: at most k − 11 bytes of message; the padding comes from `source`.
    public func encryptPKCS1v15(_ message: [UInt8], using source: RandomSource) throws(RSAError) -> [UInt8] {
        let em = try PKCS1Encoding.encodeEncryptionBlock(message, modulusLength: byteLength, using: source)
        let c = try publicOperation(PKCS1Encoding.os2ip(em))
        return try PKCS1Encoding.i2osp(c, length: byteLength)
    }

    // MARK: PKCS#1 v1.5 signatures (RFC 8017 §8.2.2)

    /// RSASSA-PKCS1-V1_5-VERIFY: recomputes EM from the message and compares it whole
    /// (so a DigestInfo without its NULL parameters is rejected).
    public func verifyPKCS1v15(signature: [UInt8], message: [UInt8], hash: HashAlgorithm) -> Bool {
        guard let em = try? openSignature(signature, length: byteLength),
              let expected = try? PKCS1Encoding.encodeSignatureBlock(
                digest: hash.digest(message), hash: hash, emLength: byteLength)
        else { return false }
        return em == expected
    }

    /// The public operation on a PKCS#1 v1.5 signature and the parts of the block it reveals
    /// (for teaching: "the signature opens to a padded hash"). Throws when the block is not
    /// `00 01 FF…FF 00 DigestInfo` with at least eight FF bytes and a well-formed DigestInfo.
    /// A signature of the wrong length or not below n throws ``RSAError/wrongLength(expected:actual:)``
    /// or ``RSAError/representativeOutOfRange``; a block of another shape
    /// ``RSAError/invalidSignatureBlock(_:)`` with the step that failed.
    public func recoverPKCS1v15(signature: [UInt8]) throws(RSAError) -> RSASignatureBlock {
        let em = try openSignature(signature, length: byteLength)
        guard em.count >= 11, em[0] == 0x00, em[1] == 0x01 else { throw .invalidSignatureBlock(.notBlockType1) }
        var index = 2
        while index < em.count, em[index] == 0xFF { index += 1 }
        guard index < em.count, em[index] == 0x00 else { throw .invalidSignatureBlock(.noZeroSeparator) }
        guard index - 2 >= 8 else { throw .invalidSignatureBlock(.shortPadding(count: index - 2)) }
        let digestInfo = Array(em[(index + 1)...])
        let parsed = try RSAKeyCoding.parseDigestInfo(digestInfo)
        return RSASignatureBlock(encodedMessage: em, digestInfo: digestInfo,
                                 hash: HashAlgorithm(oid: parsed.oid), digest: parsed.digest)
    }

    // MARK: PSS (RFC 8017 §8.1.2)

    /// RSASSA-PSS-VERIFY with MGF1 over the same hash. `saltLength` nil accepts any salt length.
    public func verifyPSS(signature: [UInt8], message: [UInt8], hash: HashAlgorithm, saltLength: Int?) -> Bool {
        let emBits = bitLength - 1
        let emLen = (emBits + 7) / 8
        // I2OSP(m, emLen) fails — the signature is invalid — when m needs more than emLen bytes.
        guard let em = try? openSignature(signature, length: emLen) else { return false }
        return PKCS1Encoding.verifyPSS(messageHash: hash.digest(message), encodedMessage: em, emBits: emBits,
                                       hash: hash, saltLength: saltLength)
    }
}
