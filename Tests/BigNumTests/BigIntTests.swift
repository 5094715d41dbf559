import Testing
@testable import BigNum

/// A tiny deterministic byte source for these tests (the real DRBG lives in TLSCrypto).
final class SplitMix: RandomSource {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    func bytes(count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count + 8)
        while out.count < count { withUnsafeBytes(of: next().bigEndian) { out.append(contentsOf: $0) } }
        return Array(out.prefix(count))
    }
}

@Suite("BigInt exact values")
struct BigIntExactTests {
    @Test func seedToyDiffieHellman() throws {
        // The blackboard example: g = 7, p = 5, x1 = 2, x2 = 5 → P1 = 4, P2 = 2, S = 4.
        let g = BigInt(7), p = BigInt(5)
        let p1 = try g.power(BigInt(2), modulus: p)
        let p2 = try g.power(BigInt(5), modulus: p)
        #expect(p1 == 4)
        #expect(p2 == 2)
        #expect(try p2.power(BigInt(2), modulus: p) == 4)
        #expect(try p1.power(BigInt(5), modulus: p) == 4)
    }

    @Test func bytesRoundTrip() throws {
        let bytes: [UInt8] = [0x00, 0x00, 0x01, 0x02, 0xff]
        let n = BigInt(bigEndian: bytes)
        #expect(n == BigInt(0x0102ff))
        #expect(n.bigEndianBytes == [0x01, 0x02, 0xff])
        #expect(try n.bigEndianBytes(width: 5) == bytes)
        #expect(throws: BigNumError.valueTooLarge(byteWidth: 3, limit: 2)) { try n.bigEndianBytes(width: 2) }
        #expect(BigInt(bigEndian: [UInt8]()) == .zero)
        #expect(BigInt.zero.bigEndianBytes == [])
        #expect(try BigInt.zero.bigEndianBytes(width: 2) == [0, 0])
        #expect(throws: BigNumError.negativeValue) { try BigInt(-5).bigEndianBytes(width: 4) }
    }

    @Test func stringsInAndOut() throws {
        let n = try BigInt("123456789012345678901234567890")
        #expect(n.description == "123456789012345678901234567890")
        #expect(try BigInt("0xDEADbeef", radix: 16) == BigInt(0xdeadbeef))
        #expect(try BigInt("-ff", radix: 16) == BigInt(-255))
        #expect(BigInt(-255).toString(radix: 16) == "-ff")
        #expect(BigInt.zero.description == "0")
        #expect(throws: BigNumError.invalidString("12a")) { try BigInt("12a") }
        #expect(throws: BigNumError.invalidString("")) { try BigInt("") }
        #expect(throws: BigNumError.invalidString("-")) { try BigInt("-") }
        #expect(throws: BigNumError.invalidRadix(7)) { try BigInt("1", radix: 7) }
    }

    @Test func checkedOperationsThrowInsteadOfAborting() {
        let a = BigInt(10)
        #expect(throws: BigNumError.divisionByZero) { try a.modulo(.zero) }
        #expect(throws: BigNumError.divisionByZero) { try a.quotientAndRemainder(dividingBy: .zero) }
        #expect(throws: BigNumError.divisionByZero) { try a.power(BigInt(3), modulus: .zero) }
        #expect(throws: BigNumError.nonPositiveModulus) { try a.power(BigInt(3), modulus: BigInt(-7)) }
        #expect(throws: BigNumError.negativeExponent) { try a.power(BigInt(-3), modulus: BigInt(7)) }
        #expect(throws: BigNumError.evenModulus) { try a.powerSecure(BigInt(3), modulus: BigInt(8)) }
        #expect(throws: BigNumError.negativeExponent) { try a.powerSecure(.zero, modulus: BigInt(7)) }
        #expect(throws: BigNumError.notInvertible) { try BigInt(6).inverse(modulus: BigInt(9)) }
        #expect(throws: BigNumError.divisionByZero) { try BigInt(6).inverse(modulus: .zero) }
        #expect(throws: BigNumError.invalidRange("the bound must be positive")) {
            try BigInt.random(below: .zero, using: SplitMix(1))
        }
    }

    @Test func inverseGcdAndBits() throws {
        #expect(try BigInt(3).inverse(modulus: BigInt(11)) == 4)
        #expect(try BigInt(-3).inverse(modulus: BigInt(11)) == 7)
        #expect(BigInt(84).gcd(BigInt(36)) == 12)
        #expect(BigInt(255).bitWidth == 8)
        #expect(BigInt(256).bitWidth == 9)
        #expect(BigInt.zero.bitWidth == 0)
        #expect(BigInt(256).byteWidth == 2)
        #expect(try (BigInt(1) << 100) >> 99 == 2)
        let (q, r) = try BigInt(-7).quotientAndRemainder(dividingBy: BigInt(2))
        #expect(q == -4 && r == 1)  // floor division
        #expect(try BigInt(-7).modulo(BigInt(5)) == 3)
    }
}

