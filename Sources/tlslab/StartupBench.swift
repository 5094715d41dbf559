import ArgumentParser
import Benchmarks
import Foundation
import Languages

/// `tlslab bench startup`: how long `tlslab` (the default walkthrough) takes to print its first byte
/// into a pipe, and to finish.
struct StartupBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup",
        abstract: CLIWords.text("cli.startupBenchCommand.abstract")
    )

    @Option(help: CLIWords.help("cli.startupBenchCommand.runs"))
    var runs: Int = 10

    /// `--format text|json`: the root command's option, which ArgumentParser hands down by type.
    @OptionGroup(visibility: .hidden) var options: RenderOptions
    var format: BenchFormat { BenchFormat(options.format) }

    @Flag(help: CLIWords.help("cli.startupBenchCommand.noPty"))
    var noPty = false

    /// Every tlslab child the bench starts speaks the parent's language (its `--lang`, else what it
    /// chose): its standard error may reach the reader, and its output is measured as the reader gets it.
    static var childLanguage: [String: String] { ChildProcess.languageEnvironment(CLIWords.language) }

    func validate() throws {
        guard (1...200).contains(runs) else { throw OptionProblem.mustBe(option: "--runs", range: "1…200").validationError }
    }

    func run() throws {
        let binary = ChildProcess.ownExecutable
        var first: [Double] = [], total: [Double] = [], peaks: [Int] = []
        _ = try ChildProcess(binary, [], environment: Self.childLanguage).wait()  // warm the page cache
        for _ in 0..<runs {
            let outcome = try ChildProcess(binary, [], environment: Self.childLanguage).wait()
            guard outcome.exitStatus == 0, let firstByte = outcome.firstByte else {
                throw CLIError.failed(CLIWords.text("cli.bench.startupFailed", ["status": "\(outcome.exitStatus)", "bytes": "\(outcome.stdout.count)"]))
            }
            first.append(firstByte * 1000)
            total.append(outcome.wall * 1000)
            peaks.append(outcome.maxRSSKiB)
        }
        let target = BenchTarget.ours(below: 100)
        var rows = [
            BenchRow(operation: .walkthroughFirstByte, unit: .milliseconds, ours: BenchSummary(first),
                     lowerIsBetter: true, peakMemoryKiB: peaks.max()).judged(by: target),
            BenchRow(operation: .walkthroughToExit, unit: .milliseconds, ours: BenchSummary(total),
                     lowerIsBetter: true),
        ]
        var notes: [BenchNote] = [.startupPipe]
        if !noPty {
            var byte: [Double] = [], screen: [Double] = [], ptyPeaks: [Int] = [], statuses = Set<Int32>()
            for _ in 0..<runs {
                let outcome = try PseudoTerminalLaunch.run(binary, environment: Self.childLanguage)
                byte.append(outcome.firstByte * 1000)
                screen.append(outcome.firstScreen * 1000)
                ptyPeaks.append(outcome.maxRSSKiB)
                statuses.insert(outcome.exitStatus)
            }
            let failed = statuses.contains { $0 != 0 }
            rows.append(BenchRow(operation: .terminalFirstScreen, unit: .milliseconds,
                                 ours: BenchSummary(screen), lowerIsBetter: true, peakMemoryKiB: ptyPeaks.max(),
                                 note: failed ? .terminalExitFailed(statuses: statuses.sorted()) : nil)
                .judged(by: target, failure: failed))
            rows.append(BenchRow(operation: .terminalFirstByte, unit: .milliseconds,
                                 ours: BenchSummary(byte), lowerIsBetter: true))
            notes.append(.startupTerminal)
        }
        let report = BenchReport(
            benchmark: "startup",
            settings: ["runs": "\(runs)", "pty": noPty ? "no" : "yes"],
            rows: rows,
            notes: notes)
        try report.print(format)
    }
}

/// `tlslab bench check`: the wall time of `tlslab check Scenarios/` (when this build has `check`).
struct CheckBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: CLIWords.text("cli.checkBenchCommand.abstract")
    )

    @Option(help: CLIWords.help("cli.checkBenchCommand.scenarios"))
    var scenarios: String = "Scenarios"

    @Option(help: CLIWords.help("cli.checkBenchCommand.runs"))
    var runs: Int = 3

    /// `--format text|json`: the root command's option, which ArgumentParser hands down by type.
    @OptionGroup(visibility: .hidden) var options: RenderOptions
    var format: BenchFormat { BenchFormat(options.format) }

    func validate() throws {
        guard (1...50).contains(runs) else { throw OptionProblem.mustBe(option: "--runs", range: "1…50").validationError }
    }

    /// Whether this build of tlslab has a `check` subcommand.
    static var checkExists: Bool {
        TLSLab.configuration.subcommands.contains { $0.configuration.commandName == "check" }
    }

    func run() throws {
        let operation = BenchOperation.check(scenarios: scenarios, cold: false)
        var isDirectory: ObjCBool = false
        let why: BenchNote? = !Self.checkExists ? .checkUnavailable
            : !FileManager.default.fileExists(atPath: scenarios, isDirectory: &isDirectory) || !isDirectory.boolValue
            ? .noScenarioDirectory(scenarios) : nil
        var rows: [BenchRow] = []
        var notes: [BenchNote] = []
        if let why {
            rows.append(BenchRow(operation: operation, unit: .seconds, ours: nil, lowerIsBetter: true, note: why))
        } else {
            let binary = ChildProcess.ownExecutable
            let cold = try ChildProcess(binary, ["check", scenarios], environment: StartupBenchCommand.childLanguage).wait()
            var warm: [Double] = [], peaks = [cold.maxRSSKiB], statuses = Set([cold.exitStatus])
            for _ in 0..<runs {
                let outcome = try ChildProcess(binary, ["check", scenarios], environment: StartupBenchCommand.childLanguage).wait()
                warm.append(outcome.wall)
                peaks.append(outcome.maxRSSKiB)
                statuses.insert(outcome.exitStatus)
            }
            // A run that did not pass (exit status ≠ 0, or a signal) fails the row whatever its time.
            let failed = statuses.contains { $0 != 0 }
            rows.append(BenchRow(operation: operation, unit: .seconds, ours: BenchSummary(warm), lowerIsBetter: true,
                                 peakMemoryKiB: peaks.max(),
                                 note: failed ? .checkFailed(statuses: statuses.sorted().filter { $0 != 0 }) : nil)
                .judged(by: .ours(below: 3), failure: failed))
            rows.append(BenchRow(operation: .check(scenarios: scenarios, cold: true), unit: .seconds,
                                 ours: BenchSummary([cold.wall]), lowerIsBetter: true))
            notes.append(.checkExitStatus(statuses: statuses.sorted()))
        }
        let report = BenchReport(benchmark: "check", settings: ["runs": "\(runs)", "scenarios": scenarios],
                                 rows: rows, notes: notes)
        try report.print(format)
    }
}

