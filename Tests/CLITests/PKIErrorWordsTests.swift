import Foundation
import Languages
import PKI
import Rendering
import Scenarios
import Simulation
import Testing
@testable import tlslab

/// Issue #34: a PKI error inside a lesson's explanation (`scenario.pki.cannotBuild`,
/// `scenario.pki.builtInDoNotLoad`) and a built-in run whose demo PKI does not load carry the error
/// typed; the catalogue words it in each language, never the error's English description.
@Suite("PKI errors in lesson and run messages: typed, worded in en and zh")
struct PKIErrorWordsTests {
    static let head = "title: t\ndescription: a lesson file with exactly one mistake in it\n"

    /// Files whose hierarchy cannot be built: the reader refuses each before the builder runs (so
    /// `scenario.pki.cannotBuild` is the builder's last word, reached by no shipped or sample file; its
    /// typed causes are checked below), and every refusal is Chinese after the located prefix.
    @Test(arguments: ["  defect: rsa-1024-leaf\n  keys: {leaf: p-256}\n", "  defect: sha1-signature\n  keys: {intermediate: p-384}\n",
                      "  keys: {root: ed25519}\n", "  key_bits: 1024\n  keys: {leaf: ed25519, root: p-521}\n  defect: self-signed\n"])
    func aHierarchyThatCannotBeBuiltIsExplainedInChinese(pki: String) throws {
        let text = Self.head + "pki:\n" + pki + "expect:\n  handshake: success\n"
        let error = try #require(ScenarioErrorWordsTests.error(text), "\(pki) was read")
        #expect(error.path.hasPrefix("pki"), "\(error)")
        try Self.expectChinese(error)
    }

    /// Every other PKI error and every built-in failure, typed, through the same words as `check`.
    static var causes: [ScenarioError.Words.Cause] {
        get throws {
            var causes: [ScenarioError.Words.Cause] = [
                .pki(.malformedCertificate(.missing(field: "TBSCertificate"))), .pki(.malformedCertificate(.derTruncated)),
                .pki(.notACertificate(source: "leaf", reason: .noCertificateBlock(labels: ["PRIVATE KEY"]))),
                .builtInPKI(.noCertificate(label: "demo-root")), .builtInPKI(.clientKey(.invalidKey("x"))),
                .builtInPKI(.clientCertificate(.malformedCertificate(.invalidValue(field: "serialNumber")))),
            ]
            // Real failures of the loaders, as the reader and the built-in runs meet them.
            let badCertificate = "-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n"
            #expect(throws: BuiltInPKIFailure.self) { _ = try BuiltInPKIFailure.loadCertificate(badCertificate, label: "demo-root") }
            do { _ = try BuiltInPKIFailure.loadCertificate(badCertificate, label: "demo-root") } catch { causes.append(.builtInPKI(error)) }
            do { _ = try BuiltInPKIFailure.loadRSAKey("-----BEGIN PUBLIC KEY-----\nMAMCAQA=\n-----END PUBLIC KEY-----\n", label: "demo-leaf") } catch {
                causes.append(.builtInPKI(error))
            }
            #expect(causes.count == 8)
            return causes
        }
    }

    @Test func everyTypedCauseIsWordedInBothLanguages() throws {
        for cause in try Self.causes {
            for key in ["scenario.pki.cannotBuild", "scenario.pki.builtInDoNotLoad"] {
                let error = ScenarioError(file: "lesson.yaml", line: 3, column: 3, path: "pki", "the English message", key,
                                          parts: ["error": .init(cause: cause)])
                try Self.expectChinese(error)
                let english = try #require(CheckCommand.explanation(error, explanations: Language.en.explanations))
                #expect(!english.contains("the English message") && !ScenarioErrorWordsTests.hasHan(english), "\(english)")
                #expect(english.hasPrefix(key.hasSuffix("cannotBuild") ? "the hierarchy cannot be built: " : "the built-in certificates do not load: "), "\(english)")
            }
        }
    }

    /// `tlslab run NAME` for a built-in run whose compiled-in PKI does not load.
    @Test func aBuiltInRunFailureIsWordedInBothLanguages() throws {
        for case .builtInPKI(let failure) in try Self.causes {
            let zh = ResolvedRun.failure(.demoPKI(failure), run: .rsa, explanations: Language.zh.explanations)
            #expect(zh.hasPrefix("内置运行 rsa 无法准备："), "\(zh)")
            #expect(ChineseCLITests.englishSentences(in: zh).isEmpty, "\(zh)")
            let en = ResolvedRun.failure(.demoPKI(failure), run: .rsa, explanations: Language.en.explanations)
            #expect(en.hasPrefix("the built-in run rsa cannot be set up: ") && (en.contains("built into TLSLab") || en.contains("demo client certificate")), "\(en)")
        }
    }

    static func expectChinese(_ error: ScenarioError) throws {
        let chinese = CheckCommand.located(error, explanations: Language.zh.explanations)
        let prefix = "\(error.file):\(error.line):\(error.column): \(error.path.isEmpty ? "" : error.path + ": ")"
        #expect(chinese.hasPrefix(prefix), "\(chinese)")
        let explanation = String(chinese.dropFirst(prefix.count))
        #expect(ScenarioErrorWordsTests.hasHan(explanation), "\(chinese)")
        #expect(!explanation.contains("pkiError") && !explanation.contains("builtInPKI"), "\(chinese)")
        #expect(ChineseCLITests.englishSentences(in: explanation).isEmpty, "English in: \(chinese)")
    }
}
