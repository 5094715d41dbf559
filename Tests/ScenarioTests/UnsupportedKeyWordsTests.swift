import Foundation
import PKI
@testable import Rendering
@testable import Scenarios
import Testing

/// Issue #34: `PKIError.unsupportedKey` carries why as data (the key kind, size or hash), and the
/// catalogue words it in English and Chinese; a lesson's "cannot build the hierarchy" says the same
/// words as every other surface.
@Suite("Unsupported keys: typed, worded in en and zh")
struct UnsupportedKeyWordsTests {
    static let reasons: [UnsupportedKey] = [
        .rsaKeySize(bits: 511, label: "leaf"), .generationFailed(kind: .p384, label: "intermediate"), .ed25519Signer,
        .signingFailed(issuer: .p256), .noRSASignatureAlgorithm(hash: .md5), .ecdsaHash(.sha1),
        .weakRSALeafNeedsRSA(leaf: .p256), .sha1SignatureNeedsRSAIssuer(intermediate: .ed25519),
    ]

    @Test(arguments: reasons)
    func everyReasonIsWordedInBothLanguages(why: UnsupportedKey) {
        let en = Explanations.english.pkiError(.unsupportedKey(why))
        let zh = Explanations.chinese.pkiError(.unsupportedKey(why))
        #expect(en.hasPrefix("unsupported key: ") && !en.contains("pkiError."), "\(en)")
        #expect(zh.hasPrefix("不支持的密钥：") && !zh.contains("pkiError."), "\(zh)")
        #expect(ChineseWords.englishSentences(in: zh).isEmpty, "\(zh)")
        // The lesson reader's words for the same reason are the same catalogue entry.
        let part = ScenarioReader.unsupportedKeyWords(why)
        #expect(Explanations.chinese(part.key, part.values) == Explanations.chinese.unsupportedKey(why))
        #expect(Explanations.english(part.key, part.values) == Explanations.english.unsupportedKey(why))
    }

    @Test func theFactsAreInTheWords() {
        #expect(Explanations.english.unsupportedKey(.rsaKeySize(bits: 511, label: "leaf"))
            == "no RSA key of 511 bits can be generated for the certificate leaf: TLSLab generates RSA keys of 512 to 4096 bits, an even number")
        #expect(Explanations.chinese.unsupportedKey(.weakRSALeafNeedsRSA(leaf: .p256)).contains("p-256"))
        #expect(Explanations.chinese.unsupportedKey(.ecdsaHash(.sha1)).hasSuffix("不用 SHA-1"))
    }

    /// The PKI throws the reason as data.
    @Test func theHierarchyThrowsTheReason() {
        var spec = PKIHierarchySpec(defect: .rsa1024Leaf)
        spec.keyKinds = PKIKeyKinds(leaf: .p256)
        #expect(throws: PKIError.unsupportedKey(.weakRSALeafNeedsRSA(leaf: .p256))) { _ = try PKIHierarchy(spec) }
        var sha1 = PKIHierarchySpec(defect: .sha1Signature)
        sha1.keyKinds = PKIKeyKinds(intermediate: .p384)
        #expect(throws: PKIError.unsupportedKey(.sha1SignatureNeedsRSAIssuer(intermediate: .p384))) { _ = try PKIHierarchy(sha1) }
        #expect(throws: PKIError.unsupportedKey(.rsaKeySize(bits: 100, label: "x"))) { _ = try PKIKeyCache.key(seed: 1, label: "x", bits: 100) }
    }
}

/// The English-sentence detector of the command-line tests: three or more lowercase ASCII words in a row.
enum ChineseWords {
    static func englishSentences(in text: String) -> [String] {
        var runs: [String] = [], current: [Substring] = []
        func flush() { if current.count >= 3 { runs.append(current.joined(separator: " ")) }; current = [] }
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let ends = token.last.map { ".,;:!?)".contains($0) } ?? false
            let word = ends ? token.dropLast() : token
            if word.count >= 2 && word.allSatisfy({ $0.isASCII && $0.isLetter }) && word.dropFirst().allSatisfy(\.isLowercase) {
                current.append(word)
            } else { flush() }
            if ends { flush() }
        }
        flush()
        return runs
    }
}
