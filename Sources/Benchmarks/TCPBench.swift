import Foundation
import Languages
import TCPSim

/// One client sending `bytes` to one server as fast as the simulated network carries them.
public struct TCPBulkTransfer {
    public struct Result {
        public var steps: Int
        public var segments: Int
        public var seconds: Double
        /// Segments per second of wall-clock time, given the number of deliveries (from a recording run).
        public func segmentsPerSecond(_ deliveries: Int) -> Double { Double(deliveries) / seconds }
    }

    /// Why the transfer gave no figure, as data (worded by the command line, `cli.bench.failure.*`).
    public enum Failure: Error, Sendable, Hashable {
        /// The simulated network stopped with only `received` of the `expected` bytes read.
        case incomplete(received: Int, expected: Int)
    }

    public let bytes: Int
    public let recordsEvents: Bool

    public init(bytes: Int, recordsEvents: Bool) {
        self.bytes = bytes
        self.recordsEvents = recordsEvents
    }

    public func run() throws -> Result {
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
public struct TCPFloodResult: Codable {
    public var connections: Int
    public var seconds: Double
    public var steps: Int
    /// VmHWM of the child at the end, KiB.
    public var peakKiB: Int
    /// VmRSS after the flood minus before it, KiB.
    public var growthKiB: Int

    /// Why a flood gave no figure, as data (worded by the command line, `cli.bench.failure.*`).
    public enum Failure: Error, Sendable, Hashable {
        /// `tlslab bench tcp-flood` exited with this status.
        case childExited(status: Int32)
        /// `tlslab bench tcp-flood` wrote something that is not its JSON result (the first 200 characters).
        case childOutputUnreadable(excerpt: String)
        /// Only `halfOpen` of the `connections` spoofed SYNs left a half-open connection in the listener.
        case notAllHalfOpen(halfOpen: Int, connections: Int)
    }

    /// Runs `tlslab bench tcp-flood --connections N` and reads its JSON; its standard error (a
    /// person reads it) in `language`.
    public static func inChild(connections: Int, language: Language) throws -> TCPFloodResult {
        let child = try ChildProcess(ChildProcess.ownExecutable, ["bench", "tcp-flood", "--connections", "\(connections)"],
                                     inheritStderr: true, environment: ChildProcess.languageEnvironment(language))
        let outcome = child.wait()
        guard outcome.exitStatus == 0 else { throw Failure.childExited(status: outcome.exitStatus) }
        do {
            return try JSONDecoder().decode(TCPFloodResult.self, from: Data(outcome.stdout))
        } catch {
            throw Failure.childOutputUnreadable(excerpt: String(outcome.stdoutText.prefix(200)))
        }
    }

    /// The flood itself, in this process.
    public static func flood(connections n: Int) throws -> TCPFloodResult {
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
        guard halfOpen == n else { throw TCPFloodResult.Failure.notAllHalfOpen(halfOpen: halfOpen, connections: n) }
        return TCPFloodResult(connections: n, seconds: seconds, steps: steps, peakKiB: ProcMemory.field("VmHWM") ?? 0,
                              growthKiB: (ProcMemory.field("VmRSS") ?? 0) - before)
    }
}

