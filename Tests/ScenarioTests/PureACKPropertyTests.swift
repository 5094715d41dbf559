import Foundation
@testable import Scenarios
import Simulation
import TCPSim
import Testing
import Trace

/// Property: no side of any run sends a pure ACK that repeats its previous segment's sequence and
/// acknowledgment numbers without a reason. A repeat is legitimate only when
/// - a segment arrived at that side in between (every arrival may need its own ACK: a duplicate ACK
///   for out-of-order data, RFC 9293 §3.10.7.4 and RFC 5681 §4.2; an unacceptable segment; a
///   challenge ACK, RFC 5961), or a timer of that side fired (a window probe), or
/// - it is a window update the peer needs: it advertises a different window, and the window the
///   peer last saw was under the receiver's SWS threshold min(RCV.BUFF/2, Eff.snd.MSS) (RFC 9293
///   §3.8.6.2.2; RFC 1122 §4.2.3.3: otherwise the next ACK carries the new window).
/// Before the fix, the DHE and mutual-TLS runs sent an ACK for a full-sized segment and, at the same
/// instant, after the TLS layer read it, a second one that only moved the window from 64,075 to 65,535.
@Suite struct PureACKPropertyTests {
    static let threshold = min(TCPConfig().mss, TCPConfig().receiveBufferSize / 2)

    /// The unjustified repeated pure ACKs of a trace, described.
    static func spuriousRepeats(_ trace: Trace) -> [String] {
        struct Last { var segment: TCPSegment; var pureACK: Bool; var somethingHappened: Bool }
        var last: [TCPEndpoint: Last] = [:]
        var found: [String] = []
        for event in trace.events {
            guard case .tcp(let kind) = event.kind else { continue }
            switch kind {
            case .delivered(let p):
                last[p.destinationEndpoint]?.somethingHappened = true
            case .connection(let id, .timerFired):
                last[id.local]?.somethingHappened = true
            case .sent(let p):
                let s = p.segment
                let pure = s.flags.compact == "A" && s.payload.isEmpty
                if pure, let previous = last[p.sourceEndpoint], previous.pureACK, !previous.somethingHappened,
                   previous.segment.seq == s.seq, previous.segment.ack == s.ack {
                    let neededUpdate = s.window != previous.segment.window && Int(previous.segment.window) < threshold
                    if !neededUpdate {
                        found.append("t=\(event.time) \(p.sourceEndpoint): seq \(s.seq.rawValue) ack \(s.ack?.rawValue ?? 0) "
                                     + "window \(previous.segment.window) then \(s.window)")
                    }
                }
                last[p.sourceEndpoint] = Last(segment: s, pureACK: pure, somethingHappened: false)
            default:
                continue
            }
        }
        return found
    }

    static let seeds: [UInt64] = Array(1 ... 6)

    @Test(arguments: BuiltInRun.allCases)
    func builtInRunsSendNoSpuriousRepeatedACK(run: BuiltInRun) throws {
        for seed in Self.seeds {
            let trace = Simulation(try run.setup(seed: seed)).run()
            let repeats = Self.spuriousRepeats(trace)
            #expect(repeats.isEmpty, "\(run.rawValue) seed \(seed): \(repeats)")
        }
    }

    @Test func lessonsSendNoSpuriousRepeatedACK() throws {
        var checked = 0
        for file in Library.files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let scenario = try ScenarioParser.parse(text: text, file: file)
            guard let trace = scenario.run().trace else { continue }
            checked += 1
            let repeats = Self.spuriousRepeats(trace)
            #expect(repeats.isEmpty, "\(file): \(repeats)")
        }
        #expect(checked > 50)
    }

    /// The property can fail: the same ACK sent twice with nothing in between is caught, while a
    /// window update that reopens a closed window is not.
    @Test func theCheckCatchesARepeat() {
        let a = IPv4Address(10, 0, 0, 1), b = IPv4Address(10, 0, 0, 2)
        func sent(_ window: UInt16, at time: Int64) -> TraceEvent {
            let segment = TCPSegment(sourcePort: 1000, destinationPort: 443, seq: SeqNumber(5), ack: SeqNumber(9), window: window)
            return TraceEvent(time: time, actor: .client, kind: .tcp(.sent(TCPPacket(source: a, destination: b, segment: segment))))
        }
        #expect(Self.spuriousRepeats(Trace(events: [sent(64_075, at: 0), sent(65_535, at: 0)])).count == 1)
        #expect(Self.spuriousRepeats(Trace(events: [sent(65_535, at: 0), sent(65_535, at: 0)])).count == 1)
        #expect(Self.spuriousRepeats(Trace(events: [sent(0, at: 0), sent(65_535, at: 0)])).isEmpty)
    }
}
