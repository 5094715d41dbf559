import Testing
@testable import BigNum

/// A source that returns a fixed byte forever (all 0x00, all 0xFF): degenerate, but no reason to hang.
final class ConstantSource: RandomSource {
    let byte: UInt8
    private(set) var calls = 0
    init(_ byte: UInt8) { self.byte = byte }
    func bytes(count: Int) -> [UInt8] {
        calls += 1
        return [UInt8](repeating: byte, count: count)
    }
}

/// A source that returns fewer bytes than asked for (a broken implementation of the protocol).
final class ShortSource: RandomSource {
    let shortBy: Int
    init(shortBy: Int) { self.shortBy = shortBy }
    func bytes(count: Int) -> [UInt8] { [UInt8](repeating: 0x5A, count: max(count - shortBy, 0)) }
}

@Suite("BigInt: entry points throw instead of aborting, trapping or hanging")
struct BigIntRobustnessTests {
    @Test func shiftLeftIsCappedAndRejectsNegativeShifts() throws {
        #expect(try BigInt(3) << 4 == 48)
        #expect(try BigInt.zero << Int.max == .zero)  // zero stays zero at any shift
        let limit = BigInt.maximumBitWidth
        #expect(try (BigInt.one << (limit - 1)).bitWidth == limit)
        #expect(throws: BigNumError.resultTooLarge(bits: limit + 1, limit: limit)) { try BigInt.one << limit }
        #expect(throws: BigNumError.resultTooLarge(bits: Int.max, limit: limit)) { try BigInt(5) << Int.max }
        #expect(throws: BigNumError.resultTooLarge(bits: Int.max, limit: limit)) { try BigInt(5) << (Int.max - 1) }
        #expect(throws: BigNumError.invalidRange("negative shift -1")) { try BigInt(5) << -1 }
    }

    @Test func integerPowerIsCapped() throws {
        #expect(try BigInt(3).power(4) == 81)
        #expect(try BigInt(-2).power(3) == -8)
        #expect(try BigInt(7).power(0) == 1)
        // 0, 1 and -1 stay small for any exponent: no cap applies.
        #expect(try BigInt.zero.power(UInt.max) == .zero)
        #expect(try BigInt.one.power(UInt.max) == .one)
        #expect(try BigInt(-1).power(UInt.max) == -1)
        #expect(try BigInt(-1).power(UInt.max - 1) == 1)
        let limit = BigInt.maximumBitWidth
        #expect(try BigInt(2).power(UInt(limit - 1)).bitWidth == limit)
        #expect(throws: BigNumError.resultTooLarge(bits: limit + 1, limit: limit)) { try BigInt(2).power(UInt(limit)) }
        #expect(throws: BigNumError.resultTooLarge(bits: Int.max, limit: limit)) { try BigInt(10).power(UInt.max) }
        #expect(throws: BigNumError.self) { try (BigInt.one << 1000).power(UInt(1) << 40) }
    }

    @Test func primalityRoundsAreClamped() {
        // Int32(rounds) used to trap above Int32.max; huge counts are clamped, not run.
        #expect(BigInt(97).isProbablePrime(rounds: Int.max))
        #expect(BigInt(97).isProbablePrime(rounds: Int(Int32.max) + 1))
        #expect(!BigInt(561).isProbablePrime(rounds: Int.max))
        #expect(BigInt(97).isProbablePrime(rounds: Int.min))
        #expect(!BigInt(91).isProbablePrime(rounds: 0))
    }

