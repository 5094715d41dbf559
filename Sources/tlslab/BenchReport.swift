import Benchmarks
import Foundation
import Rendering

/// How a benchmark prints its report: `--format text|json`. The root command declares `--format`
/// (its option group `RenderOptions`) and consumes it wherever it appears on the command line;
/// ArgumentParser hands a parent's option group to a subcommand that declares the same type, so the
/// bench commands read it from there.
enum BenchFormat: String, CaseIterable {
    case text, json

    init(_ format: RenderOptions.Format) {
        self = format == .json ? .json : .text
    }
}

extension BenchReport {
    /// Prints the report as the command line asked: a table in the reader's language, or JSON
    /// (typed identifiers, with their English words beside them).
    func print(_ format: BenchFormat) throws {
        switch format {
        case .json: Swift.print(try json(wording: BenchWords(Explanations.english).wording))
        case .text: Swift.print(table(CLIWords.explanations))
        }
    }

    /// The table: operation, unit, ours, OpenSSL, ratio, peak memory, target, result; then the notes.
    /// Every word is the catalogue's (`cli.bench.*`), in `explanations`' language; PASS and FAIL
    /// stay as they are.
    func table(_ explanations: Explanations) -> String {
        let words = BenchWords(explanations)
        let say = words.say
        let header = [say("cli.bench.column.operation", [:]), say("cli.bench.column.unit", [:]), say("cli.bench.column.ours", [:]),
                      "OpenSSL", say("cli.bench.column.ratio", [:]), say("cli.bench.column.peakMemory", [:]),
                      say("cli.bench.column.target", [:]), say("cli.bench.column.result", [:])]
        let body = rows.map { row -> [String] in
            let peak = row.peakMemoryKiB == nil && row.opensslPeakMemoryKiB == nil ? "—"
                : "\(Self.memory(row.peakMemoryKiB)) / \(Self.memory(row.opensslPeakMemoryKiB))"
            let result = row.pass.map { $0 ? "PASS" : "FAIL" } ?? (row.target == nil ? "" : "—")
            return [words.operation(row.operation), words.unit(row.unit),
                    row.ours == nil ? (row.note.map(words.note) ?? say("cli.bench.notAvailable", [:])) : Self.cell(row.ours),
                    Self.cell(row.openssl), Self.ratioCell(row), peak, row.target.map { words.target($0, row.unit) } ?? "", result]
        }
        // Widths in terminal columns (a Chinese character takes two).
        let widths = header.indices.map { column in ([header] + body).map { DisplayWidth.columns($0[column]) }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.columns(cell)))
                return index <= 1 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var lines = [line(header), String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))]
        lines += body.map(line)
        let rowNotes = rows.compactMap { row in
            row.ours != nil ? row.note.map { say("cli.bench.rowNote", ["operation": words.operation(row.operation), "note": words.note($0)]) } : nil
        }
        if !notes.isEmpty || !rowNotes.isEmpty { lines.append("") }
        lines += notes.map { "- \(words.note($0))" } + rowNotes.map { "- \($0)" }
        lines.append(say("cli.bench.ratioNote", [:]))
        return lines.joined(separator: "\n")
    }
}

/// The progress lines a benchmark writes to standard error while it runs, in the reader's language.
enum BenchProgress {
    static func run(_ run: Int, of runs: Int) {
        FileHandle.standardError.write(Data((CLIWords.text("cli.bench.progress.run", ["run": "\(run)", "runs": "\(runs)"]) + "\n").utf8))
    }

    /// The `openssl` on the PATH; without one, says that the OpenSSL columns stay empty.
    static func openssl() -> String? {
        guard let path = OpenSSLSpeed.locate() else {
            FileHandle.standardError.write(Data((CLIWords.text("cli.bench.progress.noOpenSSL") + "\n").utf8))
            return nil
        }
        return path
    }

    static func benchmark(_ name: String) {
        FileHandle.standardError.write(Data((CLIWords.text("cli.bench.progress.benchmark", ["name": name]) + "\n").utf8))
    }
}

/// A benchmark report's typed parts worded by the catalogue (`cli.bench.operation.*`, `.unit.*`,
/// `.target.*`, `.note.*`): the Benchmarks module measures, this words.
struct BenchWords: Sendable {
    let explanations: Explanations

