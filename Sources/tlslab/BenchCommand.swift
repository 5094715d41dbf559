import ArgumentParser
import Foundation
import Benchmarks
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
        let openssl = noOpenssl ? nil : BenchProgress.openssl()
        var samples: [BenchOperation: (ours: [Double], openssl: [Double])] = [:]
        func record(_ name: BenchOperation, ours: Double, openssl: Double?) {
            var entry = samples[name] ?? ([], [])
            entry.ours.append(ours)
            if let openssl { entry.openssl.append(openssl) }
            samples[name] = entry
        }
        for run in 1...runs {
            if format == .text { BenchProgress.run(run, of: runs) }
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
            let row = BenchRow(operation: name, unit: .operationsPerSecond, ours: BenchSummary(entry.ours),
                               openssl: entry.openssl.isEmpty ? nil : BenchSummary(entry.openssl),
                               peakMemoryKiB: ProcMemory.field("VmHWM"))
            return CryptoBench.Row.targets[name].map { row.judged(by: $0) } ?? row
        }
        let report = BenchReport(
            benchmark: "crypto",
            settings: ["seconds": "\(seconds)", "runs": "\(runs)", "keysPerRun": "\(keys)",
                       "timeBase": elapsed ? "wall clock" : "CPU time"],
            rows: rows,
            notes: [.cryptoMethod(runs: runs, seconds: seconds, keys: keys),
                    elapsed ? .ratesPerWallClockSecond : .ratesPerCPUSecond])
        try report.print(format)
    }
}

