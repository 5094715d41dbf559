import ArgumentParser
import BigNum

/// `tlslab selftest bignum`: exercises every BigInt entry point in a loop, error paths included.
/// It starts no concurrency tasks, so it can run under valgrind to check the GMP wrapper for leaks
/// (scripts/valgrind-bignum.sh).
struct SelfTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: CLIWords.text("cli.selfTestCommand.abstract"),
        shouldDisplay: false
    )

    @Argument(help: CLIWords.help("cli.selfTestCommand.subject")) var subject: String = "bignum"
    @Option(help: CLIWords.help("cli.selfTestCommand.iterations")) var iterations: Int = 2000

    final class Counter: RandomSource {
        var state: UInt64 = 0x1234_5678
        func bytes(count: Int) -> [UInt8] {
            (0..<count).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 33)
            }
        }
    }

    func run() throws {
        guard subject == "bignum" else { throw OptionProblem.unknownSelfTest(name: subject).validationError }
        let rng = Counter()
        var checksum = BigInt.zero
        let modulus = try BigInt("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff61", radix: 16)
        for i in 0..<iterations {
            let a = try BigInt.random(below: modulus, using: rng)
            let b = BigInt(bigEndian: rng.bytes(count: 40))
            let c = (a + b) * (a - b)
            let (q, r) = try c.quotientAndRemainder(dividingBy: modulus)
            let p = try a.power(b, modulus: modulus)
            let s = try a.powerSecure(b + .one, modulus: modulus)
            let inv = (try? a.inverse(modulus: modulus)) ?? .zero
            checksum = try (checksum + q + r + p + s + inv + a.gcd(b) + (c >> 3) + (c << 5)).modulo(modulus)
            _ = try BigInt(a.toString(radix: 16), radix: 16)
            _ = try a.bigEndianBytes(width: 40)
            _ = a.hexString + b.description
            // error paths must not leak either
            _ = try? a.modulo(.zero)
            _ = try? a.powerSecure(b, modulus: BigInt(8))
            _ = try? BigInt("not a number")
            if i % 100 == 0 { _ = try BigInt.randomPrime(bits: 128, using: rng) }
        }
        print(CLIWords.text("cli.selfTest.done", ["iterations": "\(iterations)", "checksum": checksum.hexString]))
    }
}
