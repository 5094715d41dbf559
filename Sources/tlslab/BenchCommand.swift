import ArgumentParser
import Foundation
import TLSCrypto
#if canImport(Glibc)
import Glibc
#endif

/// `tlslab bench`: measured speed, as ratios against `openssl speed` in the same run.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks against OpenSSL on this machine (build with -c release).",
        discussion: "Without a subcommand, runs them all (`tlslab bench all`). Each prints a table, or JSON with `--format json`.",
        subcommands: [BenchAllCommand.self, CryptoBenchCommand.self, HandshakeBenchCommand.self, TCPBenchCommand.self,
                      StartupBenchCommand.self, CheckBenchCommand.self, TCPFloodCommand.self],
        defaultSubcommand: BenchAllCommand.self
    )
}

/// `tlslab bench crypto`: RSA-2048 private (CRT) and public operations, ffdhe2048 agreement with a
/// 256-bit exponent and RSA-2048 key generation, each beside OpenSSL's figure from the same run.
struct CryptoBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "RSA-2048 and ffdhe2048 over GMP against `openssl speed` (medians of several runs)."
    )

    @Option(help: "Seconds per measurement (whole seconds, as openssl speed wants).")
    var seconds: Int = 2

    /// `--format text|json`: the root command's option, which ArgumentParser hands down by type.
    @OptionGroup(visibility: .hidden) var options: RenderOptions
    var format: BenchFormat { BenchFormat(options.format) }

    @Option(help: "Runs; the table shows the median and the min–max spread.")
    var runs: Int = 3

    @Option(help: "RSA-2048 keys generated per run (seeds 1…N) for the key-generation mean.")
    var keys: Int = 8

    @Flag(help: "Skip OpenSSL (only our figures).")
    var noOpenssl = false

    @Flag(help: "Divide by wall-clock time on both sides (openssl speed -elapsed) instead of CPU time.")
    var elapsed = false

    func validate() throws {
        guard (1...60).contains(seconds) else { throw ValidationError("--seconds must be 1…60") }
        guard (1...20).contains(runs) else { throw ValidationError("--runs must be 1…20") }
        guard (1...100).contains(keys) else { throw ValidationError("--keys must be 1…100") }
    }

    func run() throws {
        let bench = try CryptoBench(seconds: Double(seconds), wallClock: elapsed)
        let openssl = noOpenssl ? nil : OpenSSLSpeed.locate()
        var samples: [String: (ours: [Double], openssl: [Double])] = [:]
        func record(_ name: String, ours: Double, openssl: Double?) {
            var entry = samples[name] ?? ([], [])
            entry.ours.append(ours)
            if let openssl { entry.openssl.append(openssl) }
            samples[name] = entry
        }
        for run in 1...runs {
            if format == .text { FileHandle.standardError.write(Data("run \(run)/\(runs)…\n".utf8)) }
            // Ours and OpenSSL alternate within each run so that both see the same machine load.
            let rsaSpeed = try openssl.flatMap { try OpenSSLSpeed.rsa2048(openssl: $0, seconds: seconds, elapsed: elapsed) }
            record(CryptoBench.Row.privateSilent, ours: try bench.privateOpsPerSecond(.sideChannelSilent),
                   openssl: rsaSpeed?.sign)
            record(CryptoBench.Row.privateFast, ours: try bench.privateOpsPerSecond(.variableTime),
                   openssl: rsaSpeed?.sign)
            record(CryptoBench.Row.publicOp, ours: try bench.publicOpsPerSecond(), openssl: rsaSpeed?.verify)
            let dhSpeed = try openssl.flatMap { try OpenSSLSpeed.ffdh2048(openssl: $0, seconds: seconds, elapsed: elapsed) }
            record(CryptoBench.Row.ffdhe, ours: try bench.agreementsPerSecond(), openssl: dhSpeed)
            let keygen = try openssl.map { try OpenSSLSpeed.keygenPerSecond(openssl: $0, count: keys, wallClock: elapsed) }
            record(CryptoBench.Row.keygen, ours: try bench.keysPerSecond(count: keys, firstSeed: 1), openssl: keygen)
        }
        let rows = CryptoBench.Row.order.compactMap { name -> BenchRow? in
            guard let entry = samples[name] else { return nil }
            return BenchRow(operation: name, unit: "ops/s", ours: BenchSummary(entry.ours),
                            openssl: entry.openssl.isEmpty ? nil : BenchSummary(entry.openssl),
                            peakMemoryKiB: ProcMemory.field("VmHWM"))
        }
        let report = BenchReport(
            benchmark: "crypto",
            settings: ["seconds": "\(seconds)", "runs": "\(runs)", "keysPerRun": "\(keys)",
                       "timeBase": elapsed ? "wall clock" : "CPU time"],
            rows: rows,
            notes: ["median [min–max] of \(runs) run(s), \(seconds) s per measurement; key generation: \(keys) keys per run "
                    + "(seeds 1…\(keys)); OpenSSL key generation = openssl genpkey minus process start-up.",
                    elapsed ? "Rates per second of wall-clock time (openssl speed -elapsed)."
                        : "Rates per second of CPU time on both sides (openssl speed's default divisor)."])
        try report.print(format)
    }
}