@Suite("BigInt against UInt64 arithmetic")
struct BigIntRandomizedTests {
    /// Square-and-multiply in 128-bit arithmetic as the independent oracle.
    static func powmod(_ b: UInt64, _ e: UInt64, _ m: UInt64) -> UInt64 {
        var result: UInt64 = 1 % m, base = b % m, exp = e
        while exp > 0 {
            if exp & 1 == 1 { result = UInt64((UInt128(result) * UInt128(base)) % UInt128(m)) }
            base = UInt64((UInt128(base) * UInt128(base)) % UInt128(m))
            exp >>= 1
        }
        return result
    }

    @Test(arguments: 0..<20)
    func matchesMachineArithmetic(seed: Int) throws {
        let rng = SplitMix(UInt64(seed))
        for _ in 0..<200 {
            let a = rng.next() >> 2, b = rng.next() >> 2
            let m = (rng.next() >> 3) | 1
            let A = BigInt(a), B = BigInt(b), M = BigInt(m)
            #expect(A + B == BigInt(a + b))
            #expect(A * B == BigInt(bigEndian: withUnsafeBytes(of: (UInt128(a) * UInt128(b)).bigEndian) { Array($0) }))
            #expect(A - B == (a >= b ? BigInt(a - b) : -BigInt(b - a)))
            #expect(try A.modulo(M) == BigInt(a % m))
            let (q, r) = try A.quotientAndRemainder(dividingBy: M)
            #expect(q == BigInt(a / m) && r == BigInt(a % m))
            #expect(try A.power(B, modulus: M) == BigInt(Self.powmod(a, b, m)))
            if b > 0, m > 1 {
                #expect(try A.powerSecure(B, modulus: M) == BigInt(Self.powmod(a, b, m)))
            }
            #expect((A < B) == (a < b))
            #expect(A.bigEndianBytes == Array(withUnsafeBytes(of: a.bigEndian) { Array($0) }.drop { $0 == 0 }))
            let g = A.gcd(B)
            var x = a, y = b
            while y != 0 { (x, y) = (y, x % y) }
            #expect(g == BigInt(x))
        }
    }

    @Test func randomBelowStaysInRangeAndIsDeterministic() throws {
        let bound = try BigInt("1000000007")
        let r1 = SplitMix(42), r2 = SplitMix(42)
        for _ in 0..<500 {
            let v = try BigInt.random(below: bound, using: r1)
            #expect(v >= .zero && v < bound)
            #expect(v == (try BigInt.random(below: bound, using: r2)))
        }
        // a bound of 1 always gives 0
        #expect(try BigInt.random(below: .one, using: r1) == .zero)
    }
}

@Suite("Primes")
struct PrimeTests {
    @Test func smallPrimes() {
        let primes = (2..<100).filter { BigInt($0).isProbablePrime() }
        #expect(primes == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97])
        #expect(!BigInt(561).isProbablePrime())  // Carmichael number
    }

    @Test(arguments: [64, 256, 512])
    func generatedPrimesHaveExactSizeAndTopBits(bits: Int) throws {
        let e = BigInt(65537)
        let p = try BigInt.randomPrime(bits: bits, coprimeTo: e, using: SplitMix(UInt64(bits)))
        #expect(p.bitWidth == bits)
        #expect(p.testBit(bits - 2))
        #expect(p.isProbablePrime())
        #expect((p - .one).gcd(e) == .one)
        // deterministic for the same seed
        #expect(p == (try BigInt.randomPrime(bits: bits, coprimeTo: e, using: SplitMix(UInt64(bits)))))
    }
}
