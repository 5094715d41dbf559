@testable import Rendering
import Simulation
import TCPSim
import Testing
import Trace

/// The walkthrough says what an ACK acknowledged from what the receiving TCP reported
/// (`TCPEvent.acknowledged`, where its SND.UNA advanced) and why a bare ACK was sent from the
/// segment's `TCPSendCause`, instead of keeping its own ISN, FIN and last ACK per direction.
@Suite("Walkthrough: acknowledgments read from TCPSim's events")
struct WalkthroughAcknowledgementTests {
    static func details(_ run: BuiltInRun) throws -> (Trace, [(event: Int, detail: [String])]) {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let walk = Walkthrough(title: run.rawValue, trace: trace, width: 100_000)
        return (trace, walk.steps.filter { $0.kind == .event }.map { ($0.eventIndex, $0.detail) })
    }

    /// `lossy` loses the client's ACK of the server's first flight: that ACK acknowledges nothing at
    /// the server, and the client's next segment, whose ack the server's TCP takes, is credited with it.
    @Test func aLostACKAcknowledgesNothingAndTheNextOneIsCredited() throws {
        let (trace, steps) = try Self.details(.lossy)
        let english = Explanations.english
        let lost = trace.events.indices.filter { index in
            guard case .tcp(.dropped(let p, _)) = trace.events[index].kind else { return false }
            return p.segment.payload.isEmpty && p.segment.flags.compact == "A"
        }
        let first = try #require(lost.first, "lossy loses no bare ACK")
        let sent = try #require(trace.events[..<first].indices.last { if case .tcp(.sent) = trace.events[$0].kind { true } else { false } })
        guard case .tcp(.sent(let p)) = trace.events[sent].kind, let ack = p.segment.ack else { Issue.record("no ACK"); return }
        let sentence = try #require(english("walk.ack.lost", ["actor": english.actorName("client"), "peer": english.actorName("server"),
                                                               "ack": "\(ack.rawValue)"]))
        let detail = try #require(steps.first { $0.event == sent }).detail
        #expect(detail.contains(sentence), "\(detail)")
        #expect(!detail.joined().contains("more bytes"), "\(detail)")
        // The acknowledgment the server's TCP did take, later, names the flight's messages.
        let later = steps.filter { $0.event > first }.flatMap(\.detail)
        #expect(later.contains { $0.contains("ServerHello, Certificate, ServerHelloDone") && $0.contains("acknowledges") }, "\(later.prefix(12))")
    }

    /// In a run without loss, what the ACK steps say they acknowledged is what the receiving TCPs
    /// reported: no step names more acknowledgments than there were `acknowledged` events for data.
    @Test func everyDataAcknowledgmentIsNamedByItsACK() throws {
        let (trace, steps) = try Self.details(.rsa)
        let named = steps.flatMap(\.detail).filter { $0.contains("more bytes of the") }
        let reported = trace.events.filter {
            if case .tcp(.connection(_, .acknowledged(_, _, let octets, false, false))) = $0.kind { octets > 0 } else { false }
        }
        #expect(!named.isEmpty && named.count <= reported.count, "\(named.count) sentences, \(reported.count) acknowledged events")
    }

    /// `replay`: the attacker injects a copy of the client's record and keeps both ends' numbers in
    /// step by lowering the server's acks. The server's ACK of the copy never reaches the client with
    /// its own number: its step says so, and says what the attacker's number did at the client.
    @Test func anACKTheAttackerRewroteNamesTheAttackersNumber() throws {
        let (trace, steps) = try Self.details(.replay)
        let english = Explanations.english
        var rewritten: [(sent: Int, ack: UInt32, carried: UInt32)] = []
        for (index, e) in trace.events.enumerated() {
            guard case .tcp(.sent(let p)) = e.kind, p.segment.payload.isEmpty, let ack = p.segment.ack,
                  index + 1 < trace.events.count, case .tcp(.forwarded(let q, _)) = trace.events[index + 1].kind,
                  let carried = q.segment.ack, carried != ack else { continue }
            rewritten.append((index, ack.rawValue, carried.rawValue))
        }
        let first = try #require(rewritten.first, "replay rewrites no bare ACK")
        #expect(trace.events[first.sent].actor == .server)
        let detail = try #require(steps.first { $0.event == first.sent }).detail
        let names = ["actor": english.actorName("server"), "peer": english.actorName("client")]
        let sentence = try #require(english("walk.ack.rewritten", names.merging(["ack": "\(first.ack)", "carried": "\(first.carried)"]) { _, new in new }))
        #expect(detail.contains(sentence), "\(detail)")
        // The server's own number acknowledged the copy; it is not "as before" anywhere.
        let nothingNew = try #require(english("walk.ack.nothingNew", names.merging(["ack": "\(first.ack)"]) { _, new in new }))
        #expect(!detail.contains(nothingNew), "\(detail)")
        #expect(detail.contains { $0.contains("ack = \(first.carried)") && $0.contains("attacker's") }, "\(detail)")
        // The client's FIN is acknowledged by the attacker's number too, and the step says so.
        let fates = SegmentFates(trace.events)
        let finACKs = rewritten.filter { fates.acknowledged[$0.sent]?.fin == true }
        #expect(!finACKs.isEmpty, "replay's attacker lowers no ACK of the client's FIN")
        for fin in finACKs {
            let said = try #require(english("walk.ack.carried.fin", names.merging(["carried": "\(fin.carried)"]) { _, new in new }))
            let detail = try #require(steps.first { $0.event == fin.sent }).detail
            #expect(detail.contains(said), "\(detail)")
            #expect(!detail.joined().contains("more bytes"), "\(detail)")
        }
    }

    /// In every built-in run, an ACK step that says its ack number acknowledged nothing new names a
    /// segment a TCP received as it was sent; an ACK the network lost is never said to acknowledge
    /// anything; a rewritten number is only ever claimed where the attacker passed the segment on changed.
    @Test(arguments: BuiltInRun.allCases) func acknowledgmentSentencesMatchTheSegmentsFate(_ run: BuiltInRun) throws {
        let (trace, steps) = try Self.details(run)
        let fates = SegmentFates(trace.events)
        let english = Explanations.english
        let asBefore = try #require(english("walk.ack.nothingNew", ["actor": "", "ack": "\u{1}"])).components(separatedBy: "\u{1}").last ?? ""
        for step in steps {
            guard case .tcp(.sent(let p)) = trace.events[step.event].kind, p.segment.payload.isEmpty else { continue }
            let text = step.detail.joined(separator: "\n")
            if fates.lost.contains(step.event) { #expect(!text.contains("more bytes"), "\(run) \(step.event): \(text)") }
            if text.contains(asBefore) {
                #expect(fates.carried[step.event] == nil && !fates.lost.contains(step.event), "\(run) \(step.event): \(text)")
                #expect(fates.acknowledged[step.event] == nil, "\(run) \(step.event): \(text)")
            }
            if text.contains("the attacker on the path lowers") {
                #expect(fates.carried[step.event].map { $0.segment.ack != p.segment.ack } == true, "\(run) \(step.event): \(text)")
            }
        }
    }
}