// MARK: - Our measurements

/// The operations measured, on a fixed RSA-2048 key generated from seed 2048.
struct CryptoBench {
    enum Row {
        static let privateSilent = "RSA-2048 private op (CRT, mpz_powm_sec)"
        static let privateFast = "RSA-2048 private op (CRT, mpz_powm)"
        static let publicOp = "RSA-2048 public op (e = 65537)"
        static let ffdhe = "ffdhe2048 agreement (256-bit exponent)"
        static let keygen = "RSA-2048 key generation"
        static let order = [privateSilent, privateFast, publicOp, ffdhe, keygen]
    }

    /// RFC 7919 Appendix A.1, ffdhe2048: p = 2^2048 − 2^1984 + (⌊2^1918 · e⌋ + 560316) · 2^64 − 1.
    static let ffdhe2048Hex = """
        ffffffffffffffffadf85458a2bb4a9aafdc5620273d3cf1d8b9c583ce2d3695\
        a9e13641146433fbcc939dce249b3ef97d2fe363630c75d8f681b202aec4617a\
        d3df1ed5d5fd65612433f51f5f066ed0856365553ded1af3b557135e7f57c935\
        984f0c70e0e68b77e2a689daf3efe8721df158a136ade73530acca4f483a797a\
        bc0ab182b324fb61d108a94bb2c8e3fbb96adab760d7f4681d4f42a3de394df4\
        ae56ede76372bb190b07a7c8ee0a6d709e02fce1cdf7e2ecc03404cd28342f61\
        9172fe9ce98583ff8e4f1232eef28183c3fe3b1b4c6fad733bb5fcbc2ec22005\
        c58ef1837d1683b2c6f34a26c1b2effa886b423861285c97ffffffffffffffff
        """

    let seconds: Double
    let wallClock: Bool
    let key: RSAPrivateKey
    let prime: BigInt
    let clock = ContinuousClock()

    init(seconds: Double, wallClock: Bool) throws {
        self.seconds = seconds
        self.wallClock = wallClock
        key = try RSAPrivateKey.generate(bits: 2048, using: BenchRandom(seed: 2048))
        prime = try BigInt(CryptoBench.ffdhe2048Hex, radix: 16)
    }

    /// Runs `body` repeatedly for `seconds` of wall-clock time; returns operations per second of
    /// this thread's CPU time (what `openssl speed` divides by: user time, unless `-elapsed`),
    /// or of wall-clock time with `--elapsed`. CPU time keeps the ratio honest on a shared machine.
    func rate(_ body: () throws -> Void) rethrows -> Double {
        try body()   // warm-up
        var count = 0
        let start = clock.now
        let cpuStart = CPUTime.thread()
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<8 { try body() }
            count += 8
            elapsed = clock.now - start
        } while elapsed < budget
        let divisor = wallClock ? elapsed.benchSeconds : CPUTime.thread() - cpuStart
        return Double(count) / divisor
    }

    func privateOpsPerSecond(_ variant: RSAPrivateKey.Exponentiation) throws -> Double {
        let source = BenchRandom(seed: 7)
        let inputs = try (0..<16).map { _ in try BigInt.random(below: key.publicKey.modulus, using: source) }
        var index = 0
        return try rate {
            _ = try key.privateOperation(inputs[index & 15], exponentiation: variant)
            index += 1
        }
    }

    func publicOpsPerSecond() throws -> Double {
        let source = BenchRandom(seed: 8)
        let n = key.publicKey.modulus, e = key.publicKey.publicExponent
        let inputs = try (0..<16).map { _ in try BigInt.random(below: n, using: source) }
        var index = 0
        return try rate {
            _ = try inputs[index & 15].power(e, modulus: n)
            index += 1
        }
    }

    /// One Diffie-Hellman agreement: (peer's g^y)^x mod p with a 256-bit x.
    func agreementsPerSecond() throws -> Double {
        let source = BenchRandom(seed: 9)
        let two = BigInt(2)
        let exponents = try (0..<16).map { _ in try BigInt.random(below: BigInt.one << 256, using: source) }
        let peers = try exponents.map { try two.power($0, modulus: prime) }
        var index = 0
        return try rate {
            _ = try peers[index & 15].power(exponents[(index + 5) & 15], modulus: prime)
            index += 1
        }
    }

    /// RSA-2048 keys per second: `count` keys from seeds firstSeed… (the mean, as a rate).
    func keysPerSecond(count: Int, firstSeed: Int) throws -> Double {
        let start = clock.now
        let cpuStart = CPUTime.thread()
        for seed in firstSeed..<(firstSeed + count) {
            _ = try RSAPrivateKey.generate(bits: 2048, using: BenchRandom(seed: seed))
        }
        let divisor = wallClock ? (clock.now - start).benchSeconds : CPUTime.thread() - cpuStart
        return Double(count) / divisor
    }
}

