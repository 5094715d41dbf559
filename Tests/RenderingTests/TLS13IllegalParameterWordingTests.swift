@testable import Rendering
import Testing
import TLSEngine

/// Issue #37 item 1: a TLS 1.3 illegal_parameter names its rule as a typed case, never as the
/// engine's English; the catalogue words every case in English and Chinese, each with the section
/// of the RFC that states the rule.
@Suite("TLS 1.3 illegal_parameter rules worded in both languages")
struct TLS13IllegalParameterWordingTests {
    @Test(arguments: TLS13IllegalParameter.allCases)
    func everyRuleIsWordedWithItsSection(rule: TLS13IllegalParameter) {
        for explanations in [Explanations.english, Explanations.chinese] {
            let text = explanations.tls13IllegalParameter(rule)
            #expect(!text.contains("cause.tls13"), "\(rule): no sentence in the catalogue")
            #expect(text.contains("RFC 8446 §") || text.contains("RFC 7301 §"), "\(rule): \(text)")
            let failure = explanations.tls13Failure(.illegalParameter(rule))
            #expect(failure.contains(text) && failure.contains("illegal_parameter"), "\(failure)")
        }
    }

    /// Each rule has its own sentence: no two cases share a wording.
    @Test func theSentencesAreDistinct() {
        for explanations in [Explanations.english, Explanations.chinese] {
            let texts = TLS13IllegalParameter.allCases.map(explanations.tls13IllegalParameter)
            #expect(Set(texts).count == texts.count)
        }
    }

    /// The alert stays illegal_parameter whatever the rule (RFC 8446 §6.2).
    @Test func theAlertIsIllegalParameter() {
        for rule in TLS13IllegalParameter.allCases {
            #expect(TLS13Failure.illegalParameter(rule).alert == .illegalParameter)
        }
    }
}
