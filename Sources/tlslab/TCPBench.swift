import ArgumentParser
import Foundation
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
            if format == .text { FileHandle.standardError.write(Data("run \(run)/\(runs)…\n".utf8)) }
            quiet.append(try TCPBulkTransfer(bytes: bytes, recordsEvents: false).run().segmentsPerSecond(calibration.segments))
            recorded.append(try TCPBulkTransfer(bytes: bytes, recordsEvents: true).run().segmentsPerSecond(calibration.segments))
            for size in connections {
                floods[size, default: []].append(try TCPFloodResult.inChild(connections: size))
            }
        }
        let peak = ProcMemory.field("VmHWM")
        var rows = [
            BenchRow(operation: "TCP bulk transfer, segments processed (events not recorded)", unit: "segments/s",
                     ours: BenchSummary(quiet), peakMemoryKiB: peak)
                .judged(by: .ours(atLeast: 1_000_000, "≥ 1,000,000/s")),
            BenchRow(operation: "TCP bulk transfer, segments processed (events recorded)", unit: "segments/s",
                     ours: BenchSummary(recorded), note: "as the Simulation layer runs it"),
        ]
        var perConnection: [(Int, Double)] = []
        for size in connections {
            let results = floods[size] ?? []
            let ns = BenchSummary(results.map { $0.seconds * 1e9 / Double(size) }).median
            let bytesEach = BenchSummary(results.map { Double($0.growthKiB * 1024) / Double(size) }).median
            perConnection.append((size, ns))
            let row = BenchRow(operation: "SYN flood, \(size.formatted()) half-open connections", unit: "ms",
                               ours: BenchSummary(results.map { $0.seconds * 1000 }), lowerIsBetter: true,
                               peakMemoryKiB: results.map(\.peakKiB).max(),
                               note: String(format: "%.0f ns and %.0f B per connection", ns, bytesEach))
            // The goal: 100,000 half-open connections fit under 1 GiB.
            rows.append(size >= 100_000 ? row.judged(by: .peakMemory(belowKiB: 1_048_576, "peak < 1 GiB")) : row)
        }
        // Linearity of memory: bytes per connection at the largest size ÷ at the smallest, per run.
        if let smallest = connections.min(), let largest = connections.max(), smallest != largest {
            let small = floods[smallest] ?? [], large = floods[largest] ?? []
            let ratios = zip(small, large).compactMap { s, l -> Double? in
                guard s.growthKiB > 0 else { return nil }
                return (Double(l.growthKiB) / Double(largest)) / (Double(s.growthKiB) / Double(smallest))
            }
            let operation = "SYN flood memory linearity: bytes per connection at \(largest.formatted()) ÷ at \(smallest.formatted())"
            if ratios.isEmpty {
                rows.append(BenchRow(operation: operation, unit: "×", ours: nil, lowerIsBetter: true,
                                     note: "not available: no measurable memory growth at \(smallest.formatted()) connections"))
            } else {
                rows.append(BenchRow(operation: operation, unit: "×", ours: BenchSummary(ratios), lowerIsBetter: true)
                    .judged(by: .ours(below: 1.25, "< 1.25× (linear)")))
            }
        }
        var notes = [
            "Bulk transfer: \(megabytes) MiB from client to server over a 1 ms link (MSS 1460, 64 KiB window), the "
                + "receiver reading every eighth step; \(calibration.segments) segment deliveries and \(calibration.steps - calibration.segments) "
                + "timer firings, counted in a run that records events (the run is deterministic).",
            "SYN flood: spoofed SYNs into one listener whose backlog holds them all; each SYN-ACK finds no route. "
                + "Each size runs in a child process; peak RSS = its VmHWM, B per connection = growth of VmRSS over the flood.",
        ]
        if let first = perConnection.first, let last = perConnection.last, first.0 != last.0, first.1 > 0 {
            notes.append(String(format: "Linearity: time per connection at %@ is %.2f× that at %@ (1.00× = perfectly linear).",
                                last.0.formatted(), last.1 / first.1, first.0.formatted()))
        }
        let report = BenchReport(
            benchmark: "tcp",
            settings: ["megabytes": "\(megabytes)", "runs": "\(runs)", "connections": connections.map(String.init).joined(separator: ",")],
            rows: rows, notes: notes)
        try report.print(format)
    }
}

/// One client sending `bytes` to one server as fast as the simulated network carries them.
struct TCPBulkTransfer {
    struct Result {
        var steps: Int
        var segments: Int
        var seconds: Double
        /// Segments per second of wall-clock time, given the number of deliveries (from a recording run).
        func segmentsPerSecond(_ deliveries: Int) -> Double { Double(deliveries) / seconds }
    }

