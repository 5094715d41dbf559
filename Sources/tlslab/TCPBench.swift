import ArgumentParser
import Foundation
import Benchmarks
import TCPSim

/// `tlslab bench tcp`: the TCP simulator's throughput in segments per second, and time and memory
/// for SYN floods of growing size (each size in its own child process, so each peak is its own).
struct TCPBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tcp",
        abstract: CLIWords.text("cli.tCPBenchCommand.abstract")
    )

    @Option(help: CLIWords.help("cli.tCPBenchCommand.megabytes"))
    var megabytes: Int = 64

    @Option(help: CLIWords.help("cli.cryptoBenchCommand.runs"))
    var runs: Int = 3

    @Option(parsing: .upToNextOption, help: CLIWords.help("cli.tCPBenchCommand.connections"))
    var connections: [Int] = [1_000, 10_000, 100_000]

    /// `--format text|json`: the root command's option, which ArgumentParser hands down by type.
    @OptionGroup(visibility: .hidden) var options: RenderOptions
    var format: BenchFormat { BenchFormat(options.format) }

    func validate() throws {
        guard (1...4096).contains(megabytes) else { throw OptionProblem.mustBe(option: "--megabytes", range: "1…4096").validationError }
        guard (1...20).contains(runs) else { throw OptionProblem.mustBe(option: "--runs", range: "1…20").validationError }
        guard connections.allSatisfy({ (1...1_000_000).contains($0) }) else {
            throw OptionProblem.takesSizes(option: "--connections", range: "1…1000000").validationError
        }
    }

    func run() throws {
        let bytes = megabytes * 1_048_576
        let calibration = try TCPBulkTransfer(bytes: bytes, recordsEvents: true).run()
        var quiet: [Double] = [], recorded: [Double] = []
        var floods: [Int: [TCPFloodResult]] = [:]
        for run in 1...runs {
            if format == .text { BenchProgress.run(run, of: runs) }
            quiet.append(try TCPBulkTransfer(bytes: bytes, recordsEvents: false).run().segmentsPerSecond(calibration.segments))
            recorded.append(try TCPBulkTransfer(bytes: bytes, recordsEvents: true).run().segmentsPerSecond(calibration.segments))
            for size in connections {
                floods[size, default: []].append(try TCPFloodResult.inChild(connections: size, language: CLIWords.language))
            }
        }
        let peak = ProcMemory.field("VmHWM")
        var rows = [
            BenchRow(operation: .tcpBulkTransfer(eventsRecorded: false), unit: .segmentsPerSecond,
                     ours: BenchSummary(quiet), peakMemoryKiB: peak)
                .judged(by: .ours(atLeast: 1_000_000)),
            BenchRow(operation: .tcpBulkTransfer(eventsRecorded: true), unit: .segmentsPerSecond,
                     ours: BenchSummary(recorded), note: .asTheSimulationRunsIt),
        ]
        var perConnection: [(Int, Double)] = []
        for size in connections {
            let results = floods[size] ?? []
            let ns = BenchSummary(results.map { $0.seconds * 1e9 / Double(size) }).median
            let bytesEach = BenchSummary(results.map { Double($0.growthKiB * 1024) / Double(size) }).median
            perConnection.append((size, ns))
            let row = BenchRow(operation: .synFlood(connections: size), unit: .milliseconds,
                               ours: BenchSummary(results.map { $0.seconds * 1000 }), lowerIsBetter: true,
                               peakMemoryKiB: results.map(\.peakKiB).max(),
                               note: .perConnection(nanoseconds: ns, bytes: bytesEach))
            // The goal: 100,000 half-open connections fit under 1 GiB.
            rows.append(size >= 100_000 ? row.judged(by: .peakMemory(belowKiB: 1_048_576)) : row)
        }
        // Linearity of memory: bytes per connection at the largest size ÷ at the smallest, per run.
        if let smallest = connections.min(), let largest = connections.max(), smallest != largest {
            let small = floods[smallest] ?? [], large = floods[largest] ?? []
            let ratios = zip(small, large).compactMap { s, l -> Double? in
                guard s.growthKiB > 0 else { return nil }
                return (Double(l.growthKiB) / Double(largest)) / (Double(s.growthKiB) / Double(smallest))
            }
            let operation = BenchOperation.synFloodMemoryLinearity(largest: largest, smallest: smallest)
            if ratios.isEmpty {
                rows.append(BenchRow(operation: operation, unit: .times, ours: nil, lowerIsBetter: true,
                                     note: .noMemoryGrowth(connections: smallest)))
            } else {
                rows.append(BenchRow(operation: operation, unit: .times, ours: BenchSummary(ratios), lowerIsBetter: true)
                    .judged(by: .ours(below: 1.25)))
            }
        }
        var notes: [BenchNote] = [
            .bulkTransfer(megabytes: megabytes, deliveries: calibration.segments, timerFirings: calibration.steps - calibration.segments),
            .synFloodMethod,
        ]
        if let first = perConnection.first, let last = perConnection.last, first.0 != last.0, first.1 > 0 {
            notes.append(.timeLinearity(largest: last.0, ratio: last.1 / first.1, smallest: first.0))
        }
        let report = BenchReport(
            benchmark: "tcp",
            settings: ["megabytes": "\(megabytes)", "runs": "\(runs)", "connections": connections.map(String.init).joined(separator: ",")],
            rows: rows, notes: notes)
        try report.print(format)
    }
}

/// `tlslab bench tcp-flood --connections N`: one SYN flood, its result as JSON (the child of `bench tcp`).
struct TCPFloodCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tcp-flood", abstract: CLIWords.text("cli.tCPFloodCommand.abstract"), shouldDisplay: false)

    @Option(help: CLIWords.help("cli.tCPFloodCommand.connections"))
    var connections: Int = 10_000

    func validate() throws {
        guard (1...1_000_000).contains(connections) else { throw OptionProblem.mustBe(option: "--connections", range: "1…1000000").validationError }
    }

    func run() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(try TCPFloodResult.flood(connections: connections)), as: UTF8.self))
    }
}
