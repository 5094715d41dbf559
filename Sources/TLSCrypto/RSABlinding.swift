import BigNum
import Synchronization

/// RSA base blinding (Kocher 1996; what OpenSSL's `BN_BLINDING` does): a pair A = r^e mod n and
/// A⁻¹ = r⁻¹ mod n with r drawn from the injected random source. The private operation computes
/// (c·A)^d·A⁻¹ = c^d mod n, so the value exponentiated is independent of the attacker's c. After
/// each use the pair is squared — (r²)^e and (r²)⁻¹ — which is cheap and keeps it fresh.
///
/// Base blinding hides the *input* from timing (the attacks that choose ciphertexts and time the
/// Montgomery reductions). It does not hide the *exponent*: with GMP's variable-time sliding-window
/// `mpz_powm`, the pattern of squarings and multiplications and its memory accesses still depend on
/// dP and dQ. So it is not a replacement for ``RSAPrivateKey/Exponentiation/sideChannelSilent``.
public final class RSABlinding: Sendable {
    /// The modulus the pair belongs to.
    public let modulus: BigInt
    private let pair: Mutex<(factor: BigInt, inverse: BigInt)>

    /// A fresh pair for `key`: r uniform in 2 ... n − 2 with gcd(r, n) = 1, from `source`.
    public init(for key: RSAPublicKey, using source: RandomSource) throws(RSAError) {
        modulus = key.modulus
        pair = Mutex(try Self.freshPair(for: key, using: source))
    }

    private static func freshPair(for key: RSAPublicKey, using source: RandomSource) throws(RSAError) -> (factor: BigInt, inverse: BigInt) {
        let n = key.modulus
        for _ in 0..<64 {
            do {
                let r = try BigInt.random(in: BigInt(2), n - BigInt(2), using: source)
                let inverse = try r.inverse(modulus: n)   // throws for an r with gcd(r, n) ≠ 1
                return (try r.power(key.publicExponent, modulus: n), inverse)
            } catch .notInvertible {
                continue
            } catch {
                throw .randomSourceFailed("blinding factor: \(error)")
            }
        }
        throw .randomSourceFailed("no invertible blinding factor in 64 draws")
    }

    /// The current pair, replaced by its square for the next use.
    func take() throws(RSAError) -> (factor: BigInt, inverse: BigInt) {
        let n = modulus
        let result: Result<(factor: BigInt, inverse: BigInt), BigNumError> = pair.withLock { pair in
            let current = pair
            do throws(BigNumError) {
                pair = (try (current.factor * current.factor).modulo(n), try (current.inverse * current.inverse).modulo(n))
                return .success(current)
            } catch {
                return .failure(error)
            }
        }
        do {
            return try result.get()
        } catch {
            throw .invalidKey("blinding: \(error)")
        }
    }
}

extension RSAPrivateKey {
    /// The RSA primitive with base blinding and GMP's fast variable-time `mpz_powm` for the two CRT
    /// halves: c' = c·A mod n, m' = c'^d (CRT, checked with e), m = m'·A⁻¹ mod n. The result equals
    /// ``privateOperation(_:exponentiation:)``'s. See ``RSABlinding`` for what it does and does not hide.
    public func privateOperation(_ c: BigInt, blinding: RSABlinding) throws(RSAError) -> BigInt {
        let n = publicKey.modulus
        guard !c.isNegative, c < n else { throw .representativeOutOfRange }
        guard blinding.modulus == n else { throw .invalidKey("the blinding pair belongs to another modulus") }
        let (factor, inverse) = try blinding.take()
        do {
            let blinded = try (c * factor).modulo(n)
            let m = try privateOperation(blinded, exponentiation: .variableTime)
            return try (m * inverse).modulo(n)
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidKey("blinded private operation: \(error)")
        }
    }
}
