import Foundation
import Languages
@testable import Rendering
import Simulation
import TCPSim
import Testing
import TLSEngine
import Trace

/// A segment an on-path attacker rewrites is its own send on its leg: the ladder, the walkthrough and
/// the JSON give the attacker's copy an arrow from the attacker with what it changed (the numbers,
/// the payload bytes by offset), the original ends at the attacker, and the capture holds the copy.
@Suite("A rewritten segment is the attacker's send, with what it changed")
struct RewrittenSegmentTests {
    static func forwarded(_ trace: Trace) -> [(index: Int, copy: TCPPacket, rewrite: TCPRewrite)] {
        trace.events.enumerated().compactMap { i, e in
            if case .tcp(.forwarded(let p, let r)) = e.kind { (i, p, r) } else { nil }
        }
    }

    @Test(arguments: [Language.en, .zh])
    func stripsCopyHasItsArrowAndSaysWhatChanged(language: Language) throws {
        let explanations = language.explanations
        let trace = Simulation(try BuiltInRun.strip.setup(seed: 1)).run()
        let (index, copy, rewrite) = try #require(Self.forwarded(trace).first)
        #expect(trace.events[index].actor == .attacker)
        #expect(!rewrite.octets.isEmpty && rewrite.seq == nil && rewrite.ack == nil)
        let original = try #require(trace.events[index - 1].kind.sentPacket)
        for c in rewrite.octets {
            #expect(original.segment.payload[c.offset] == c.old && copy.segment.payload[c.offset] == c.new)
        }
        let walk = Walkthrough(title: "strip", trace: trace, width: 100_000, explanations: explanations)
        let step = try #require(walk.steps.first { $0.kind == .event && $0.eventIndex == index })
        #expect(step.mark?.from == .attacker && step.mark?.to == .server, "\(String(describing: step.mark))")
        let first = rewrite.octets[0]
        let change = try #require(explanations("ladder.tcp.change.octet", ["offset": "\(first.offset)", "old": Hex.string([first.old]), "new": Hex.string([first.new])]))
        #expect(step.detail.joined(separator: " ").contains(change), "\(step.detail)")
        let sentence = try #require(explanations("tcp.forwarded", ["sender": explanations.actorName("attacker"), "receiver": explanations.actorName("server"),
                                                                   "side": explanations.actorName("client")]))
        #expect(step.detail.contains { $0.contains(sentence) }, "\(step.detail)")
        // The client's original ends at the attacker.
        let kept = try #require(walk.steps.first { $0.kind == .event && $0.eventIndex == index - 1 })
        #expect(kept.mark?.from == .client && kept.mark?.to == .attacker)
    }

    /// `replay`: the copies moved the seq (client → server) or the ack (server → client) by the 93
    /// bytes the attacker injected; the JSON names each change, and the page draws each copy.
    @Test func replaysCopiesNameTheMovedNumbers() throws {
        let trace = Simulation(try BuiltInRun.replay.setup(seed: 1)).run()
        let copies = Self.forwarded(trace)
        #expect(copies.count > 4)
        let json = JSONLinesRenderer().render(trace).filter { $0.contains("\"event\":\"tcp_rewritten\"") }
        #expect(json.count == copies.count)
        for ((_, copy, rewrite), line) in zip(copies, json) {
            #expect(rewrite.octets.isEmpty)
            if let seq = rewrite.seq {
                #expect(Int(seq.new - seq.old) == 93 && copy.segment.seq == seq.new)
                #expect(line.contains("\"seq\":{\"old\":\(seq.old.rawValue),\"new\":\(seq.new.rawValue)}"), "\(line)")
            }
            if let ack = rewrite.ack {
                #expect(Int(ack.old - ack.new) == 93 && copy.segment.ack == ack.new)
                #expect(line.contains("\"ack\":{\"old\":\(ack.old.rawValue),\"new\":\(ack.new.rawValue)}"), "\(line)")
            }
            #expect(rewrite.seq != nil || rewrite.ack != nil)
        }
        let html = HTMLRenderer(embedTrace: false).page(name: "replay", trace: trace)
        #expect(html.components(separatedBy: "changed by the attacker").count - 1 >= copies.count)
    }
}

extension TraceEvent.Kind {
    var sentPacket: TCPPacket? { if case .tcp(.sent(let p)) = self { p } else { nil } }
}