    enum Failure: Error, CustomStringConvertible {
        case incomplete(received: Int, expected: Int)
        var description: String {
            switch self {
            case .incomplete(let received, let expected): return "bulk transfer stopped at \(received) of \(expected) bytes"
            }
        }
    }

    let bytes: Int
    let recordsEvents: Bool

    func run() throws -> Result {
        let client = IPv4Address(192, 0, 2, 10), server = IPv4Address(198, 51, 100, 20)
        let net = TCPNetwork(random: TCPSeededRandom(seed: 1))
        net.recordsEvents = recordsEvents
        net.addHost(client)
        net.addHost(server)
        net.setLinks(between: client, and: server, TCPLink(latency: TCPDuration.milliseconds(1)))
        try net.listen(on: server, port: 80)
        let id = try net.connect(from: client, to: TCPEndpoint(server, 80))
        let chunk = [UInt8](repeating: 0x61, count: 65_536)
        var steps = 0, segments = 0, received = 0, written = 0
        var accepted: TCPConnectionID?
        let clock = ContinuousClock()
        let start = clock.now
        while received < bytes {
            // Keep at most two chunks queued at the sender, as an application writing in a loop would.
            while written < bytes, written - received < 2 * chunk.count {
                try net.write(id, chunk)
                written += chunk.count
            }
            guard net.step() else { break }
            steps += 1
            if accepted == nil { accepted = net.accept(on: server, port: 80) }
            // The application reads every eighth step (about every 12 KiB), as a reader draining a socket in batches.
            if let accepted, steps & 7 == 0 || net.nextEventTime == nil { received += net.read(accepted).count }
            if recordsEvents {
                for event in net.takeEvents() { if case .delivered = event.kind { segments += 1 } }
            }
        }
        let seconds = (clock.now - start).benchSeconds
        guard received >= bytes else { throw Failure.incomplete(received: received, expected: bytes) }
        return Result(steps: steps, segments: segments, seconds: seconds)
    }
}

/// What one SYN flood child reports.
struct TCPFloodResult: Codable {
    var connections: Int
    var seconds: Double
    var steps: Int
    /// VmHWM of the child at the end, KiB.
    var peakKiB: Int
    /// VmRSS after the flood minus before it, KiB.
    var growthKiB: Int

    enum Failure: Error, CustomStringConvertible {
        case child(String)
        var description: String { switch self { case .child(let why): return "tcp-flood child: \(why)" } }
    }

    /// Runs `tlslab bench tcp-flood --connections N` and reads its JSON.
    static func inChild(connections: Int) throws -> TCPFloodResult {
        let child = try ChildProcess(ChildProcess.ownExecutable, ["bench", "tcp-flood", "--connections", "\(connections)"],
                                     inheritStderr: true)
        let outcome = child.wait()
        guard outcome.exitStatus == 0 else { throw Failure.child("exit status \(outcome.exitStatus)") }
        do {
            return try JSONDecoder().decode(TCPFloodResult.self, from: Data(outcome.stdout))
        } catch {
            throw Failure.child("unreadable output: \(outcome.stdoutText.prefix(200))")
        }
    }

    /// The flood itself, in this process.
    static func flood(connections n: Int) throws -> TCPFloodResult {
        let server = IPv4Address(198, 51, 100, 20)
        let net = TCPNetwork(random: TCPSeededRandom(seed: 1))
        net.recordsEvents = false
        net.addHost(server)
        try net.listen(on: server, port: 80, backlog: n)
        let before = ProcMemory.field("VmRSS") ?? 0
        let clock = ContinuousClock()
        let start = clock.now
        for i in 0..<n {
            let spoofed = IPv4Address(0xAC10_0000 &+ UInt32(i))  // 172.16.0.0/12: no such hosts
            net.inject(TCPPacket(source: spoofed, destination: server,
                                 segment: TCPSegment(sourcePort: 1024 + UInt16(i % 60_000), destinationPort: 80,
                                                     seq: SeqNumber(UInt32(truncatingIfNeeded: i)), flags: .syn, window: 65_535)))
        }
        var steps = 0
        // Deliver every SYN and every SYN-ACK (which finds no route); the first retransmission is 1 s away.
        while let t = net.nextEventTime, t <= TCPDuration.milliseconds(500) {
            net.step()
            steps += 1
        }
        let seconds = (clock.now - start).benchSeconds
        let halfOpen = net.listener(on: server, port: 80)?.halfOpen.count ?? 0
        guard halfOpen == n else { throw TCPFloodResult.Failure.child("\(halfOpen) of \(n) connections half-open") }
        return TCPFloodResult(connections: n, seconds: seconds, steps: steps, peakKiB: ProcMemory.field("VmHWM") ?? 0,
                              growthKiB: (ProcMemory.field("VmRSS") ?? 0) - before)
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