    @Test func shortReadsAreTypedErrors() throws {
        let bound = try BigInt("ffffffffffffffffffff", radix: 16)
        #expect(throws: BigNumError.randomSourceShort(requested: 10, received: 9)) {
            try BigInt.random(below: bound, using: ShortSource(shortBy: 1))
        }
        #expect(throws: BigNumError.randomSourceShort(requested: 64, received: 0)) {
            try BigInt.randomPrime(bits: 512, using: ShortSource(shortBy: 64))
        }
        #expect(throws: BigNumError.randomSourceShort(requested: 8, received: 5)) {
            try ShortSource(shortBy: 3).uniform(below: 10)
        }
        #expect(throws: BigNumError.randomSourceShort(requested: 1, received: 0)) {
            try BigInt.random(below: BigInt(200), using: ShortSource(shortBy: 1))
        }
    }

    @Test func degenerateSourcesEndInsteadOfLooping() throws {
        // All 0xFF: every candidate is 2^bits − 1 ≥ bound, so rejection sampling never accepts.
        let bound = try BigInt("1000000007")
        let ones = ConstantSource(0xFF)
        #expect(throws: BigNumError.randomSourceDegenerate(attempts: BigInt.rejectionSamplingAttempts)) {
            try BigInt.random(below: bound, using: ones)
        }
        #expect(ones.calls == BigInt.rejectionSamplingAttempts)
        #expect(throws: BigNumError.randomSourceDegenerate(attempts: BigInt.rejectionSamplingAttempts)) {
            try ConstantSource(0xFF).uniform(below: 10)
        }
        // All 0xFF for a prime: the start 2^bits − 1 runs past 2^bits every time: a bounded failure.
        let primeSource = ConstantSource(0xFF)
        #expect(throws: BigNumError.primeGenerationFailed(bits: 256)) {
            try BigInt.randomPrime(bits: 256, using: primeSource)
        }
        #expect(primeSource.calls == BigInt.primeGenerationAttempts)
        // All zero is a legal (if terrible) draw: a value below the bound comes out at once.
        #expect(try BigInt.random(below: bound, using: ConstantSource(0)) == .zero)
        #expect(try ConstantSource(0).uniform(below: 10) == 0)
    }

    @Test func uniformBelowChecksItsBound() throws {
        #expect(throws: BigNumError.invalidRange("uniform(below:) needs a positive bound")) {
            try SplitMix(1).uniform(below: 0)
        }
        #expect(try ConstantSource(0).uniform(below: 1 << 63) == 0)
        #expect(try ConstantSource(0x01).uniform(below: 1) == 0)
        let rng = SplitMix(3)
        for bound in [1, 2, 3, 7, 1000, UInt64.max] as [UInt64] {
            for _ in 0..<50 { #expect(try rng.uniform(below: bound) < bound) }
        }
    }

    @Test func oversizedPrimeRequestsAreRefused() {
        #expect(throws: BigNumError.invalidRange("at most \(BigInt.maximumPrimeBits)-bit primes")) {
            try BigInt.randomPrime(bits: BigInt.maximumPrimeBits + 1, using: SplitMix(1))
        }
        #expect(throws: BigNumError.invalidRange("at most \(BigInt.maximumPrimeBits)-bit primes")) {
            try BigInt.randomPrime(bits: Int.max, using: SplitMix(1))
        }
    }
}

