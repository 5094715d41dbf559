import Foundation
import Languages
import Rendering
@testable import Scenarios
import Testing
import Trace

/// The old duplicate SYN lesson (RFC 9293 Figure 8) reads correctly: the server's states go
/// LISTEN → SYN-RECEIVED → LISTEN → SYN-RECEIVED without a repeated LISTEN, the segment list names the
/// stale SYN and uses one numbering (absolute, each SYN marked as an ISN) so the RST's seq reads as the
/// stale SYN's ISN + 1 rather than a wrapped "relative" 4294967287, and the walkthrough says why the
/// server is in LISTEN again.
@Suite struct OldDuplicateSYNDisplayTests {
    static func lesson(_ name: String) throws -> Scenario {
        let file = Library.root + "/" + name + ".yaml"
        return try ScenarioParser.parse(text: try String(contentsOfFile: file, encoding: .utf8), file: file)
    }

    static func list(_ value: FactValue?) -> [String] {
        if case .list(let items) = value { return items }
        return []
    }

    @Test func serverStatesDoNotRepeatListen() throws {
        let facts = try Self.lesson("tcp/old-duplicate-syn").run().facts
        #expect(Self.list(facts["server_states"]) == ["CLOSED", "LISTEN", "SYN-RECEIVED", "LISTEN", "SYN-RECEIVED", "ESTABLISHED"])
        #expect(Self.list(facts["client_states"]) == ["CLOSED", "SYN-SENT", "ESTABLISHED"])
    }

    @Test func segmentsUseOneNumberingAndShowTheStaleSYN() throws {
        let lines = Self.list(try Self.lesson("tcp/old-duplicate-syn").run().facts["segments"])
        #expect(lines.first == "client [S] seq 90 (ISN), length 0 (old duplicate)")
        // The RST carries the ack of the SYN-ACK it answers: the stale SYN's 90 + 1.
        #expect(lines.contains("server [S.] seq 300 (ISN), ack 91, length 0"))
        #expect(lines.contains("client [R] seq 91, length 0"))
        #expect(lines.allSatisfy { !$0.contains("(absolute)") })
    }

    /// Every TCP lesson's segment list: no wrapped number (a relative value computed against the wrong
    /// ISN reads as 2^32 − k), no repeated state in a row.
    @Test func noTCPLessonShowsAWrappedNumberOrARepeatedState() throws {
        var checked = 0
        for file in Library.files where file.contains("/tcp/") {
            let scenario = try ScenarioParser.parse(text: try String(contentsOfFile: file, encoding: .utf8), file: file)
            let facts = scenario.run().facts
            for line in Self.list(facts["segments"]) {
                let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { UInt64($0) }
                #expect(numbers.allSatisfy { $0 < 0x8000_0000 }, "\(file): \(line)")
            }
            for key in ["client_states", "server_states"] {
                let states = Self.list(facts[key])
                #expect(!zip(states, states.dropFirst()).contains { $0 == $1 }, "\(file) \(key): \(states)")
            }
            checked += 1
        }
        #expect(checked >= 10)
    }

    /// The SYN-ACK's sentence comes from the network's fact: the SYN-ACK names the packet whose arrival
    /// it answers, and that packet was put on the wire by the network (the late copy), not by the client.
    @Test func theSYNACKNamesTheLateCopyItAnswers() throws {
        let trace = try #require(try Self.lesson("tcp/old-duplicate-syn").run().trace)
        var putOnWire: [Int: TraceEvent] = [:]
        var answered: [Actor] = []
        for e in trace.events {
            guard let links = e.packetLinks else { continue }
            switch e.kind {
            case .tcp(.sent(let p)):
                putOnWire[links.packet] = e
                if p.segment.flags.contains(.syn), p.segment.ack != nil, let a = links.answering, let syn = putOnWire[a] { answered.append(syn.actor) }
            case .tcp(.injected): putOnWire[links.packet] = e
            default: continue
            }
        }
        #expect(answered == [.network, .client], "\(answered)")
    }

    @Test func walkthroughSaysListenAgain() throws {
        let scenario = try Self.lesson("tcp/old-duplicate-syn")
        let trace = try #require(scenario.run().trace)
        let w = Walkthrough(title: "tcp/old-duplicate-syn", trace: trace, width: 100)
        let back = try #require(w.steps.first { $0.headline.contains("SYN-RECEIVED → LISTEN") })
        let text = back.detail.joined(separator: " ")
        #expect(text.contains("LISTEN again") && text.contains("RFC 9293 §3.10.7.4"), "\(text)")
        #expect(!text.contains("opened its port passively"), "\(text)")
        let first = try #require(w.steps.first { $0.headline.contains("CLOSED → LISTEN") })
        #expect(first.detail.joined().contains("opened its port passively"))
    }

    /// The SYN-ACK that answers the stale SYN acknowledges the old duplicate's seq, not a SYN the
    /// client sent on this connection: the sentence says so (English and Chinese), and the later
    /// SYN-ACK that answers the client's real SYN says it acknowledges the client's ISN.
    @Test(arguments: [Language.en, .zh])
    func theSYNACKSaysWhoseSYNItAnswers(language: Language) throws {
        let explanations = language.explanations
        let trace = try #require(try Self.lesson("tcp/old-duplicate-syn").run().trace)
        let w = Walkthrough(title: "tcp/old-duplicate-syn", trace: trace, width: 100_000, explanations: explanations)
        let synAcks = w.steps.filter { $0.kind == .event && $0.label.contains("TCP [SA]") }
        #expect(synAcks.count == 2, "\(synAcks.map(\.label))")
        let stale = explanations("tcp.synack.stale", ["sender": explanations.actorName("server"), "receiver": explanations.actorName("client"), "seq": "90"])
        let real = explanations("tcp.synack", ["sender": explanations.actorName("server"), "receiver": explanations.actorName("client")])
        #expect(synAcks.first?.detail.contains { $0.contains(stale ?? "-") } == true, "\(synAcks.first?.detail ?? [])")
        #expect(synAcks.last?.detail.contains { $0.contains(real ?? "-") } == true, "\(synAcks.last?.detail ?? [])")
        if explanations.language == Explanations.english.language {
            #expect(stale?.contains("the server acknowledges the old duplicate SYN (ack = its seq 90 + 1), not a SYN the client sent") == true)
        }
        // The printed ladder explains the stale one with the same sentence.
        let text = TextRenderer(width: 1000, explanations: explanations).render(trace).joined(separator: "\n")
        #expect(text.contains(stale ?? "-"))
    }
}
