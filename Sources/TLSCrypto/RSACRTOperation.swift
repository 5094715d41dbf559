import BigNum

/// The CRT form of the RSA private exponentiation (RFC 8017 §5.1.2 step 2b, two primes):
/// m1 = c^dP mod p, m2 = c^dQ mod q, h = qInv·(m1 − m2) mod p, m = m2 + q·h.
struct RSACRTOperation: Sendable {
    let p: BigInt, q: BigInt, dP: BigInt, dQ: BigInt, qInv: BigInt

    /// x^d mod n for 0 ≤ x < n = p·q.
    func apply(_ x: BigInt) -> BigInt {
        // p, q > 1 and the exponents positive are checked when the key is built: these cannot throw.
        guard let xp = try? x.modulo(p), let xq = try? x.modulo(q),
              let m1 = try? xp.power(dP, modulus: p),
              let m2 = try? xq.power(dQ, modulus: q),
              let h = try? (qInv * (m1 - m2)).modulo(p) else { return .zero }
        return m2 + q * h
    }
}
