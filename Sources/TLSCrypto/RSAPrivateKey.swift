import BigNum

/// An RSA private key in the CRT form of RFC 8017 §3.2 (second representation, two primes),
/// with the private-key operations: RSAES-PKCS1-v1_5 decryption (§7.2.2), RSASSA-PKCS1-v1_5
/// signatures (§8.2.1) and RSASSA-PSS signatures (§8.1.1).
///
/// The private operation uses the CRT (RFC 8017 §5.1.2, step 2.b) with dP, dQ and qInv precomputed,
/// without blinding, and checks every result with the public exponent before releasing it
/// (a faulty CRT half would otherwise leak a factor of n). Exponentiation is GMP's
/// side-channel-silent `mpz_powm_sec` by default; see ``Exponentiation``.
public struct RSAPrivateKey: Sendable {
    public let publicKey: RSAPublicKey
    /// d.
    public let privateExponent: BigInt
    /// p and q, with p > q for keys we generate (imported keys keep their order).
    public let prime1: BigInt
    public let prime2: BigInt
    /// dP = d mod (p − 1), dQ = d mod (q − 1), qInv = q⁻¹ mod p.
    public let exponent1: BigInt
    public let exponent2: BigInt
    public let coefficient: BigInt

    /// How the two CRT exponentiations are computed.
    public enum Exponentiation: Sendable, CaseIterable {
        /// `mpz_powm_sec`: time and memory access independent of the exponent bits.
        case sideChannelSilent
        /// `mpz_powm`: GMP's fastest sliding-window code, variable time (benchmarks, teaching).
        case variableTime
    }

    /// Builds a key from its eight numbers, checking that they belong together:
    /// n = p·q, dP = d mod (p − 1), dQ = d mod (q − 1), q·qInv ≡ 1 (mod p), e·dP ≡ 1 (mod p − 1),
    /// e·dQ ≡ 1 (mod q − 1).
    public init(modulus n: BigInt, publicExponent e: BigInt, privateExponent d: BigInt,
                prime1 p: BigInt, prime2 q: BigInt, exponent1 dP: BigInt, exponent2 dQ: BigInt,
                coefficient qInv: BigInt) throws(RSAError) {
        let publicKey = try RSAPublicKey(modulus: n, publicExponent: e)
        guard p > .one, q > .one, p != q, p * q == n else { throw .invalidKey("n ≠ p·q") }
        guard d.signum > 0, d < n else { throw .invalidKey("d out of range") }
        let pm1 = p - .one, qm1 = q - .one
        do {
            guard try d.modulo(pm1) == dP, try d.modulo(qm1) == dQ else {
                throw RSAError.invalidKey("CRT exponents do not match d")
            }
            guard try (q * qInv).modulo(p) == .one, qInv < p, !qInv.isNegative else {
                throw RSAError.invalidKey("qInv is not q⁻¹ mod p")
            }
            guard try (e * dP).modulo(pm1) == .one, try (e * dQ).modulo(qm1) == .one else {
                throw RSAError.invalidKey("d is not an inverse of e")
            }
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidKey("\(error)")
        }
        self.publicKey = publicKey
        privateExponent = d
        prime1 = p
        prime2 = q
        exponent1 = dP
        exponent2 = dQ
        coefficient = qInv
    }

    /// Key generation (RFC 8017 §3; FIPS 186-5 B.3 in spirit): e = 65537, two primes of `bits / 2`
    /// bits each with their top two bits set (so n has exactly `bits` bits), p ≠ q,
    /// gcd(p − 1, e) = gcd(q − 1, e) = 1, d = e⁻¹ mod lcm(p − 1, q − 1).
    /// Deterministic for a deterministic `source`.
    public static func generate(bits: Int, using source: RandomSource) throws(RSAError) -> RSAPrivateKey {
        guard (512...4096).contains(bits), bits % 2 == 0 else { throw .unsupportedKeySize(bits) }
        let e = BigInt(65537)
        for _ in 0..<100 {
            let a: BigInt, b: BigInt
            do {
                a = try BigInt.randomPrime(bits: bits / 2, coprimeTo: e, using: source)
                b = try BigInt.randomPrime(bits: bits / 2, coprimeTo: e, using: source)
            } catch {
                throw .keyGenerationFailed("\(error)")
            }
            guard a != b else { continue }
            // p and q must not be too close (|p − q| > 2^(bits/2 − 100), FIPS 186-5 A.1.3).
            guard (a - b).magnitude.bitWidth > bits / 2 - 100 else { continue }
            let p = max(a, b), q = min(a, b)
            let n = p * q
            guard n.bitWidth == bits else { continue }
            do {
                let lambda = (p - .one).lcm(q - .one)
                let d = try e.inverse(modulus: lambda)
                return try RSAPrivateKey(
                    modulus: n, publicExponent: e, privateExponent: d, prime1: p, prime2: q,
                    exponent1: try d.modulo(p - .one), exponent2: try d.modulo(q - .one),
                    coefficient: try q.inverse(modulus: p))
            } catch {
                continue
            }
        }
        throw .keyGenerationFailed("no suitable primes after 100 attempts")
    }

