@testable import Rendering
import Simulation
import Testing
import Trace

/// The TCP handshake's generic sentences name the segment's real sender and receiver, taken from
/// the step: behind a man in the middle the attacker answers the client's SYN and the server the
/// attacker's, and each SYN-ACK says so, in English and in Chinese (walkthrough and printed ladder).
@Suite("Sentences name the real actor")
struct RealActorSentenceTests {
    static func mitm() throws -> Trace { Simulation(try BuiltInRun.mitm.setup(seed: 1)).run() }

    /// Each SYN-ACK step of the walkthrough, as (sender, receiver, its detail).
    static func synAcks(_ walk: Walkthrough, _ trace: Trace) -> [(from: Actor?, to: Actor?, detail: String)] {
        walk.steps.compactMap { step in
            guard step.kind == .event, case .tcp(.sent(let p)) = trace.events[step.eventIndex].kind,
                  p.segment.flags.contains(.syn), p.segment.ack != nil else { return nil }
            return (step.mark?.from, step.mark?.to, step.detail.joined(separator: " "))
        }
    }

    @Test func englishSYNACKsNameTheirSenders() throws {
        let trace = try Self.mitm()
        let found = Self.synAcks(Walkthrough(title: "mitm", trace: trace, width: 100_000), trace)
        #expect(found.count == 2, "\(found.map(\.detail))")
        for synAck in found {
            switch (synAck.from, synAck.to) {
            case (.attacker, .client):
                #expect(synAck.detail.contains("SYN-ACK: the attacker acknowledges the client's ISN + 1"), "\(synAck.detail)")
            case (.server, .attacker):
                #expect(synAck.detail.contains("SYN-ACK: the server acknowledges the attacker's ISN + 1"), "\(synAck.detail)")
            default:
                Issue.record("a SYN-ACK from \(String(describing: synAck.from)) to \(String(describing: synAck.to))")
            }
            #expect(!synAck.detail.contains("the server acknowledges the client's ISN"), "\(synAck.detail)")
        }
        // The printed ladder explains the first SYN-ACK (the attacker's, to the client) with the same actors.
        let text = TextRenderer(width: 1000).render(trace).joined(separator: "\n")
        #expect(text.contains("SYN-ACK: the attacker acknowledges the client's ISN + 1"))
        // The third segment: the client acknowledges the attacker's SYN.
        #expect(text.contains("ACK: the client acknowledges the attacker's SYN (ack = attacker ISN + 1)"))
    }

    @Test func chineseSYNACKsNameTheirSenders() throws {
        let trace = try Self.mitm()
        let found = Self.synAcks(Walkthrough(title: "mitm", trace: trace, width: 100_000, explanations: .chinese), trace)
        #expect(found.count == 2)
        for synAck in found {
            switch (synAck.from, synAck.to) {
            case (.attacker, .client):
                #expect(synAck.detail.contains("SYN-ACK：攻击者确认客户端的 ISN（确认号 = 客户端 ISN + 1）"), "\(synAck.detail)")
            case (.server, .attacker):
                #expect(synAck.detail.contains("SYN-ACK：服务器确认攻击者的 ISN（确认号 = 攻击者 ISN + 1）"), "\(synAck.detail)")
            default:
                Issue.record("a SYN-ACK from \(String(describing: synAck.from)) to \(String(describing: synAck.to))")
            }
        }
    }

    /// The handshake messages' sentences name their sender and receiver too: behind the man in the
    /// middle the client's ServerHello, Certificate and ServerHelloDone come from the attacker.
    @Test(arguments: ["en", "zh"])
    func handshakeSentencesNameTheirSenders(language: String) throws {
        let explanations = language == "en" ? Explanations.english : .chinese
        let trace = try Self.mitm()
        let walk = Walkthrough(title: "mitm", trace: trace, width: 100_000, explanations: explanations)
        let english = explanations.language == Explanations.english.language
        var checked = 0, byAttacker = 0
        for step in walk.steps where step.kind == .event {
            guard case .tls(.handshakeSent(let message, _)) = trace.events[step.eventIndex].kind,
                  let from = step.mark?.from, let to = step.mark?.to else { continue }
            let text = step.detail.joined(separator: " ")
            let sender = explanations.actorName(from.rawValue), receiver = explanations.actorName(to.rawValue)
            switch message.type.messageName {
            case "ServerHello":
                #expect(text.contains(english ? "ServerHello: the \(sender) picks the version" : "ServerHello：\(sender)选定版本"), "\(text)")
                checked += 1
            case "Certificate" where to != .server:
                #expect(text.contains(english ? "Certificate: the \(sender)'s certificate chain" : "Certificate：\(sender)的证书链"), "\(text)")
                #expect(text.contains(english ? "The \(receiver) checks each signature" : "\(receiver)逐级验证签名"), "\(text)")
                checked += 1
            case "ServerHelloDone":
                #expect(text.contains(english ? "the \(sender) has said everything for now and waits for the \(receiver)"
                                              : "\(sender)这一轮要说的都说完了，等待\(receiver)"), "\(text)")
                checked += 1
            default:
                continue
            }
            if from == .attacker { byAttacker += 1 }
        }
        // The client refuses the attacker's certificate before the attacker reaches the server.
        #expect(byAttacker == 3 && checked == 3, "the attacker's ServerHello, Certificate and ServerHelloDone (\(byAttacker), \(checked))")
    }

    /// Without a man in the middle the sentences read as before.
    @Test func aDirectRunReadsAsBefore() throws {
        let text = TextRenderer(width: 1000).render(Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()).joined(separator: "\n")
        #expect(text.contains("SYN: the client proposes its initial sequence number (ISN)."))
        #expect(text.contains("SYN-ACK: the server acknowledges the client's ISN + 1 and proposes its own ISN."))
        #expect(text.contains("ACK: the client acknowledges the server's SYN (ack = server ISN + 1)."))
    }
}
