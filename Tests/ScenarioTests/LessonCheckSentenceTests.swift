import Foundation
import Languages
import Rendering
import Testing
@testable import Scenarios

/// Issue #33: "What this lesson showed" says in a sentence what each expectation checked — every fact
/// a lesson file may expect, in English and in Chinese.
@Suite("Every expectation a lesson can state has a sentence, in English and Chinese")
struct LessonCheckSentenceTests {
    /// Values to try for a fact of `kind`: each word of an enumeration, both booleans, 0, 1 and 2.
    static func values(_ kind: ExpectationReader.Kind) -> [String] {
        switch kind {
        case .enumeration(let words): return words
        case .bool: return ["true", "false"]
        case .int, .intOrMinusOne: return ["0", "1", "2"]
        default: return ["[a, b]"]
        }
    }

    static func hasHan(_ s: String) -> Bool { s.unicodeScalars.contains { (0x4E00 ... 0x9FFF).contains($0.value) } }

    @Test(arguments: ["tls", "tcp", "ats", "dh"])
    func everyFactOfTheSchemaHasASentence(kind: String) {
        for (key, type) in ExpectationReader.schema(for: kind) {
            let keys: [(String, [String])] = if case .summary = type {
                ExpectationReader.summaryKeys.map { ("summary." + $0, ["x"]) }
            } else {
                [(key, Self.values(type))]
            }
            for (key, values) in keys {
                for value in values {
                    let english = Language.en.explanations.checkSentence(key: key, value: value)
                    let chinese = Language.zh.explanations.checkSentence(key: key, value: value)
                    #expect(english != nil, "\(kind): \(key): \(value) has no English sentence")
                    #expect(chinese.map(Self.hasHan) == true, "\(kind): \(key): \(value) has no Chinese sentence: \(chinese ?? "nil")")
                    if let english { #expect(english.hasSuffix(".") && !english.contains("{"), "\(key): \(english)") }
                    if let chinese { #expect(chinese.hasSuffix("。") && !chinese.contains("{"), "\(key): \(chinese)") }
                }
            }
        }
    }

    /// A value with a sentence of its own is not worded by the general one: `handshake: failure` does
    /// not say the handshake completed, `retransmissions: 0` is "no segment", 1 is singular.
    @Test func valuesWithTheirOwnSentence() {
        let en = Language.en.explanations
        #expect(en.checkSentence(key: "handshake", value: "failure") == "The TLS handshake did not complete.")
        #expect(en.checkSentence(key: "retransmissions", value: "0") == "No segment was retransmitted.")
        #expect(en.checkSentence(key: "retransmissions", value: "1") == "One segment was retransmitted.")
        #expect(en.checkSentence(key: "retransmissions", value: "3") == "3 segments were retransmitted.")
        #expect(en.checkSentence(key: "summary.cipher_suite", value: "TLS_RSA_WITH_AES_128_GCM_SHA256")
                == "The run's JSON summary has cipher_suite = TLS_RSA_WITH_AES_128_GCM_SHA256.")
        #expect(en.checkSentence(key: "no_such_fact", value: "1") == nil)
    }
}
