import Foundation
import Testing
import Trace
@testable import Rendering
@testable import Scenarios
import Simulation
import TCPSim

/// `tlslab export`'s capture against the ladder: every frame of the pcap file, read back from its
/// bytes, is a TCP segment the ladder draws, at the time the ladder draws it, and the other way
/// round. Checked for every built-in run and every lesson that has wire traffic.
@Suite("Capture times equal ladder times")
struct CaptureTimingTests {
    /// (time as the ladder prints it, TCP flag letters sorted, payload length) of one segment.
    struct Row: Hashable, Comparable, CustomStringConvertible {
        var time: String, flags: String, length: Int
        static func < (a: Row, b: Row) -> Bool { (a.time, a.flags, a.length) < (b.time, b.flags, b.length) }
        var description: String { "\(time) [\(flags)] len=\(length)" }
    }

    /// The frames of a classic little-endian Ethernet pcap, decoded from the bytes.
    static func frames(_ file: [UInt8]) -> [Row] {
        func le32(_ i: Int) -> Int { Int(file[i]) | Int(file[i + 1]) << 8 | Int(file[i + 2]) << 16 | Int(file[i + 3]) << 24 }
        var rows: [Row] = []
        var p = 24
        while p + 16 <= file.count {
            let seconds = le32(p) - Int(PcapWriter().epochSeconds), micros = le32(p + 4), length = le32(p + 8)
            let ip = p + 16 + 14
            let total = Int(file[ip + 2]) << 8 | Int(file[ip + 3])
            let tcp = ip + Int(file[ip] & 0x0f) * 4
            let headerLength = Int(file[tcp + 12] >> 4) * 4
            let bits = file[tcp + 13]
            let letters = zip([0x01, 0x02, 0x04, 0x08, 0x10, 0x20] as [UInt8], ["F", "S", "R", "P", "A", "U"])
                .filter { bits & $0.0 != 0 }.map(\.1)
            rows.append(Row(time: TextRenderer.timeText(Int64(seconds) * 1_000_000 + Int64(micros)),
                            flags: String(letters.joined().sorted()), length: total - (tcp - ip) - headerLength))
            p += 16 + length
        }
        return rows
    }

    /// Every segment row of the rendered ladder (sent, retransmitted or injected; not the "lost" notes).
    static func ladderRows(_ trace: Trace) throws -> [Row] {
        let pattern = try Regex(#"^\s*([0-9.]+ms) .*TCP \[([A-Z]+)\] seq=\d+(?: ack=\d+)? len=(\d+)"#)
        return TextRenderer(verbosity: .normal, width: 1000).render(trace).compactMap { line in
            guard !line.contains("lost:"), let m = line.firstMatch(of: pattern),
                  let time = m.output[1].substring, let flags = m.output[2].substring,
                  let length = m.output[3].substring.flatMap({ Int($0) }) else { return nil }
            return Row(time: String(time), flags: String(flags.sorted()), length: length)
        }
    }

    /// The ladder rows the capture does not see. With an on-path attacker the capture sits between the
    /// attacker and the server, so of each segment the attacker rewrote it sees one of the two rows the
    /// ladder draws (the original and the attacker's copy, each at its sender's send time): towards the
    /// server the copy, towards the client the server's original.
    static func unseenRows(_ trace: Trace) -> [Row] {
        trace.events.compactMap { e -> Row? in
            guard case .tcp(.forwarded(let p, _)) = e.kind else { return nil }
            let letters = zip([TCPFlags.fin, .syn, .rst, .psh, .ack, .urg], ["F", "S", "R", "P", "A", "U"])
                .filter { p.segment.flags.contains($0.0) }.map(\.1)
            return Row(time: TextRenderer.timeText(e.time), flags: String(letters.joined().sorted()), length: p.segment.payload.count)
        }
    }

    static func compare(_ trace: Trace, _ name: String) throws {
        let file = PcapWriter(linkType: .ethernet).file(PcapWriter.packets(from: trace))
        var drawn = try Self.ladderRows(trace)
        for row in unseenRows(trace) {
            let index = try #require(drawn.firstIndex(of: row), "\(name): the attacker's rewrite \(row) has no two rows on the ladder")
            drawn.remove(at: index)
        }
        let frames = Self.frames(file).sorted(), ladder = drawn.sorted()
        #expect(!frames.isEmpty, "\(name): no frames")
        #expect(frames == ladder, """
            \(name): pcap frames and ladder rows differ
              only in the pcap: \(frames.filter { !ladder.contains($0) }.prefix(5))
              only on the ladder: \(ladder.filter { !frames.contains($0) }.prefix(5))
            """)
    }

    @Test(arguments: BuiltInRun.allCases)
    func builtInRun(_ run: BuiltInRun) throws {
        try Self.compare(Simulation(try run.setup(seed: 1)).run(), run.rawValue)
    }

    @Test func everyLessonWithWireTraffic() throws {
        var checked = 0
        for file in Library.files {
            guard let trace = try ScenarioParser.parse(contentsOf: file).run().trace,
                  trace.events.contains(where: { if case .tcp(.sent) = $0.kind { true } else { false } }) else { continue }
            try Self.compare(trace, file)
            checked += 1
        }
        #expect(checked >= 60, "lessons with a capture: \(checked)")
    }

    /// The attacker runs are the ones that were wrong: the server's SYN-ACK was stamped at the SYN's
    /// instant although the ladder draws it a link latency later.
    @Test(arguments: [BuiltInRun.strip, .replay, .tamperServerHello])
    func synAckIsALatencyAfterTheSyn(_ run: BuiltInRun) throws {
        let frames = Self.frames(PcapWriter().file(PcapWriter.packets(from: Simulation(try run.setup(seed: 1)).run())))
        #expect(frames.prefix(2).map(\.time) == ["0.0ms", "20.0ms"], "\(run): \(frames.prefix(2))")
        #expect(frames.prefix(2).map(\.flags) == ["S", "AS"])
    }
}
