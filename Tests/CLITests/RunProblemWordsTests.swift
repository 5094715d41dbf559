import Foundation
import Languages
import Rendering
import Scenarios
import Testing
import TLSCrypto
@testable import tlslab

/// Issue #34: the run's own problems (the `script_errors` fact of a TCP lesson, the DH runner's
/// `error` fact) are typed (``RunProblem``) and worded by the catalogue, in `check --show-facts`, the
/// FAIL line and the lesson page, in English and Chinese; no engine debugging text.
@Suite("Lesson run problems: typed facts, worded in en and zh")
struct RunProblemWordsTests {
    /// The server sends before it has accepted anything; the client sends after its own close.
    static let lesson = """
    title: t
    description: a TCP lesson whose script asks for two steps the stack cannot carry out
    kind: tcp
    actions:
      - { at_ms: 0, do: connect }
      - { at_ms: 0, do: send, by: server, bytes: 10 }
      - { at_ms: 100, do: close, by: client }
      - { at_ms: 200, do: send, by: client, bytes: 10 }
    run_ms: 500
    expect:
      accepted: true

    """

    static func check(_ language: String) throws -> (line: String, facts: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-script-\(UUID().uuidString).yaml")
        try Self.lesson.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["check", "--show-facts", "--lang", language, file.path])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let fail = try #require(lines.first { $0.hasPrefix("FAIL ") }, "\(r.stdout)")
        let facts = try #require(lines.first { $0.hasPrefix("    script_errors: ") }, "\(r.stdout)")
        return (fail, facts)
    }

    @Test func scriptErrorsAreWordedInChinese() throws {
        let (fail, facts) = try Self.check("zh")
        let expected = "send：此时服务器没有连接；send：模拟的 TCP 拒绝了这次调用：连接正在关闭（RFC 9293 §3.10）"
        #expect(facts == "    script_errors: " + expected, "\(facts)")
        #expect(fail.contains(expected), "\(fail)")
        #expect(ChineseCLITests.englishSentences(in: facts).isEmpty && ChineseCLITests.englishSentences(in: fail).isEmpty, "\(fail)\n\(facts)")
        #expect(!facts.contains("no server connection") && !facts.contains("connectionClosing"), "\(facts)")
    }

    @Test func scriptErrorsAreWordedInEnglish() throws {
        let (fail, facts) = try Self.check("en")
        let expected = "send: the server has no connection at this step; send: the simulated TCP refuses the call: connection closing (RFC 9293 §3.10)"
        #expect(facts == "    script_errors: " + expected, "\(facts)")
        #expect(fail.contains(expected), "\(fail)")
    }

    /// The facts themselves are typed: kinds and values, not sentences.
    @Test func theFactIsTyped() throws {
        let scenario = try ScenarioParser.parse(text: Self.lesson, file: "lesson.yaml")
        let facts = scenario.run().facts
        #expect(facts["script_errors"] == .problems([.noConnection(action: "send", side: "server"), .refusedCall(action: "send", .connectionClosing)]))
        #expect(facts["script_errors"]?.description == "[noConnection(send, server), refusedCall(send, connectionClosing)]")
    }

    /// Every DH refusal the `error` fact may hold, in both languages.
    @Test(arguments: [DHError.peerValueOutOfRange, .peerValueNotInSubgroup, .peerValueTooLong(byteCount: 3, limit: 2),
                      .invalidPrivateExponent, .invalidGroup("p < 5"), .arithmetic(.evenModulus)])
    func everyDHErrorIsWorded(error: DHError) {
        let zh = FactWords.fact(.problems([.dh(error)]), Language.zh.explanations)
        #expect(ScenarioErrorWordsTests.hasHan(zh) && ChineseCLITests.englishSentences(in: zh).isEmpty && !zh.contains("dhError."), "\(zh)")
        let en = FactWords.fact(.problems([.dh(error)]), Language.en.explanations)
        #expect(!ScenarioErrorWordsTests.hasHan(en) && !en.contains("dhError.") && !en.contains("p < 5"), "\(en)")
    }
}