    // MARK: The RSA primitive

    /// RSADP / RSASP1 (RFC 8017 §5.1.2 step 2.b): m1 = c^dP mod p, m2 = c^dQ mod q,
    /// h = qInv·(m1 − m2) mod p, m = m2 + q·h; then m^e mod n must give c back.
    public func privateOperation(_ c: BigInt, exponentiation: Exponentiation = .sideChannelSilent) throws(RSAError) -> BigInt {
        let n = publicKey.modulus
        guard !c.isNegative, c < n else { throw .representativeOutOfRange }
        do {
            let m1: BigInt, m2: BigInt
            let cp = try c.modulo(prime1), cq = try c.modulo(prime2)
            switch exponentiation {
            case .sideChannelSilent:
                m1 = try cp.powerSecure(exponent1, modulus: prime1)
                m2 = try cq.powerSecure(exponent2, modulus: prime2)
            case .variableTime:
                m1 = try cp.power(exponent1, modulus: prime1)
                m2 = try cq.power(exponent2, modulus: prime2)
            }
            let h = try (coefficient * (m1 - m2)).modulo(prime1)
            let m = m2 + prime2 * h
            guard try m.power(publicKey.publicExponent, modulus: n) == c else { throw RSAError.faultDetected }
            return m
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidKey("private operation: \(error)")
        }
    }

    /// The private operation on k bytes, returning k bytes.
    func privateOperation(bytes: [UInt8]) throws(RSAError) -> [UInt8] {
        let k = publicKey.byteLength
        let m = try privateOperation(PKCS1Encoding.os2ip(bytes))
        return try PKCS1Encoding.i2osp(m, length: k)
    }

    // MARK: PKCS#1 v1.5 decryption (RFC 8017 §7.2.2)

    /// RSAES-PKCS1-V1_5-DECRYPT. A ciphertext of the wrong length or not below n throws
    /// ``RSAError/wrongLength(expected:actual:)`` / ``RSAError/representativeOutOfRange``;
    /// every padding failure throws the single ``RSAError/decryptionError``.
    public func decryptPKCS1v15(_ ciphertext: [UInt8]) throws(RSAError) -> [UInt8] {
        let k = publicKey.byteLength
        guard ciphertext.count == k else { throw .wrongLength(expected: k, actual: ciphertext.count) }
        guard k >= 11 else { throw .decryptionError }
        let em = try privateOperation(bytes: ciphertext)
        return try PKCS1Encoding.decodeEncryptionBlock(em)
    }

    // MARK: Signatures

    /// RSASSA-PKCS1-V1_5-SIGN (RFC 8017 §8.2.1): EM = 00 01 FF…FF 00 DigestInfo(hash(message)).
    public func signPKCS1v15(message: [UInt8], hash: HashAlgorithm) throws(RSAError) -> [UInt8] {
        let em = try PKCS1Encoding.encodeSignatureBlock(digest: hash.digest(message), hash: hash,
                                                        emLength: publicKey.byteLength)
        return try privateOperation(bytes: em)
    }

    /// RSASSA-PSS-SIGN (RFC 8017 §8.1.1) with MGF1 over the same hash and a salt of `saltLength`
    /// bytes from `source` (rsa_pss_rsae_sha256 in TLS uses SHA-256 and a 32-byte salt).
    public func signPSS(message: [UInt8], hash: HashAlgorithm, saltLength: Int,
                        using source: RandomSource) throws(RSAError) -> [UInt8] {
        let emBits = publicKey.bitLength - 1
        let em = try PKCS1Encoding.encodePSS(messageHash: hash.digest(message), emBits: emBits, hash: hash,
                                             saltLength: saltLength, using: source)
        let s = try privateOperation(PKCS1Encoding.os2ip(em))
        return try PKCS1Encoding.i2osp(s, length: publicKey.byteLength)
    }
}
