import Foundation
import PKI
import Testing
import Trace
@testable import Rendering
@testable import Scenarios

/// `handlers`: one TLS world, several ServerTrust challenge handlers side by side, each with its own
/// `expect` — and the lesson built on it, `challenge/three-dispositions` (issue #35).
@Suite("handlers: several challenge handlers in one lesson")
struct HandlersLessonTests {
    static let lesson = "challenge/three-dispositions"
    static var file: String { Library.root + "/" + lesson + ".yaml" }

    static func twoHandlers(_ first: String = "  - answer: performDefaultHandling\n    expect: { handshake: failure }\n") -> String {
        "title: t\ndescription: a description long enough to teach\nclient:\n  trust: []\nhandlers:\n" + first
            + "  - answer: useCredential\n    expect: { handshake: success }\n"
    }

    // MARK: Parsing

    @Test func handlersParseInFileOrderWithTheirOwnExpectations() throws {
        let s = try ScenarioParser.parse(text: Self.twoHandlers(), file: "t.yaml")
        #expect(s.handlers.map(\.name) == ["performDefaultHandling", "useCredential"])
        #expect(s.expectations.isEmpty && s.isChecked)
        let variants = s.variants()
        #expect(variants.count == 2)
        #expect(variants.map { $0.handlerChoice?.name } == ["performDefaultHandling", "useCredential"])
        #expect(variants.map { $0.expectations.map(\.key) } == [["handshake"], ["handshake"]])
        for (v, d) in zip(variants, [ChallengeDisposition.performDefaultHandling, .useCredential]) {
            guard case .tls(let w) = v.world, case .fixedAnswer(let answer) = w.policy else { Issue.record("not a fixed answer"); continue }
            #expect(answer == d)
        }
        guard case .pass = ScenarioCheck.check(s) else { Issue.record("\(ScenarioCheck.check(s).line)"); return }
    }

    @Test func aHandlerMayBeAFullPolicyAndBeNamed() throws {
        let text = Self.twoHandlers("  - name: af-none\n    policy: { afnetworking: { mode: none } }\n    expect: { handshake: failure }\n")
        let s = try ScenarioParser.parse(text: text, file: "t.yaml")
        #expect(s.handlers.map(\.name) == ["af-none", "useCredential"])
    }

    /// Every mistake is located: file, line, column, the key path inside the list, what was expected.
    @Test func badHandlersAreLocatedErrors() throws {
        let misspelt = Self.twoHandlers("  - anwser: performDefaultHandling\n    expect: { handshake: failure }\n")
        let e1 = try #require(validationError(misspelt))
        #expect(e1.description.hasPrefix("t.yaml:6:5: handlers[0].anwser: unknown key 'anwser'"), "\(e1)")
        #expect(e1.description.contains("did you mean 'answer'"))

        let reject = Self.twoHandlers("  - answer: rejectProtectionSpace\n    expect: { handshake: failure }\n")
        let e2 = try #require(validationError(reject))
        #expect(e2.path == "handlers[0].answer" && e2.line == 6, "\(e2)")
        #expect(e2.message.contains("performDefaultHandling, useCredential, cancelAuthenticationChallenge"))

        let noExpect = Self.twoHandlers("  - answer: performDefaultHandling\n")
        let e3 = try #require(validationError(noExpect))
        #expect(e3.path == "handlers[0].expect" && e3.message.contains("missing required key 'expect'"), "\(e3)")

        let badFact = Self.twoHandlers("  - answer: performDefaultHandling\n    expect: { handshak: failure }\n")
        let e4 = try #require(validationError(badFact))
        #expect(e4.path == "handlers[0].expect.handshak" && e4.line == 7, "\(e4)")

        let both = Self.twoHandlers() + "expect:\n  handshake: success\n"
        let e5 = try #require(validationError(both))
        #expect(e5.path == "expect" && e5.message.hasPrefix("contradiction"), "\(e5)")

        let withPolicy = Self.twoHandlers().replacingOccurrences(of: "  trust: []\n", with: "  trust: []\n  policy: { system: {} }\n")
        let e6 = try #require(validationError(withPolicy))
        #expect(e6.path == "handlers" && e6.message.contains("client.policy"), "\(e6)")

        let one = "title: t\ndescription: a description long enough to teach\nhandlers:\n  - answer: useCredential\n    expect: { handshake: success }\n"
        let e7 = try #require(validationError(one))
        #expect(e7.path == "handlers" && e7.message.contains("2 to 4 handlers"), "\(e7)")

        let twice = Self.twoHandlers("  - answer: useCredential\n    expect: { handshake: success }\n")
        let e8 = try #require(validationError(twice))
        #expect(e8.path == "handlers[1]" && e8.message.contains("two handlers are named 'useCredential'"), "\(e8)")

        let tcp = "title: t\ndescription: a description long enough to teach\nkind: tcp\nhandlers: []\nexpect: { accepted: true }\n"
        let e9 = try #require(validationError(tcp))
        #expect(e9.path == "handlers" && e9.message.contains("does not apply to a scenario of kind tcp"), "\(e9)")
    }

