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
        abstract: CLIWords.text("cli.benchCommand.abstract"),
        discussion: CLIWords.text("cli.benchCommand.discussion"),
        subcommands: [BenchAllCommand.self, CryptoBenchCommand.self, HandshakeBenchCommand.self, TCPBenchCommand.self,
                      StartupBenchCommand.self, CheckBenchCommand.self, CBCPaddingBenchCommand.self, TCPFloodCommand.self,
                      HandshakeChildCommand.self],
        defaultSubcommand: BenchAllCommand.self
    )
}

/// `tlslab bench crypto`: RSA-2048 private (CRT) and public operations, ffdhe2048 agreement with a
/// 256-bit exponent and RSA-2048 key generation, each beside OpenSSL's figure from the same run.
struct CryptoBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: CLIWords.text("cli.cryptoBenchCommand.abstract")
    )

    @Option(help: CLIWords.help("cli.cryptoBenchCommand.seconds"))
    var seconds: Int = 2

    /// `--format text|json`: the root command's option, which ArgumentParser hands down by type.
    @OptionGroup(visibility: .hidden) var options: RenderOptions
    var format: BenchFormat { BenchFormat(options.format) }

    @Option(help: CLIWords.help("cli.cryptoBenchCommand.runs"))
    var runs: Int = 3

    @Option(help: CLIWords.help("cli.cryptoBenchCommand.keys"))
    var keys: Int = 8

    @Flag(help: CLIWords.help("cli.cryptoBenchCommand.noOpenssl"))
    var noOpenssl = false

    @Flag(help: CLIWords.help("cli.cryptoBenchCommand.elapsed"))
    var elapsed = false

    func validate() throws {
        guard (1...60).contains(seconds) else { throw OptionProblem.mustBe(option: "--seconds", range: "1…60").validationError }
        guard (1...20).contains(runs) else { throw OptionProblem.mustBe(option: "--runs", range: "1…20").validationError }
        guard (1...100).contains(keys) else { throw OptionProblem.mustBe(option: "--keys", range: "1…100").validationError }
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
            let rsaSpeed = try openssl.map { try OpenSSLSpeed.rsa2048(openssl: $0, seconds: seconds, elapsed: elapsed) }
            record(CryptoBench.Row.privateSilent, ours: try bench.privateOpsPerSecond(.sideChannelSilent),
                   openssl: rsaSpeed?.sign)
            record(CryptoBench.Row.privateFast, ours: try bench.privateOpsPerSecond(.variableTime),
                   openssl: rsaSpeed?.sign)
            record(CryptoBench.Row.privateBlinded, ours: try bench.blindedPrivateOpsPerSecond(), openssl: rsaSpeed?.sign)
            record(CryptoBench.Row.publicOp, ours: try bench.publicOpsPerSecond(), openssl: rsaSpeed?.verify)
            let dhSpeed = try openssl.map { try OpenSSLSpeed.ffdh2048(openssl: $0, seconds: seconds, elapsed: elapsed) }
            record(CryptoBench.Row.ffdhe, ours: try bench.agreementsPerSecond(), openssl: dhSpeed)
            let keygen = try openssl.map { try OpenSSLSpeed.keygenPerSecond(openssl: $0, count: keys, wallClock: elapsed) }
            record(CryptoBench.Row.keygen, ours: try bench.keysPerSecond(count: keys, firstSeed: 1), openssl: keygen)
        }
        let rows = CryptoBench.Row.order.compactMap { name -> BenchRow? in
            guard let entry = samples[name] else { return nil }
            let row = BenchRow(operation: name, unit: "ops/s", ours: BenchSummary(entry.ours),
                               openssl: entry.openssl.isEmpty ? nil : BenchSummary(entry.openssl),
                               peakMemoryKiB: ProcMemory.field("VmHWM"))
            return CryptoBench.Row.targets[name].map { row.judged(by: $0) } ?? row
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
        static let privateBlinded = "RSA-2048 private op (CRT, mpz_powm, base blinding)"
        static let publicOp = "RSA-2048 public op (e = 65537, PKCS#1 v1.5 verify)"
        static let ffdhe = "ffdhe2048 agreement (256-bit exponent)"
        static let keygen = "RSA-2048 key generation"
        static let order = [privateSilent, privateFast, privateBlinded, publicOp, ffdhe, keygen]
        /// The crypto issue's targets: public op and DH ≥ 0.9×, private op ≥ 0.5× of `openssl speed`.
        static let targets: [String: BenchTarget] = [
            privateSilent: .ratio(atLeast: 0.5), privateFast: .ratio(atLeast: 0.5), privateBlinded: .ratio(atLeast: 0.5),
            publicOp: .ratio(atLeast: 0.9), ffdhe: .ratio(atLeast: 0.9),
        ]
    }

    let seconds: Double
    let wallClock: Bool
    let key: RSAPrivateKey
    let clock = ContinuousClock()

    init(seconds: Double, wallClock: Bool) throws {
        self.seconds = seconds
        self.wallClock = wallClock
        key = try RSAPrivateKey.generate(bits: 2048, using: BenchRandom(seed: 2048))
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

    /// The private operation with base blinding (``RSABlinding``, its pair from a seeded source) over
    /// variable-time `mpz_powm`.
    func blindedPrivateOpsPerSecond() throws -> Double {
        let source = BenchRandom(seed: 7)
        let inputs = try (0..<16).map { _ in try BigInt.random(below: key.publicKey.modulus, using: source) }
        let blinding = try RSABlinding(for: key.publicKey, using: BenchRandom(seed: 10))
        var index = 0
        return try rate {
            _ = try key.privateOperation(inputs[index & 15], blinding: blinding)
            index += 1
        }
    }

    /// The public operation as TLS uses it: `RSAPublicKey.verifyPKCS1v15` of a SHA-256 signature
    /// (what `openssl speed` times as "verify": RSA_verify of a digest, padding check included).
    func publicOpsPerSecond() throws -> Double {
        let message = Array("tlslab bench".utf8)
        let signature = try key.signPKCS1v15(message: message, hash: .sha256)
        let publicKey = key.publicKey
        guard publicKey.verifyPKCS1v15(signature: signature, message: message, hash: .sha256) else {
            throw CLIError.failed("the benchmark key does not verify its own signature")
        }
        var failures = 0
        let measured = rate {
            if !publicKey.verifyPKCS1v15(signature: signature, message: message, hash: .sha256) { failures += 1 }
        }
        guard failures == 0 else { throw CLIError.failed("\(failures) verifications failed during the benchmark") }
        return measured
    }

    /// One ffdhe2048 agreement as the DHE key exchange computes it: `DHKeyPair.sharedSecret` (peer value
    /// validation and y^x mod p) with the short exponent of ``DHGroup/ffdhe2048`` (256 bits), on key pairs
    /// made beforehand — as `openssl speed ffdh2048` times only the derivation.
    func agreementsPerSecond() throws -> Double {
        let source = BenchRandom(seed: 9)
        let pairs = try (0..<16).map { _ in try DHKeyPair(group: .ffdhe2048, exponentSize: .short, using: source) }
        var index = 0
        return try rate {
            _ = try pairs[index & 15].sharedSecret(peerPublicValue: pairs[(index + 5) & 15].publicValue)
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