@Suite("BigInt: randomized cross-checks against machine arithmetic")
struct BigIntRandomizedCrossCheckTests {
    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var x = a, y = b
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    @Test(arguments: 0..<10)
    func inverseSatisfiesItsDefinition(seed: Int) throws {
        let rng = SplitMix(UInt64(1000 + seed))
        var inverted = 0
        for _ in 0..<200 {
            let a = rng.next(), m = rng.next() | 2   // m ≥ 2
            let result = Result { () throws(BigNumError) in try BigInt(a).inverse(modulus: BigInt(m)) }
            if Self.gcd(a, m) == 1 {
                let inv = try #require(try? result.get())
                #expect(inv >= .zero && inv < BigInt(m))
                // a·inv ≡ 1 (mod m), checked in 128-bit machine arithmetic.
                let invValue = try inv.bigEndianBytes(width: 8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                #expect((UInt128(a) * UInt128(invValue)) % UInt128(m) == 1)
                inverted += 1
            } else {
                #expect(throws: BigNumError.notInvertible) { try result.get() }
            }
        }
        #expect(inverted > 50)
    }

    @Test(arguments: 0..<10)
    func lcmMatchesUInt128(seed: Int) throws {
        let rng = SplitMix(UInt64(2000 + seed))
        for _ in 0..<200 {
            // Small common factors make the gcd interesting.
            let f = rng.next() % 1000 + 1
            let a = (rng.next() >> 20) * f, b = (rng.next() >> 20) * f
            let expected: UInt128 = (a == 0 || b == 0) ? 0 : UInt128(a / Self.gcd(a, b)) * UInt128(b)
            let bytes = withUnsafeBytes(of: expected.bigEndian) { Array($0) }
            #expect(BigInt(a).lcm(BigInt(b)) == BigInt(bigEndian: bytes), "lcm(\(a), \(b))")
            #expect(BigInt(a).gcd(BigInt(b)) == BigInt(Self.gcd(a, b)))
        }
    }

    @Test func randomInStaysInItsRangeAndHitsBothEnds() throws {
        let rng = SplitMix(77)
        var seen = Set<Int>()
        for _ in 0..<2000 {
            let v = try BigInt.random(in: BigInt(-3), BigInt(4), using: rng)
            let i = try #require(v.intValue)
            #expect((-3...4).contains(i))
            seen.insert(i)
        }
        #expect(seen == Set(-3...4))
        #expect(try BigInt.random(in: BigInt(9), BigInt(9), using: rng) == 9)
        #expect(throws: BigNumError.invalidRange("low > high")) { try BigInt.random(in: BigInt(2), BigInt(1), using: rng) }
        // Large ranges: within bounds, deterministic per seed.
        let low = try BigInt("1" + String(repeating: "0", count: 60)), high = low + (try BigInt(1) << 100)
        let a = try BigInt.random(in: low, high, using: SplitMix(5)), b = try BigInt.random(in: low, high, using: SplitMix(5))
        #expect(a == b && a >= low && a <= high)
    }

    @Test func nextPrimeMatchesTrialDivision() throws {
        func isPrime(_ n: UInt64) -> Bool {
            guard n >= 2 else { return false }
            var d: UInt64 = 2
            while d * d <= n { if n % d == 0 { return false }; d += 1 }
            return true
        }
        let rng = SplitMix(31)
        for _ in 0..<300 {
            let n = rng.next() % 5_000_000
            var expected = n + 1
            while !isPrime(expected) { expected += 1 }
            #expect(BigInt(n).nextPrime == BigInt(expected), "nextPrime(\(n))")
        }
        #expect(BigInt(0).nextPrime == 2)
        #expect(BigInt(2).nextPrime == 3)
        // Past 2^64: the first prime above 2^64 is 2^64 + 13.
        #expect((try BigInt.one << 64).nextPrime == (try BigInt.one << 64) + BigInt(13))
    }

    @Test func radixTwoAndEightParseLikeSwift() throws {
        let rng = SplitMix(8)
        for _ in 0..<300 {
            let v = rng.next()
            #expect(try BigInt(String(v, radix: 2), radix: 2) == BigInt(v))
            #expect(try BigInt(String(v, radix: 8), radix: 8) == BigInt(v))
            #expect(BigInt(v).toString(radix: 2) == String(v, radix: 2))
            #expect(BigInt(v).toString(radix: 8) == String(v, radix: 8))
            #expect(try BigInt("-" + String(v, radix: 8), radix: 8) == -BigInt(v))
        }
        #expect(throws: BigNumError.invalidString("102")) { try BigInt("102", radix: 2) }
        #expect(throws: BigNumError.invalidString("78")) { try BigInt("78", radix: 8) }
        #expect(throws: BigNumError.invalidString("0x11")) { try BigInt("0x11", radix: 2) }
        #expect(try BigInt("1 0000 0000", radix: 2) == 256)
    }
}