/// `tlslab bench all` (also `tlslab bench` alone): every benchmark, each in a child process so that
/// each has its own peak memory, merged into one table.
struct BenchAllCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all", abstract: CLIWords.text("cli.benchAllCommand.abstract"))

    @Option(help: CLIWords.help("cli.benchAllCommand.runs"))
    var runs: Int = 3

    @Option(help: CLIWords.help("cli.benchAllCommand.seconds"))
    var seconds: Int = 5

    @Option(help: CLIWords.help("cli.benchAllCommand.iterations"))
    var iterations: Int?

    @Option(help: CLIWords.help("cli.benchAllCommand.megabytes"))
    var megabytes: Int = 64

    @Option(parsing: .upToNextOption, help: CLIWords.help("cli.benchAllCommand.connections"))
    var connections: [Int] = [1_000, 10_000, 100_000]

    @Option(parsing: .upToNextOption, help: CLIWords.help("cli.benchAllCommand.only"))
    var only: [String] = ["crypto", "handshake", "tcp", "startup", "check"]

    @Flag(help: CLIWords.help("cli.cryptoBenchCommand.noOpenssl"))
    var noOpenssl = false

    /// `--format text|json`: the root command's option, which ArgumentParser hands down by type.
    @OptionGroup(visibility: .hidden) var options: RenderOptions
    var format: BenchFormat { BenchFormat(options.format) }

    static let known = ["crypto", "handshake", "tcp", "startup", "check"]

    func validate() throws {
        guard (1...20).contains(runs) else { throw OptionProblem.mustBe(option: "--runs", range: "1…20").validationError }
        guard (1...60).contains(seconds) else { throw OptionProblem.mustBe(option: "--seconds", range: "1…60").validationError }
        if let unknown = only.first(where: { !Self.known.contains($0) }) {
            throw OptionProblem.unknownBenchmark(name: unknown, known: Self.known).validationError
        }
    }

    /// The child command line for one benchmark.
    func arguments(for benchmark: String) -> [String] {
        let openssl = noOpenssl ? ["--no-openssl"] : []
        // The child's progress lines (its standard error) in the reader's language.
        let common = ["--lang", CLIWords.language.rawValue, "bench", benchmark, "--format", "json"]
        switch benchmark {
        case "crypto": return common + ["--runs", "\(runs)", "--seconds", "\(min(seconds, 2))", "--keys", "\(iterations == nil ? 8 : 1)"] + openssl
        case "handshake": return common + ["--runs", "\(runs)", "--seconds", "\(seconds)"] + (iterations.map { ["--iterations", "\($0)"] } ?? []) + openssl
        case "tcp": return common + ["--runs", "\(runs)", "--megabytes", "\(megabytes)", "--connections"] + connections.map(String.init)
        case "startup": return common + ["--runs", "\(runs * 10)"]
        default: return common + ["--runs", "\(runs)"]
        }
    }

    func run() throws {
        var merged = BenchReport(benchmark: "all", settings: ["runs": "\(runs)", "seconds": "\(seconds)"], rows: [], notes: [])
        for benchmark in Self.known where only.contains(benchmark) {
            if format == .text { BenchProgress.benchmark(benchmark) }
            let child = try ChildProcess(ChildProcess.ownExecutable, arguments(for: benchmark), inheritStderr: format == .text,
                                         environment: StartupBenchCommand.childLanguage)
            let outcome = child.wait()
            guard outcome.exitStatus == 0, let report = try? BenchReport.decode(outcome.stdoutText) else {
                merged.rows.append(BenchRow(operation: .benchmark(benchmark), unit: .none, ours: nil,
                                            note: .childFailed(exitStatus: outcome.exitStatus)))
                continue
            }
            merged.rows += report.rows.map { row in
                var row = row
                if row.peakMemoryKiB == nil && row.ours != nil && report.rows.first == row { row.peakMemoryKiB = outcome.maxRSSKiB }
                return row
            }
            merged.notes += report.notes.map { .from(benchmark: benchmark, $0) }
            for (key, value) in report.settings { merged.settings["\(benchmark).\(key)"] = value }
        }
        try merged.print(format)
        if merged.rows.contains(where: { row in
            guard case .childFailed? = row.note else { return false }
            return row.ours == nil
        }) {
            throw ExitCode(1)
        }
    }
}
