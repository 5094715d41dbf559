import BigNum

extension RSAPrivateKey {
    /// The public exponent of every generated key (RFC 8017 §3.1 allows others; 65537 is universal).
    public static let defaultPublicExponent = BigInt(65537)

    /// Generates a key of `bits` bits (512 … 4096) with e = 65537: two random primes of (nearly)
    /// equal size with their two top bits set, gcd(p − 1, e) = 1, p ≠ q and |p − q| > 2^(bits/2 − 100)
    /// (FIPS 186-4 §B.3.1); d = e⁻¹ mod lcm(p − 1, q − 1). Deterministic for a deterministic `source`:
    /// the same seed gives the same key.
    public static func generate(bits: Int, using source: RandomSource) throws(RSAError) -> RSAPrivateKey {
        guard (512...4096).contains(bits) else { throw .unsupportedKeySize(bits) }
        let e = defaultPublicExponent
        let pBits = (bits + 1) / 2
        let qBits = bits - pBits
        let minimumDistance = BigInt.one << (bits / 2 - 100)
        for _ in 0..<100 {
            let p: BigInt, q: BigInt
            do {
                p = try BigInt.randomPrime(bits: pBits, coprimeTo: e, using: source)
                q = try BigInt.randomPrime(bits: qBits, coprimeTo: e, using: source)
            } catch {
                throw .keyGenerationFailed(error.description)
            }
            guard (p - q).magnitude > minimumDistance else { continue }
            let (larger, smaller) = p > q ? (p, q) : (q, p)
            guard (larger * smaller).bitWidth == bits else { continue }
            guard let key = try? RSAPrivateKey(publicExponent: e, prime1: larger, prime2: smaller),
                  key.privateExponent.bitWidth > bits / 2 else { continue }
            return key
        }
        throw .keyGenerationFailed("no suitable primes after 100 attempts")
    }
}
