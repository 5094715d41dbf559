@testable import Rendering
import Testing
import Simulation
import TestSupport

/// The Chinese catalogue's typography (docs/review-zh.md): full-width punctuation in Chinese
/// sentences, one space between Chinese and Latin letters or digits, “ ” quotes beside Chinese.
@Suite("Chinese typography: punctuation, spacing and quotes in the zh catalogue")
struct ChineseTypographyTests {
    @Test func theRulesCatchWhatTheyDescribe() {
        #expect(ChineseTypography.problems(in: "握手完成,双方持有相同的密钥.").count == 2)
        #expect(ChineseTypography.problems(in: "使用RSA密钥交换").count == 2)
        #expect(ChineseTypography.problems(in: "48字节").count == 1)
        #expect(ChineseTypography.problems(in: "客户端 ，服务器（ 预主密钥）").count == 2)
        #expect(ChineseTypography.problems(in: "标签为\"密钥扩展\"").count == 3)
        #expect(ChineseTypography.problems(in: "CLOSE —— 这一方没有数据").count == 2)
        #expect(ChineseTypography.problems(in: "服务器的证书续期了——新的证书序列号").isEmpty)
        #expect(ChineseTypography.problems(in: "使用 RSA 密钥交换，48 字节；标签为 \"key expansion\"。").isEmpty)
        #expect(ChineseTypography.problems(in: "{actor}：Hash(握手消息, {bytes} 字节)，用于 {purpose}").isEmpty, "a formula keeps its ASCII commas")
    }

    @Test func everyChineseCatalogueValueFollowsTheRules() {
        for (key, text) in Explanations.chineseText.sorted(by: { $0.key < $1.key }) {
            for problem in ChineseTypography.problems(in: text) {
                Issue.record("\(key): \(problem)")
            }
        }
    }

    /// No slip of the keyboard doubles 的 or a full-width mark. (的/地/得 themselves need a reader:
    /// 的地址 and 获得的 are right, so pairs of different particles cannot be flagged blindly.)
    @Test func noDoubledParticlesOrStops() {
        for (key, text) in Explanations.chineseText {
            for slip in ["的的", "。。", "，，", "：：", "；；", "、、"] where text.contains(slip) {
                Issue.record("\(key): '\(slip)' in \(text)")
            }
        }
    }
}

/// Lists inside a Chinese sentence of the walkthrough use the catalogue's separator (、) and the
/// catalogue's names of the secrets, not the trace's English ones.
@Suite("Chinese walkthrough: lists and secret names in sentences")
struct ChineseWalkthroughListTests {
    @Test func phaseSummaryAndUnreadNoteSpeakChinese() throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let w = Walkthrough(title: "rsa", trace: trace, width: 80, explanations: .chinese)
        let detail = w.steps.flatMap(\.detail)
        let knows = try #require(detail.first { $0.hasPrefix("现在谁知道什么") })
        #expect(knows.contains("预主密钥、主密钥"), "\(knows)")
        #expect(!knows.contains("premaster secret") && !knows.contains(", "), "\(knows)")
        let segment = try #require(detail.first { $0.contains("ServerHello") && $0.contains("Certificate") && $0.contains("字节流") })
        #expect(segment.contains("ServerHello、Certificate"), "\(segment)")

        let english = Walkthrough(title: "rsa", trace: trace, width: 80)
        let englishKnows = try #require(english.steps.flatMap(\.detail).first { $0.hasPrefix("Who knows what now") })
        #expect(englishKnows.contains("premaster secret, master secret"), "\(englishKnows)")
    }
}

/// Padded labels keep the English label's display width, so what follows them (and the wrapped
/// lines indented to match) stays in one column.
@Suite("Chinese padded labels keep their width")
struct ChinesePaddedLabelTests {
    @Test func atsResultLabelsAreAsWideAsTheEnglishOnes() {
        for key in ["ats.result.applies", "ats.result.failed", "ats.result.passed", "ats.result.relaxed"] {
            let english = Explanations.english(key) ?? "", chinese = Explanations.chinese(key) ?? ""
            #expect(DisplayWidth.columns(chinese) == DisplayWidth.columns(english), "\(key): «\(chinese)» vs «\(english)»")
        }
    }
}
