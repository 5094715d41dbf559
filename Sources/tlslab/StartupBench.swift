import ArgumentParser
import Benchmarks
import Foundation

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

    func validate() throws {
        guard (1...200).contains(runs) else { throw OptionProblem.mustBe(option: "--runs", range: "1…200").validationError }
    }

    func run() throws {
        let binary = ChildProcess.ownExecutable
        var first: [Double] = [], total: [Double] = [], peaks: [Int] = []
        _ = try ChildProcess(binary, []).wait()  // warm the page cache
        for _ in 0..<runs {
            let outcome = try ChildProcess(binary, []).wait()
            guard outcome.exitStatus == 0, let firstByte = outcome.firstByte else {
                throw CLIError.failed("`tlslab` exited with status \(outcome.exitStatus) and \(outcome.stdout.count) bytes of output")
            }
            first.append(firstByte * 1000)
            total.append(outcome.wall * 1000)
            peaks.append(outcome.maxRSSKiB)
        }
        let target = BenchTarget.ours(below: 100, "< 100 ms")
        var rows = [
            BenchRow(operation: "tlslab (default walkthrough): first output byte", unit: "ms", ours: BenchSummary(first),
                     lowerIsBetter: true, peakMemoryKiB: peaks.max()).judged(by: target),
            BenchRow(operation: "tlslab (default walkthrough): whole run to exit", unit: "ms", ours: BenchSummary(total),
                     lowerIsBetter: true),
        ]
        var notes = ["Startup (pipe): the built binary spawned with standard output into a pipe (not a terminal), timed "
                     + "from posix_spawn to the first byte read; peak RSS from wait4's ru_maxrss."]
        if !noPty {
            var byte: [Double] = [], screen: [Double] = [], ptyPeaks: [Int] = [], statuses = Set<Int32>()
            for _ in 0..<runs {
                let outcome = try PseudoTerminalLaunch.run(binary)
                byte.append(outcome.firstByte * 1000)
                screen.append(outcome.firstScreen * 1000)
                ptyPeaks.append(outcome.maxRSSKiB)
                statuses.insert(outcome.exitStatus)
            }
            let failed = statuses.contains { $0 != 0 }
            rows.append(BenchRow(operation: "tlslab on a terminal (interactive walkthrough): first screen", unit: "ms",
                                 ours: BenchSummary(screen), lowerIsBetter: true, peakMemoryKiB: ptyPeaks.max(),
                                 note: failed ? "FAILED: exit status \(statuses.sorted().map(String.init).joined(separator: ", ")) after q" : nil)
                .judged(by: target, failure: failed))
            rows.append(BenchRow(operation: "tlslab on a terminal (interactive walkthrough): first output byte", unit: "ms",
                                 ours: BenchSummary(byte), lowerIsBetter: true))
            notes.append("Startup (terminal): the binary on a pseudo-terminal (posix_openpt, 100×30) as stdin and stdout, "
                         + "timed from posix_spawn to the end of the walkthrough's first screen (its closing ESC [ J); "
                         + "then `q` is sent and the exit status must be 0.")
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
        let operation = "tlslab check \(scenarios)/ (warm)"
        var isDirectory: ObjCBool = false
        let why: String? = !Self.checkExists ? "not available: this build has no `check` command"
            : !FileManager.default.fileExists(atPath: scenarios, isDirectory: &isDirectory) || !isDirectory.boolValue
            ? "not available: no directory \(scenarios)" : nil
        var rows: [BenchRow] = []
        var notes: [String] = []
        if let why {
            rows.append(BenchRow(operation: operation, unit: "s", ours: nil, lowerIsBetter: true, note: why))
        } else {
            let binary = ChildProcess.ownExecutable
            let cold = try ChildProcess(binary, ["check", scenarios]).wait()
            var warm: [Double] = [], peaks = [cold.maxRSSKiB], statuses = Set([cold.exitStatus])
            for _ in 0..<runs {
                let outcome = try ChildProcess(binary, ["check", scenarios]).wait()
                warm.append(outcome.wall)
                peaks.append(outcome.maxRSSKiB)
                statuses.insert(outcome.exitStatus)
            }
            // A run that did not pass (exit status ≠ 0, or a signal) fails the row whatever its time.
            let failed = statuses.contains { $0 != 0 }
            rows.append(BenchRow(operation: operation, unit: "s", ours: BenchSummary(warm), lowerIsBetter: true,
                                 peakMemoryKiB: peaks.max(),
                                 note: failed ? "FAILED: `tlslab check` exited with status \(statuses.sorted().filter { $0 != 0 }.map(String.init).joined(separator: ", "))" : nil)
                .judged(by: .ours(below: 3, "< 3 s"), failure: failed))
            rows.append(BenchRow(operation: "tlslab check \(scenarios)/ (cold, first run)", unit: "s",
                                 ours: BenchSummary([cold.wall]), lowerIsBetter: true))
            notes.append("`tlslab check` exit status: \(statuses.sorted().map(String.init).joined(separator: ", ")) (0: every scenario met its expectations).")
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
        let common = ["bench", benchmark, "--format", "json"]
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
            if format == .text { FileHandle.standardError.write(Data("bench \(benchmark)…\n".utf8)) }
            let child = try ChildProcess(ChildProcess.ownExecutable, arguments(for: benchmark), inheritStderr: format == .text)
            let outcome = child.wait()
            guard outcome.exitStatus == 0, let report = try? BenchReport.decode(outcome.stdoutText) else {
                merged.rows.append(BenchRow(operation: "bench \(benchmark)", unit: "", ours: nil,
                                            note: "failed (exit status \(outcome.exitStatus))"))
                continue
            }
            merged.rows += report.rows.map { row in
                var row = row
                if row.peakMemoryKiB == nil && row.ours != nil && report.rows.first == row { row.peakMemoryKiB = outcome.maxRSSKiB }
                return row
            }
            merged.notes += report.notes.map { "\(benchmark): \($0)" }
            for (key, value) in report.settings { merged.settings["\(benchmark).\(key)"] = value }
        }
        try merged.print(format)
        if merged.rows.contains(where: { $0.ours == nil && ($0.note ?? "").hasPrefix("failed") }) {
            throw ExitCode(1)
        }
    }
}
