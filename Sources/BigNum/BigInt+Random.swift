import CGMP

/// A source of random bytes. Every random value in TLSLab is drawn from one of these, injected by
/// the caller: the system CSPRNG for real runs, a seeded deterministic generator for tests and
/// scenarios (so a seed reproduces a whole run byte for byte).
///
/// Reference semantics on purpose: one generator is shared by everything in a run and its state
/// advances as values are drawn.
public protocol RandomSource: AnyObject {
    /// `count` fresh random bytes.
    func bytes(count: Int) -> [UInt8]
}

extension RandomSource {
    public func uint32() -> UInt32 {
        bytes(count: 4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    public func uint64() -> UInt64 {
        bytes(count: 8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `count` bytes from the source, or ``BigNumError/randomSourceShort(requested:received:)``
    /// when it returns fewer (a broken source must not become an index out of range).
    public func exactBytes(count: Int) throws(BigNumError) -> [UInt8] {
        let bytes = self.bytes(count: count)
        guard bytes.count >= count else { throw .randomSourceShort(requested: count, received: bytes.count) }
        return bytes.count == count ? bytes : Array(bytes.prefix(count))
    }

    /// A uniform value in `0 ..< bound` (rejection sampling, no modulo bias). Throws for a zero bound,
    /// a short read, and a source that is rejected ``BigInt/rejectionSamplingAttempts`` times in a row.
    public func uniform(below bound: UInt64) throws(BigNumError) -> UInt64 {
        guard bound > 0 else { throw .invalidRange("uniform(below:) needs a positive bound") }
        let limit = UInt64.max - UInt64.max % bound
        for _ in 0..<BigInt.rejectionSamplingAttempts {
            let v = try exactBytes(count: 8).reduce(0) { $0 << 8 | UInt64($1) }
            if v < limit { return v % bound }
        }
        throw .randomSourceDegenerate(attempts: BigInt.rejectionSamplingAttempts)
    }
}

extension BigInt {
    /// How many draws rejection sampling makes before calling the source degenerate. Each draw is
    /// rejected with probability below 1/2, so a working source fails with probability below 2^-256.
    public static let rejectionSamplingAttempts = 256

    /// A uniform random integer in `0 ..< bound`, drawn from `source` by rejection sampling.
    public static func random(below bound: BigInt, using source: RandomSource) throws(BigNumError) -> BigInt {
        guard bound.signum > 0 else { throw .invalidRange("the bound must be positive") }
        let bits = bound.bitWidth
        let byteCount = (bits + 7) / 8
        let excessBits = byteCount * 8 - bits
        for _ in 0..<rejectionSamplingAttempts {
            var bytes = try source.exactBytes(count: byteCount)
            bytes[0] &= UInt8(0xFF >> excessBits)
            let candidate = BigInt(bigEndian: bytes)
            if candidate < bound { return candidate }
        }
        throw .randomSourceDegenerate(attempts: rejectionSamplingAttempts)
    }

    /// A uniform random integer in `low ... high`.
    public static func random(in low: BigInt, _ high: BigInt, using source: RandomSource) throws(BigNumError) -> BigInt {
        guard low <= high else { throw .invalidRange("low > high") }
        return low + (try random(below: high - low + .one, using: source))
    }

    /// The most Miller-Rabin rounds `isProbablePrime` runs: the error bound 4^-rounds is already
    /// below 2^-2000 there, and an unbounded count could stall the process.
    public static let maximumPrimalityRounds = 1_000

    /// Probable-prime test: trial division, Baillie-PSW and `rounds` Miller-Rabin rounds (GMP),
    /// `rounds` clamped to 1 ... ``maximumPrimalityRounds``.
    public func isProbablePrime(rounds: Int = 30) -> Bool {
        let clamped = Swift.min(Swift.max(rounds, 1), BigInt.maximumPrimalityRounds)
        return __gmpz_probab_prime_p(storage.ptr, Int32(clamped)) > 0
    }

    /// The smallest probable prime greater than `self`.
    public var nextPrime: BigInt {
        let r = MPZ()
        __gmpz_nextprime(r.ptr, storage.ptr)
        return BigInt(storage: r)
    }

    /// The largest prime `randomPrime` makes (the two primes of an RSA-16384 modulus).
    public static let maximumPrimeBits = 8_192
    /// Random starting points `randomPrime` tries before giving up.
    public static let primeGenerationAttempts = 64

    /// A random prime of exactly `bits` bits whose two top bits are set (so the product of two
    /// such primes has exactly `2 * bits` bits, as RSA key generation wants), optionally with
    /// `gcd(p - 1, coprimeTo) == 1`. Deterministic for a deterministic `source`.
    public static func randomPrime(bits: Int, coprimeTo e: BigInt? = nil,
                                   using source: RandomSource) throws(BigNumError) -> BigInt {
        guard bits >= 8 else { throw .invalidRange("a prime needs at least 8 bits") }
        guard bits <= maximumPrimeBits else { throw .invalidRange("at most \(maximumPrimeBits)-bit primes") }
        let byteCount = (bits + 7) / 8
        let excess = byteCount * 8 - bits
        // A working source needs more than one attempt only when gcd(p − 1, e) ≠ 1 (about 1 in e for a
        // prime e) or the search runs past 2^bits; a constant source fails every attempt alike.
        for _ in 0..<primeGenerationAttempts {
            var bytes = try source.exactBytes(count: byteCount)
            bytes[0] &= UInt8(0xFF >> excess)
            // top two bits of the `bits`-bit value
            let top = bits - 1
            bytes[byteCount - 1 - top / 8] |= UInt8(1 << (top % 8))
            let second = bits - 2
            bytes[byteCount - 1 - second / 8] |= UInt8(1 << (second % 8))
            bytes[byteCount - 1] |= 1
            // Search upward from the random odd start; restart if we leave the range.
            let candidate = (BigInt(bigEndian: bytes) - .one).nextPrime
            guard candidate.bitWidth == bits, candidate.testBit(bits - 2) else { continue }
            if let e {
                let pm1 = candidate - .one
                guard pm1.gcd(e) == .one else { continue }
            }
            return candidate
        }
        throw .primeGenerationFailed(bits: bits)
    }
}
