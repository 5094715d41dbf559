import ArgumentParser
import Benchmarks
import Foundation

extension HandshakeKind: ExpressibleByArgument {}
extension DHExponentSetting: ExpressibleByArgument {}

/// `tlslab bench handshake`: complete simulated connections per second — both TLS endpoints, the
/// TCP simulator between them and the record layer in one process — beside `openssl s_time -new`
/// against `openssl s_server` on loopback with the same suite.
struct HandshakeBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handshake",
        abstract: CLIWords.text("cli.handshakeBenchCommand.abstract")
    )

    @Option(help: CLIWords.help("cli.handshakeBenchCommand.seconds"))
    var seconds: Int = 5

    @Option(help: CLIWords.help("cli.cryptoBenchCommand.runs"))
    var runs: Int = 3

    @Option(name: .customLong("kx"), help: CLIWords.help("cli.handshakeBenchCommand.kinds"))
    var kinds: [HandshakeKind] = []

    @Option(help: CLIWords.help("cli.handshakeBenchCommand.iterations"))
    var iterations: Int?

    @Option(name: .customLong("dh-exponent"),
            help: CLIWords.help("cli.handshakeBenchCommand.dhExponents"))
    var dhExponents: [DHExponentSetting] = []

    @Flag(help: CLIWords.help("cli.cryptoBenchCommand.noOpenssl"))
    var noOpenssl = false

    /// `--format text|json`: the root command's option, which ArgumentParser hands down by type.
    @OptionGroup(visibility: .hidden) var options: RenderOptions
    var format: BenchFormat { BenchFormat(options.format) }

    func validate() throws {
        guard (1...60).contains(seconds) else { throw OptionProblem.mustBe(option: "--seconds", range: "1…60").validationError }
        guard (1...20).contains(runs) else { throw OptionProblem.mustBe(option: "--runs", range: "1…20").validationError }
        if let iterations, !(1...1_000_000).contains(iterations) { throw OptionProblem.mustBe(option: "--iterations", range: "1…1000000").validationError }
    }

    /// The rows: each key exchange once, DHE once per exponent size.
    var variants: [HandshakeVariant] {
        let kinds = self.kinds.isEmpty ? HandshakeKind.allCases : self.kinds
        let exponents = dhExponents.isEmpty ? DHExponentSetting.allCases : dhExponents
        return kinds.flatMap { kind in
            kind == .dhe ? exponents.map { HandshakeVariant(kind: kind, dhExponent: $0) } : [HandshakeVariant(kind: kind)]
        }
    }

    func run() throws {
        let variants = self.variants
        let kinds = variants.map(\.kind).reduce(into: [HandshakeKind]()) { if !$0.contains($1) { $0.append($1) } }
        let openssl = noOpenssl ? nil : BenchProgress.openssl()
        let server = try openssl.map { try OpenSSLLoopback(openssl: $0) }
        defer { server?.removeFiles() }
        var ours: [HandshakeVariant: [HandshakeBench.Measurement]] = [:]
        var theirs: [HandshakeKind: [OpenSSLLoopback.Measurement]] = [:]
        for run in 1...runs {
            if format == .text { BenchProgress.run(run, of: runs) }
            for kind in kinds {
                // Ours and OpenSSL alternate so that both see the same machine load. Each of our rows runs
                // in its own child process, so that its peak memory is its own.
                for variant in variants where variant.kind == kind {
                    ours[variant, default: []].append(try HandshakeBench.Measurement.inChild(variant, seconds: seconds, iterations: iterations, language: CLIWords.language))
                }
                if let server { theirs[kind, default: []].append(try server.measure(kind, seconds: seconds)) }
            }
        }
        var rows: [BenchRow] = []
        for variant in variants {
            let mine = ours[variant] ?? [], other = theirs[variant.kind]
            // The target applies where both do the same work: short exponents on both ends, each
            // peer value fully validated. Full-size exponents are ours alone (shown, not judged).
            let comparable = variant.dhExponent != .full
            let target = BenchTarget.ratio(atLeast: 1.0)
            let wall = BenchRow(operation: .fullHandshake(variant, .wallClock), unit: .handshakesPerSecond,
                                ours: BenchSummary(mine.map(\.wallRate)), openssl: other.map { BenchSummary($0.map(\.wallRate)) },
                                peakMemoryKiB: mine.compactMap(\.peakKiB).max(), opensslPeakMemoryKiB: other?.compactMap(\.peakKiB).max())
            let cpu = BenchRow(operation: .fullHandshake(variant, .cpuBothEnds), unit: .handshakesPerSecond,
                               ours: BenchSummary(mine.map(\.cpuRate)), openssl: other.map { BenchSummary($0.map(\.cpuRate)) })
            rows.append(comparable ? wall.judged(by: target) : wall)
            rows.append(comparable ? cpu.judged(by: target) : cpu)
        }
        let report = BenchReport(
            benchmark: "handshake",
            settings: ["seconds": "\(seconds)", "runs": "\(runs)", "iterations": iterations.map(String.init) ?? "time-bound",
                       "kx": kinds.map(\.rawValue).joined(separator: ","),
                       "dhExponent": variants.compactMap(\.dhExponent).map(\.rawValue).joined(separator: ",")],
            rows: rows,
            notes: [.handshakeOurs, .handshakeOpenSSL, .handshakeDHEExponents, .handshakeCPUTime])
        try report.print(format)
    }
}

/// `tlslab bench handshake-child --kx K [--dh-exponent E]`: one measurement of our handshakes in this
/// process, printed as JSON with this process's peak memory (the child of `bench handshake`).
struct HandshakeChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handshake-child", abstract: CLIWords.text("cli.handshakeChildCommand.abstract"), shouldDisplay: false)

    @Option(name: .customLong("kx")) var kind: HandshakeKind = .ecdhe
    @Option(name: .customLong("dh-exponent")) var dhExponent: DHExponentSetting?
    @Option var seconds: Int = 5
    @Option var iterations: Int?

    func validate() throws {
        guard (1...60).contains(seconds) else { throw OptionProblem.mustBe(option: "--seconds", range: "1…60").validationError }
        if let iterations, !(1...1_000_000).contains(iterations) { throw OptionProblem.mustBe(option: "--iterations", range: "1…1000000").validationError }
    }

    func run() throws {
        var measurement = try HandshakeBench(variant: HandshakeVariant(kind: kind, dhExponent: kind == .dhe ? (dhExponent ?? .short) : nil))
            .measure(seconds: Double(seconds), iterations: iterations)
        measurement.peakKiB = ProcMemory.field("VmHWM")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(measurement), as: UTF8.self))
    }
}