    init(_ explanations: Explanations) { self.explanations = explanations }

    var wording: BenchWording {
        let words = self
        return BenchWording(operation: { words.operation($0) }, note: { words.note($0) }, target: { words.target($0, $1) })
    }

    func say(_ key: String, _ values: [String: String]) -> String {
        explanations(key, values) ?? Explanations.english(key, values) ?? key
    }

    /// A whole number as the table prints it ("100,000").
    static func count(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        let grouped = digits.enumerated().map { i, d in (i > 0 && (digits.count - i) % 3 == 0 ? "," : "") + String(d) }.joined()
        return (n < 0 ? "-" : "") + grouped
    }

    /// Exit statuses, listed.
    func statuses(_ list: [Int32]) -> String { list.map(String.init).joined(separator: say("list.separator", [:])) }

    func operation(_ operation: BenchOperation) -> String {
        switch operation {
        case .rsaPrivate(.sideChannelSilent): return say("cli.bench.operation.rsaPrivate.sideChannelSilent", [:])
        case .rsaPrivate(.variableTime): return say("cli.bench.operation.rsaPrivate.variableTime", [:])
        case .rsaPrivate(.blinded): return say("cli.bench.operation.rsaPrivate.blinded", [:])
        case .rsaPublic: return say("cli.bench.operation.rsaPublic", [:])
        case .ffdheAgreement: return say("cli.bench.operation.ffdheAgreement", [:])
        case .rsaKeyGeneration: return say("cli.bench.operation.rsaKeyGeneration", [:])
        case let .fullHandshake(variant, base):
            let time = switch base {
            case .wallClock: say("cli.bench.timeBase.wallClock", [:])
            case .cpuBothEnds: say("cli.bench.timeBase.cpuBothEnds", [:])
            }
            return say("cli.bench.operation.fullHandshake", ["variant": self.variant(variant), "time": time])
        case .tcpBulkTransfer(let recorded):
            return say(recorded ? "cli.bench.operation.tcpBulk.recorded" : "cli.bench.operation.tcpBulk.notRecorded", [:])
        case .synFlood(let n): return say("cli.bench.operation.synFlood", ["connections": Self.count(n)])
        case let .synFloodMemoryLinearity(largest, smallest):
            return say("cli.bench.operation.synFloodLinearity", ["largest": Self.count(largest), "smallest": Self.count(smallest)])
        case .walkthroughFirstByte: return say("cli.bench.operation.walkthroughFirstByte", [:])
        case .walkthroughToExit: return say("cli.bench.operation.walkthroughToExit", [:])
        case .terminalFirstScreen: return say("cli.bench.operation.terminalFirstScreen", [:])
        case .terminalFirstByte: return say("cli.bench.operation.terminalFirstByte", [:])
        case let .check(scenarios, cold):
            return say(cold ? "cli.bench.operation.check.cold" : "cli.bench.operation.check.warm", ["scenarios": scenarios])
        case .benchmark(let name): return say("cli.bench.operation.benchmark", ["name": name])
        }
    }

    func variant(_ variant: HandshakeVariant) -> String {
        let kind = switch variant.kind {
        case .rsa: say("cli.bench.kx.rsa", [:])
        case .dhe: say("cli.bench.kx.dhe", [:])
        case .ecdhe: say("cli.bench.kx.ecdhe", [:])
        }
        guard variant.kind == .dhe, let exponent = variant.dhExponent else { return kind }
        let size = switch exponent {
        case .short: say("cli.bench.dhExponent.short", [:])
        case .full: say("cli.bench.dhExponent.full", [:])
        }
        return say("cli.bench.kx.withExponent", ["kx": kind, "exponent": size])
    }

    func unit(_ unit: BenchUnit) -> String {
        switch unit {
        case .operationsPerSecond: return say("cli.bench.unit.operationsPerSecond", [:])
        case .handshakesPerSecond: return say("cli.bench.unit.handshakesPerSecond", [:])
        case .segmentsPerSecond: return say("cli.bench.unit.segmentsPerSecond", [:])
        case .milliseconds: return say("cli.bench.unit.milliseconds", [:])
        case .seconds: return say("cli.bench.unit.seconds", [:])
        case .times: return "×"
        case .none: return ""
        }
    }

