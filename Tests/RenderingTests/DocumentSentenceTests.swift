@testable import Rendering
import Simulation
import Testing
import Trace

/// Issue #32 items 1 and 2: the document's sentences are catalogue keys with language-neutral
/// values, worded at the last moment by each surface; the generic ones take their sender and
/// receiver from the step they explain.
@Suite("Document sentences: keys and values, worded last")
struct DocumentSentenceTests {
    static let runs: [BuiltInRun] = [.rsa, .ecdhe, .mitm, .mitmTrusting, .strip, .replay, .lossy, .resumption, .h2, .untrusted]

    static func document(_ trace: Trace, _ explanations: Explanations) -> RunDocument {
        RunDocumentBuilder(verbosity: .bytes, width: 200, explanations: explanations).prepared(for: trace).document(for: trace)
    }

    /// Every sentence that names a sender or a receiver names the parties of its step's arrow.
    @Test(arguments: runs)
    func sentencesNameTheirStepsParties(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let document = Self.document(trace, .english)
        var named = 0
        for step in document.steps {
            for entry in step.entries {
                guard let sentence = entry.sentence, sentence.values["sender"] != nil || sentence.values["receiver"] != nil else { continue }
                guard case .message(let from, let to, _, _) = step.kind else {
                    Issue.record("\(run.rawValue) event \(step.eventIndex): \(sentence.key) names a sender on a step that is no message")
                    continue
                }
                named += 1
                if let sender = sentence.values["sender"] { #expect(sender == from.rawValue, "\(run.rawValue) \(step.eventIndex) \(sentence.key)") }
                if let receiver = sentence.values["receiver"] { #expect(receiver == to.rawValue, "\(run.rawValue) \(step.eventIndex) \(sentence.key)") }
                #expect(entry.text == Explanations.english.sentence(sentence))
            }
        }
        #expect(named >= 4, "\(run.rawValue): \(named) sentences name their parties")
        if run == .mitm {
            // The attacker answers the client's SYN and sends the client its ServerHello.
            let byAttacker = document.steps.flatMap(\.entries).compactMap(\.sentence).filter { $0.values["sender"] == "attacker" }
            #expect(Set(byAttacker.map(\.key)).isSuperset(of: ["tcp.synack", "tls.ServerHello"]), "\(byAttacker.map(\.key))")
        }
    }

    /// A document built in English and worded in Chinese at the last moment says what the document
    /// built in Chinese says, sentence for sentence.
    @Test(arguments: runs)
    func sentencesAreWordedLast(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let english = Self.document(trace, .english), chinese = Self.document(trace, .chinese)
        #expect(english.steps.count == chinese.steps.count)
        var compared = 0
        for (e, z) in zip(english.steps, chinese.steps) {
            let inEnglish = e.entries.filter { $0.sentence != nil }, inChinese = z.entries.filter { $0.sentence != nil }
            #expect(inEnglish.count == inChinese.count, "\(run.rawValue) event \(e.eventIndex)")
            for (a, b) in zip(inEnglish, inChinese) {
                #expect(a.sentence == b.sentence)
                #expect(a.worded(in: .chinese) == b.text, "\(run.rawValue) event \(e.eventIndex)")
                #expect(b.worded(in: .english) == a.text, "\(run.rawValue) event \(e.eventIndex)")
                compared += 1
            }
        }
        #expect(compared >= 8, "\(run.rawValue): \(compared) sentences")
    }

    /// The printer and the page word a sentence in their own language: the entry's stored text is
    /// not what they print.
    @Test func thePrinterWordsTheSentence() throws {
        let trace = Simulation(try BuiltInRun.mitm.setup(seed: 1)).run()
        let document = Self.document(trace, .english)
        let entry = try #require(document.steps.flatMap(\.entries).first { $0.sentence?.key == "tcp.synack" })
        let printer = LadderPrinter(width: 200, explanations: .chinese, ladderStyle: .walkthrough)
        let printed = printer.print(entry).joined(separator: " ")
        #expect(printed.contains("SYN-ACK：攻击者确认客户端的 ISN"), "\(printed)")
    }
}
