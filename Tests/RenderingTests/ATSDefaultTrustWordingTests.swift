import Foundation
import PKI
@testable import Rendering
import Testing
import Trace

/// ATS's default-trust rule names the evaluation's first failing check: the ladder words it in the
/// reader's language from the typed check (it used to quote PKI's English line in Chinese text too),
/// and JSON Lines carries the catalogue's English in the rule's `detail`.
@Suite("ATS default trust: the failing check worded in the reader's language")
struct ATSDefaultTrustWordingTests {
    static let check = ChainCheck(kind: .anchor, depth: 1, subject: "CN=Intermediate", passed: false,
                                  finding: .noPathToAnchor(issuer: "CN=Root", stores: [.systemRoots]))
    static let trace = Trace(events: [
        TraceEvent(time: 0, actor: .client, kind: .lesson(.atsRule(ATSRuleCheck(.defaultTrust, .relaxed, ["result": "recoverableTrustFailure"],
                                                                                relaxedBy: ["NSExceptionAllowsInsecureHTTPLoads"],
                                                                                firstFailure: check)))),
    ])

    @Test func theLadderWordsTheCheckInEachLanguage() {
        for explanations in [Explanations.english, Explanations.chinese] {
            let text = TextRenderer(width: 400, explanations: explanations).render(Self.trace).joined(separator: "\n")
            let detail = explanations.chainCheckDetail(Self.check)
            #expect(text.contains(detail), "\(detail) not in:\n\(text)")
        }
        let chinese = TextRenderer(width: 400, explanations: .chinese).render(Self.trace).joined(separator: "\n")
        #expect(!chinese.contains(Explanations.english.chainCheckDetail(Self.check)), "English in the Chinese ladder")
    }

    @Test func jsonCarriesTheCataloguesEnglish() throws {
        let line = try #require(JSONLinesRenderer().render(Self.trace).first { $0.contains("\"ats_rule\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let values = try #require(object["values"] as? [String: String], "\(line)")
        #expect(values["detail"] == Explanations.english.chainCheckDetail(Self.check), "\(line)")
        #expect(values["result"] == "recoverableTrustFailure")
    }
}
