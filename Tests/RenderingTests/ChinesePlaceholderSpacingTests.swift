import Languages
@testable import Rendering
import Testing

/// Review-zh finding 3.8 (rule d): a value the catalogue cannot know (a secret's name, a check's kind)
/// gets one space where its Latin letter or digit touches a Han character of the Chinese sentence;
/// a Chinese value touches Chinese as written; English is filled as written.
@Suite("Chinese placeholder spacing")
struct ChinesePlaceholderSpacingTests {
    static let zh = Explanations(text: ["k": "窃听者得知了{what}：{value}", "m": "深度 {depth} 的{kind}检查", "p": "{actor}发送"], language: .zh)

    @Test func latinValuesAreSpacedFromHan() {
        #expect(Self.zh("k", ["what": "HTTP 请求", "value": "GET /"]) == "窃听者得知了 HTTP 请求：GET /")
        #expect(Self.zh("k", ["what": "client_write_key", "value": "b9"]) == "窃听者得知了 client_write_key：b9")
        #expect(Self.zh("m", ["depth": "1", "kind": "keyCertSign"]) == "深度 1 的 keyCertSign 检查")
        #expect(Self.zh("m", ["depth": "1", "kind": "CA 标志"]) == "深度 1 的 CA 标志检查")
    }

    @Test func chineseValuesAndEnglishAreFilledAsWritten() {
        #expect(Self.zh("p", ["actor": "客户端"]) == "客户端发送")
        #expect(Self.zh("m", ["depth": "1", "kind": "密钥用法"]) == "深度 1 的密钥用法检查")
        let en = Explanations(text: ["k": "learned{what}x"], language: .en)
        #expect(en("k", ["what": "HTTP"]) == "learnedHTTPx")
    }
}
