import BigNum

/// An RSA private key in the two-prime CRT form (n, e, d, p, q, dP, dQ, qInv): RFC 8017 §3.2.
///
/// The private operation (RSADP / RSASP1, RFC 8017 §5.1.2, §5.2.1) uses the Chinese Remainder
/// Theorem with the precomputed dP, dQ and qInv, without blinding, and checks every result with the
/// public operation before releasing it (a fault in the CRT computation would otherwise leak a
/// factor of n). See `RSACRTOperation` for the exponentiation and whether it is constant-time.
public struct RSAPrivateKey: Sendable {
    public let publicKey: RSAPublicKey
    /// d, the private exponent.
    public let privateExponent: BigInt
    /// p and q, the two primes (n = p·q).
    public let prime1: BigInt
    public let prime2: BigInt
    /// dP = d mod (p − 1), dQ = d mod (q − 1).
    public let exponent1: BigInt
    public let exponent2: BigInt
    /// qInv = q⁻¹ mod p.
    public let coefficient: BigInt

    let crt: RSACRTOperation

    /// Builds a key from all its numbers, checking that they belong together: n = p·q,
    /// e·dP ≡ 1 (mod p − 1), e·dQ ≡ 1 (mod q − 1), q·qInv ≡ 1 (mod p), e·d ≡ 1 (mod p − 1 and q − 1).
    public init(modulus n: BigInt, publicExponent e: BigInt, privateExponent d: BigInt,
                prime1 p: BigInt, prime2 q: BigInt,
                exponent1 dP: BigInt, exponent2 dQ: BigInt, coefficient qInv: BigInt) throws(RSAError) {
        let publicKey = try RSAPublicKey(modulus: n, publicExponent: e)
        guard p > .one, q > .one, p * q == n, p != q else { throw .invalidKey("n ≠ p·q") }
        let pm1 = p - .one, qm1 = q - .one
        func mod(_ x: BigInt, _ m: BigInt) -> BigInt? { try? x.modulo(m) }
        guard d.signum > 0, d < n,
              dP.signum > 0, dP < pm1, dQ.signum > 0, dQ < qm1,
              qInv.signum > 0, qInv < p else { throw .invalidKey("a private value is out of range") }
        guard mod(e * dP, pm1) == .one, mod(e * dQ, qm1) == .one else {
            throw .invalidKey("dP or dQ is not the inverse of e")
        }
        guard mod(e * d, pm1) == .one, mod(e * d, qm1) == .one else {
            throw .invalidKey("d is not the inverse of e")
        }
        guard mod(q * qInv, p) == .one else { throw .invalidKey("qInv is not the inverse of q mod p") }
        self.publicKey = publicKey
        self.privateExponent = d
        self.prime1 = p
        self.prime2 = q
        self.exponent1 = dP
        self.exponent2 = dQ
        self.coefficient = qInv
        self.crt = RSACRTOperation(p: p, q: q, dP: dP, dQ: dQ, qInv: qInv)
    }

    /// Builds a key from n, e and the primes, computing d = e⁻¹ mod lcm(p − 1, q − 1) (FIPS 186-4 §B.3.1)
    /// and the CRT values.
    public init(publicExponent e: BigInt, prime1 p: BigInt, prime2 q: BigInt) throws(RSAError) {
        guard p > BigInt(2), q > BigInt(2), p != q else { throw .invalidKey("p and q must be distinct odd primes") }
        let pm1 = p - .one, qm1 = q - .one
        do {
            let d = try e.inverse(modulus: pm1.lcm(qm1))
            try self.init(modulus: p * q, publicExponent: e, privateExponent: d, prime1: p, prime2: q,
                          exponent1: try d.modulo(pm1), exponent2: try d.modulo(qm1),
                          coefficient: try q.inverse(modulus: p))
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidKey("e is not invertible modulo lcm(p − 1, q − 1)")
        }
    }

    // MARK: RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1)

    /// The private primitive for `0 ≤ x < n` (range checked by the callers), by CRT, verified by the
    /// public operation.
    func privateOperation(_ x: BigInt) throws(RSAError) -> BigInt {
        let m = crt.apply(x)
        guard publicKey.publicOperation(m) == x else { throw .privateOperationFault }
        return m
    }

    // MARK: RSAES-PKCS1-v1_5 (RFC 8017 §7.2.2)

    /// RSAES-PKCS1-v1_5-DECRYPT. Every padding failure is the single `.decryptionError`, and the
    /// padding scan touches every octet whatever it finds (no early exit on the first bad octet).
    public func decryptPKCS1v15(_ ciphertext: [UInt8]) throws(RSAError) -> [UInt8] {
        let k = publicKey.byteLength
        guard k >= 11 else { throw .decryptionError }
        let c = try publicKey.representative(of: ciphertext, outOfRange: .ciphertextOutOfRange,
                                             wrongLength: { .invalidCiphertextLength(length: $0, expected: $1) })
        let em = RSAPublicKey.i2osp(try privateOperation(c), length: k)
        // EM = 0x00 || 0x02 || PS || 0x00 || M with |PS| ≥ 8 and PS free of zeros.
        var bad = UInt8(em[0]) | (em[1] ^ 0x02)
        var separator = 0          // index of the first zero after PS, 0 while not found
        for i in 2..<k {
            let isZero = em[i] == 0
            if isZero && separator == 0 { separator = i }
        }
        if separator == 0 || separator < 10 { bad |= 1 }
        guard bad == 0 else { throw .decryptionError }
        return Array(em[(separator + 1)...])
    }

    // MARK: RSASSA-PKCS1-v1_5 (RFC 8017 §8.2.1)

    /// RSASSA-PKCS1-v1_5-SIGN: s = RSASP1(EMSA-PKCS1-v1_5(M)), k octets.
    public func signPKCS1v15(message: [UInt8], hash: HashAlgorithm) throws(RSAError) -> [UInt8] {
        let em = try RSAPublicKey.emsaPKCS1v15(digestInfo: hash.digestInfo(digest: hash.digest(message)),
                                               length: publicKey.byteLength)
        return RSAPublicKey.i2osp(try privateOperation(BigInt(bigEndian: em)), length: publicKey.byteLength)
    }

    // MARK: RSASSA-PSS (RFC 8017 §8.1.1)

    /// RSASSA-PSS-SIGN with MGF1 over `hash` and a `saltLength`-octet salt drawn from `source`
    /// (rsa_pss_rsae_sha256 uses 32, the hash length).
    public func signPSS(message: [UInt8], hash: HashAlgorithm, saltLength: Int,
                        using source: RandomSource) throws(RSAError) -> [UInt8] {
        guard saltLength >= 0 else { throw .invalidSaltLength(saltLength) }
        let emBits = publicKey.bitLength - 1
        guard (emBits + 7) / 8 >= hash.digestLength + saltLength + 2 else {
            throw .invalidSaltLength(saltLength)
        }
        let salt = source.bytes(count: saltLength)
        let em = try RSAPSS.encode(message: message, emBits: emBits, hash: hash, salt: salt)
        return RSAPublicKey.i2osp(try privateOperation(BigInt(bigEndian: em)), length: publicKey.byteLength)
    }
}
