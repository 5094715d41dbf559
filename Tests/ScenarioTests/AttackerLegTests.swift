import Foundation
@testable import Scenarios
import Simulation
import TCPSim
import Testing
import Trace

/// A segment an attacker forwards, rewrites or injects is a send of the attacker on its leg, at its
/// own time: every segment a party receives was put on that leg by someone (a party's TCP, or the
/// attacker), no later than it arrived; a rewritten segment is sent no earlier than the segment it
/// replaces; the parties' own sends come from their own addresses, on a leg a SYN opened; and a
/// man in the middle relays application data upstream no earlier than it received the client's.
/// Checked for the attacker runs (`mitm`, `mitm-trusting`, `strip`, `replay`, `tamper-serverhello`)
/// and every lesson with an attacker, the on-path TCP lessons included.
@Suite("An attacker's segments are sends on its own leg")
struct AttackerLegTests {
    /// Checks one trace; returns how many received segments were matched to their send.
    static func check(_ trace: Trace, _ name: String, checkLegs: Bool) -> Int {
        var sends: [TCPPacket: [Int64]] = [:]
        var lastSent: [String: Int64] = [:]  // the 4-tuple's latest own send, as the forwarder received it
        var legs: Set<Set<IPv4Address>> = []  // the address pairs a SYN opened
        var matched = 0
        func tuple(_ p: TCPPacket) -> String { "\(p.sourceEndpoint)>\(p.destinationEndpoint)" }
        /// A segment travels on a leg its two ends opened (a man in the middle's two legs never
        /// carry a segment straight from the client to the server).
        func onALeg(_ p: TCPPacket) {
            guard checkLegs else { return }
            let pair: Set<IPv4Address> = [p.source, p.destination]
            if p.segment.flags.contains(.syn) && p.segment.ack == nil { legs.insert(pair) }
            #expect(legs.contains(pair), "\(name): \(p) travels between two ends no SYN joined")
        }
        for e in trace.events {
            guard case .tcp(let kind) = e.kind else { continue }
            switch kind {
            case .sent(let p), .duplicated(let p), .synCookieSent(let p):
                if let owner = trace.participants[p.source] {
                    #expect(e.actor == owner, "\(name): \(p) sent by \(e.actor), not by its address's \(owner)")
                }
                sends[p, default: []].append(e.time)
                lastSent[tuple(p)] = e.time
                onALeg(p)
            case .forwarded(let p, _):
                #expect(e.actor == .attacker, "\(name): \(p) forwarded by \(e.actor)")
                let received = lastSent[tuple(p)]
                #expect(received.map { $0 <= e.time } == true, "\(name): \(p) forwarded at \(e.time), before it was received (\(String(describing: received)))")
                sends[p, default: []].append(e.time)
                onALeg(p)
            case .injected(let p):
                #expect(e.actor == .attacker, "\(name): \(p) injected by \(e.actor)")
                sends[p, default: []].append(e.time)
                onALeg(p)
            case .delivered(let p):
                let sentAt = sends[p] ?? []
                #expect(sentAt.contains { $0 <= e.time }, "\(name): \(p) arrived at \(e.time), and nobody sent it on its leg before")
                matched += 1
            default:
                break
            }
        }
        return matched
    }

    /// A man in the middle's first application-data record to the server leaves no earlier than the
    /// client's first one reached it (it relays what it received, RFC 5246 §6.2.1 content type 23); it
    /// relays nothing when the client sent nothing (the client refused its certificate). Returns
    /// whether it relayed.
    @discardableResult
    static func relaysAfterReceiving(_ trace: Trace, _ name: String) -> Bool {
        guard let attacker = trace.participants.first(where: { $0.value == .attacker })?.key,
              let server = trace.participants.first(where: { $0.value == .server })?.key else { return false }
        var received: Int64?, relayed: Int64?
        for e in trace.events {
            switch e.kind {
            case .tcp(.delivered(let p)) where p.destination == attacker && p.source != server && p.segment.payload.first == 23:
                received = received ?? e.time
            case .tcp(.sent(let p)) where p.source == attacker && p.destination == server && p.segment.payload.first == 23:
                relayed = relayed ?? e.time
            default:
                break
            }
        }
        guard let relayed else { return false }
        #expect(received.map { $0 <= relayed } == true, "\(name): relayed at \(relayed), before receiving at \(String(describing: received))")
        return true
    }

    @Test(arguments: [BuiltInRun.mitm, .mitmTrusting, .strip, .replay, .tamperServerHello])
    func attackerRun(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        #expect(Self.check(trace, run.rawValue, checkLegs: true) > 0)
        if run == .mitm { Self.relaysAfterReceiving(trace, run.rawValue) }
        if run == .mitmTrusting { #expect(Self.relaysAfterReceiving(trace, run.rawValue), "the trusting client's request is relayed") }
        if run == .replay || run == .strip {
            #expect(trace.events.contains { if case .tcp(.forwarded) = $0.kind { true } else { false } }, "\(run.rawValue) rewrites on the path")
        }
    }

    @Test func everyLessonWithAnAttacker() throws {
        var checked = 0
        for file in Library.files {
            guard let trace = try ScenarioParser.parse(contentsOf: file).run().trace,
                  trace.events.contains(where: { $0.actor == .attacker }) else { continue }
            #expect(Self.check(trace, file, checkLegs: false) > 0, "\(file)")
            checked += 1
        }
        #expect(checked >= 10, "lessons with an attacker: \(checked)")
    }
}