    /// "ratio ≥ 0.90×", "≥ 1,000,000/s", "< 100 ms", "< 1.25× (linear)", "peak < 1 GiB".
    func target(_ target: BenchTarget, _ unit: BenchUnit) -> String {
        func plain(_ v: Double) -> String { v == v.rounded() ? Self.count(Int(v)) : String(format: "%.2f", v) }
        switch target.measure {
        case .ratio:
            return say("cli.bench.target.ratioAtLeast", ["value": String(format: "%.2f", target.atLeast ?? target.below ?? 0)])
        case .peakMemoryKiB:
            return say("cli.bench.target.peakBelow", ["value": plain((target.below ?? 0) / 1_048_576)])
        case .ours:
            if let atLeast = target.atLeast { return say("cli.bench.target.rateAtLeast", ["value": plain(atLeast)]) }
            let value = plain(target.below ?? 0)
            switch unit {
            case .milliseconds: return say("cli.bench.target.millisecondsBelow", ["value": value])
            case .seconds: return say("cli.bench.target.secondsBelow", ["value": value])
            case .times: return say("cli.bench.target.linearBelow", ["value": value])
            default: return "< \(value)"
            }
        }
    }

    func note(_ note: BenchNote) -> String {
        switch note {
        case let .cryptoMethod(runs, seconds, keys):
            return say("cli.bench.note.cryptoMethod", ["runs": "\(runs)", "seconds": "\(seconds)", "keys": "\(keys)"])
        case .ratesPerWallClockSecond: return say("cli.bench.note.ratesPerWallClockSecond", [:])
        case .ratesPerCPUSecond: return say("cli.bench.note.ratesPerCPUSecond", [:])
        case .handshakeOurs: return say("cli.bench.note.handshakeOurs", [:])
        case .handshakeOpenSSL: return say("cli.bench.note.handshakeOpenSSL", [:])
        case .handshakeDHEExponents: return say("cli.bench.note.handshakeDHEExponents", [:])
        case .handshakeCPUTime: return say("cli.bench.note.handshakeCPUTime", [:])
        case let .bulkTransfer(megabytes, deliveries, timers):
            return say("cli.bench.note.bulkTransfer", ["megabytes": "\(megabytes)", "deliveries": "\(deliveries)", "timers": "\(timers)"])
        case .synFloodMethod: return say("cli.bench.note.synFloodMethod", [:])
        case let .timeLinearity(largest, ratio, smallest):
            return say("cli.bench.note.timeLinearity", ["largest": Self.count(largest), "ratio": String(format: "%.2f", ratio),
                                                        "smallest": Self.count(smallest)])
        case .asTheSimulationRunsIt: return say("cli.bench.note.asTheSimulationRunsIt", [:])
        case let .perConnection(ns, bytes):
            return say("cli.bench.note.perConnection", ["ns": String(format: "%.0f", ns), "bytes": String(format: "%.0f", bytes)])
        case .noMemoryGrowth(let n): return say("cli.bench.note.noMemoryGrowth", ["connections": Self.count(n)])
        case .startupPipe: return say("cli.bench.note.startupPipe", [:])
        case .startupTerminal: return say("cli.bench.note.startupTerminal", [:])
        case .terminalExitFailed(let list): return say("cli.bench.note.terminalExitFailed", ["statuses": statuses(list)])
        case .checkExitStatus(let list): return say("cli.bench.note.checkExitStatus", ["statuses": statuses(list)])
        case .checkFailed(let list): return say("cli.bench.note.checkFailed", ["statuses": statuses(list)])
        case .checkUnavailable: return say("cli.bench.note.checkUnavailable", [:])
        case .noScenarioDirectory(let path): return say("cli.bench.note.noScenarioDirectory", ["path": path])
        case .childFailed(let status): return say("cli.bench.note.childFailed", ["status": "\(status)"])
        case let .from(benchmark, inner): return say("cli.bench.note.from", ["benchmark": benchmark, "note": self.note(inner)])
        }
    }
}