/// A seeded source for the benchmark's keys and inputs: SHA-256 in counter mode.
final class BenchRandom: RandomSource {
    private let seed: [UInt8]
    private var counter: UInt64 = 0
    private var buffer: [UInt8] = []

    init(seed value: Int) {
        seed = Array("tlslab-bench-\(value)".utf8)
    }

    func bytes(count: Int) -> [UInt8] {
        while buffer.count < count {
            let block = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * $0)) }
            buffer += HashAlgorithm.sha256.digest(seed + block)
            counter += 1
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }
}

/// CPU time in seconds, from the C library.
enum CPUTime {
    /// This thread's CPU time.
    static func thread() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    /// User CPU time of all waited-for child processes.
    static func children() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
    }
}

extension Duration {
    var benchSeconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}

// MARK: - OpenSSL

/// Runs `openssl speed` and parses its summary lines.
enum OpenSSLSpeed {
    static func locate() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/openssl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        FileHandle.standardError.write(Data("openssl not found on the PATH: OpenSSL columns left empty\n".utf8))
        return nil
    }

    static func run(_ openssl: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The numbers at the end of the first line starting with `prefix` (after trimming).
    static func numbers(in output: String, linePrefix prefix: String) -> [Double]? {
        for line in output.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(prefix) else { continue }
            return trimmed.dropFirst(prefix.count).split(separator: " ").compactMap {
                Double($0.hasSuffix("s") ? String($0.dropLast()) : String($0))
            }
        }
        return nil
    }

    /// `openssl speed -seconds S rsa2048`: "rsa 2048 bits 0.000668s 0.000020s 1497.8 50143.7".
    static func rsa2048(openssl: String, seconds: Int, elapsed: Bool) throws -> (sign: Double, verify: Double)? {
        let output = try run(openssl, ["speed", "-seconds", "\(seconds)"] + (elapsed ? ["-elapsed"] : []) + ["rsa2048"])
        guard let values = numbers(in: output, linePrefix: "rsa 2048 bits"), values.count >= 4 else { return nil }
        return (values[2], values[3])
    }

    /// `openssl speed -seconds S ffdh2048`: "2048 bits ffdh   0.0006s   1639.6".
    static func ffdh2048(openssl: String, seconds: Int, elapsed: Bool) throws -> Double? {
        let output = try run(openssl, ["speed", "-seconds", "\(seconds)"] + (elapsed ? ["-elapsed"] : []) + ["ffdh2048"])
        guard let values = numbers(in: output, linePrefix: "2048 bits ffdh"), values.count >= 2 else { return nil }
        return values[1]
    }

    /// `openssl genpkey` RSA-2048 keys per second: the children's user CPU time (or wall-clock time),
    /// less that of as many `openssl version` runs (process start-up). OpenSSL 3.0's `speed` has no
    /// key-generation test.
    static func keygenPerSecond(openssl: String, count: Int, wallClock: Bool) throws -> Double {
        let clock = ContinuousClock()
        func cost(_ arguments: [String]) throws -> Double {
            let wallStart = clock.now, cpuStart = CPUTime.children()
            for _ in 0..<count { _ = try run(openssl, arguments) }
            return wallClock ? (clock.now - wallStart).benchSeconds : CPUTime.children() - cpuStart
        }
        let startup = try cost(["version"])
        let total = try cost(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
        return Double(count) / max(total - startup, 1e-6)
    }
}