    /// `check` names the handler whose expectation failed.
    @Test func checkReportsTheFailingHandler() throws {
        let wrong = Self.twoHandlers().replacingOccurrences(of: "expect: { handshake: success }", with: "expect: { handshake: failure }")
        let s = try ScenarioParser.parse(text: wrong, file: "t.yaml")
        #expect(ScenarioCheck.check(s).line == "FAIL t: handlers[1] useCredential: handshake: expected failure, got success")
    }

    // MARK: The lesson

    @Test func theLessonPassesIsTranslatedAndOpensTheChallengeTopic() throws {
        guard case .pass = ScenarioCheck.check(file: Self.file) else { Issue.record("\(ScenarioCheck.check(file: Self.file).line)"); return }
        let s = try ScenarioParser.parse(contentsOf: Self.file)
        #expect(s.handlers.map(\.name) == ["performDefaultHandling", "useCredential", "cancelAuthenticationChallenge"])
        #expect(s.handlers.allSatisfy { $0.expectations.count >= 5 })
        #expect(s.chinese != nil && s.chinese?.tryNext.count == s.tryNext.count)
        let path = LessonCatalogue(directory: Library.root).path.map(\.name)
        let i = try #require(path.firstIndex(of: Self.lesson))
        #expect(path[i - 1].hasPrefix("afnetworking/") && path[i + 1].hasPrefix("challenge/"))
    }

    static func facts(_ handler: Int) throws -> [String: FactValue] {
        try ScenarioParser.parse(contentsOf: file).variants()[handler].run().facts
    }

    /// PerformDefaultHandling: "as though this delegate method were not implemented" (Apple,
    /// URLSession.AuthChallengeDisposition) — the system evaluates the trust; the root is unknown.
    @Test func defaultHandlingLetsTheSystemEvaluationDecide() throws {
        let f = try Self.facts(0)
        #expect(f["disposition"] == .string("performDefaultHandling"))
        #expect(f["trust"] == .string("rejected") && f["first_failing_check"] == .string("anchor"))
        #expect(f["handshake"] == .string("failure") && f["alert"] == .string("unknown_ca"))
        #expect(f["url_error"] == .string("other"))
        guard case .list(let reasons)? = f["reason_includes"] else { Issue.record("no reasons"); return }
        #expect(reasons.contains("defaultHandling") && reasons.contains("fixedAnswer.performDefaultHandling"))
        // The same handler with the root trusted: the system's evaluation now accepts (the try_next).
        var text = try String(contentsOfFile: Self.file, encoding: .utf8)
        text = text.replacingOccurrences(of: "  trust: []\n", with: "  trust: [demo-root]\n")
        let trusted = try ScenarioParser.parse(text: text, file: "t.yaml").variants()
        #expect(trusted.map { $0.run().facts["handshake"] } == [.string("success"), .string("success"), .string("failure")])
        #expect(trusted[2].run().facts["url_error"] == .string("NSURLErrorCancelled"))
    }

    /// UseCredential with a credential for the server trust: the connection proceeds although the
    /// system's own evaluation fails (first_failing_check anchor) — the handler vouched for the server.
    @Test func useCredentialProceedsWhateverTheChain() throws {
        let f = try Self.facts(1)
        #expect(f["disposition"] == .string("useCredential") && f["trust"] == .string("accepted"))
        #expect(f["first_failing_check"] == .string("anchor"))
        #expect(f["handshake"] == .string("success") && f["http_response"] == .bool(true) && f["url_error"] == .string("none"))
    }

    /// CancelAuthenticationChallenge: "Cancel the entire request"; a cancelled task ends with
    /// NSURLErrorCancelled (−999) (Apple, URLSession.AuthChallengeDisposition, NSURLErrorCancelled).
    @Test func cancelFailsTheRequestWithNSURLErrorCancelled() throws {
        let f = try Self.facts(2)
        #expect(f["disposition"] == .string("cancelAuthenticationChallenge") && f["trust"] == .string("rejected"))
        #expect(f["handshake"] == .string("failure") && f["http_response"] == .bool(false))
        #expect(f["url_error"] == .string("NSURLErrorCancelled"))
        // The same answer to a valid chain is cancelled all the same.
        var text = try String(contentsOfFile: Self.file, encoding: .utf8)
        text = text.replacingOccurrences(of: "  trust: []\n", with: "  trust: [demo-root]\n")
        #expect(try ScenarioParser.parse(text: text, file: "t.yaml").variants()[2].run().facts["handshake"] == .string("failure"))
    }

    /// Each handler's decision is worded in both languages with what its answer means.
    @Test func eachAnswerIsExplainedInBothLanguages() throws {
        let variants = try ScenarioParser.parse(contentsOf: Self.file).variants()
        let keys = ["trust.fixedAnswer.performDefaultHandling", "trust.fixedAnswer.useCredential", "trust.fixedAnswer.cancelAuthenticationChallenge"]
        for (variant, key) in zip(variants, keys) {
            let trace = try #require(variant.run().trace)
            let out = Issue35SentencesTests.outputs(trace, name: Self.lesson)
            let en = try #require(Explanations.english(key)), zh = try #require(Explanations.chinese(key))
            #expect(out.en.contains(en), "\(key) in English")
            #expect(out.zh.contains(zh), "\(key) in Chinese")
        }
        #expect(Explanations.english("trust.fixedAnswer.cancelAuthenticationChallenge")?.contains("NSURLErrorCancelled (−999)") == true)
    }
}
