import Foundation
@testable import Scenarios
import Testing
import TestSupport

@Suite("Lessons in Chinese: title_zh, description_zh, try_next_zh read, validated and chosen by language")
struct ChineseLessonTests {
    let zh = "title_zh: 一次成功的握手\ndescription_zh: 客户端与服务器完成 TLS 1.2 握手，并交换一个 HTTP 请求与响应。\n"

    @Test func readsTheChineseWordsAndPicksByLanguage() throws {
        let s = try ScenarioParser.parse(text: minimal(zh + "try_next:\n  - Set ems to false and the master secret uses the randoms.\n"
                                                      + "try_next_zh:\n  - 把 ems 设为 false：主密钥只由两个随机数和预主密钥算出。\n"), file: "t.yaml")
        #expect(s.title(for: .zh) == "一次成功的握手")
        #expect(s.title(for: .en) == "t")
        #expect(s.description(for: .zh) == "客户端与服务器完成 TLS 1.2 握手，并交换一个 HTTP 请求与响应。")
        #expect(s.description(for: .en) == "a description long enough to teach")
        #expect(s.tryNext(for: .zh) == ["把 ems 设为 false：主密钥只由两个随机数和预主密钥算出。"])
        #expect(s.tryNext(for: .en) == ["Set ems to false and the master secret uses the randoms."])
    }

    @Test func aFileWithoutChineseIsShownInEnglish() throws {
        let s = try ScenarioParser.parse(text: minimal(), file: "t.yaml")
        #expect(s.chinese == nil)
        #expect(s.title(for: .zh) == "t" && s.description(for: .zh) == s.description)
    }

    @Test func aMissingTitleZhIsNamedWhereTheTitleIs() {
        let e = validationError(minimal("description_zh: 客户端与服务器完成 TLS 1.2 握手，并交换一个 HTTP 请求与响应。\n"))
        #expect(e?.path == "title_zh" && e?.line == 1 && e?.file == "t.yaml", "\(e.map { "\($0)" } ?? "valid")")
        #expect(e?.message.contains("missing required key 'title_zh'") == true)
    }

    @Test func aMissingDescriptionZhIsNamedWhereTheDescriptionIs() {
        let e = validationError(minimal("title_zh: 一次成功的握手\n"))
        #expect(e?.path == "description_zh" && e?.line == 2, "\(e.map { "\($0)" } ?? "valid")")
    }

    @Test func aTooShortDescriptionZhIsRefusedAtItsLine() {
        let e = validationError(minimal("title_zh: 一次成功的握手\ndescription_zh: 握手成功。\n"))
        #expect(e?.path == "description_zh" && e?.line == 4, "\(e.map { "\($0)" } ?? "valid")")
        #expect(e?.message.contains("at least 20 characters") == true)
    }

    @Test func englishCopiedIntoAZhFieldIsRefused() {
        let title = validationError(minimal("title_zh: The handshake\ndescription_zh: 客户端与服务器完成 TLS 1.2 握手，并交换一个 HTTP 请求与响应。\n"))
        #expect(title?.path == "title_zh" && title?.line == 3, "\(title.map { "\($0)" } ?? "valid")")
        let description = validationError(minimal("title_zh: 握手\ndescription_zh: a description long enough to teach\n"))
        #expect(description?.path == "description_zh" && description?.message.contains("in Chinese") == true)
        let multiline = validationError(minimal("title_zh: |\n  握手\n  第二行\n" + "description_zh: 客户端与服务器完成 TLS 1.2 握手，并交换一个 HTTP 请求与响应。\n"))
        #expect(multiline?.path == "title_zh")
    }

    @Test func tryNextZhHasOneLineForEachTryNextLine() {
        let two = "try_next:\n  - Set ems to false and the master secret uses the randoms.\n  - Change the seed and every random value changes.\n"
        let one = validationError(minimal(zh + two + "try_next_zh:\n  - 把 ems 设为 false，再看主密钥。\n"))
        #expect(one?.path == "try_next_zh" && one?.line == 8, "\(one.map { "\($0)" } ?? "valid")")
        #expect(one?.message.contains("expected 2 lines, one for each try_next line, got 1") == true)
        let missing = validationError(minimal(zh + two))
        #expect(missing?.path == "try_next_zh" && missing?.line == 5, "\(missing.map { "\($0)" } ?? "valid")")
        let orphan = validationError(minimal(zh + "try_next_zh:\n  - 把 ems 设为 false，再看主密钥。\n"))
        #expect(orphan?.path == "try_next_zh" && orphan?.message.contains("no try_next") == true)
        let short = validationError(minimal(zh + "try_next:\n  - Change the seed and every random value changes.\n" + "try_next_zh:\n  - 换种子\n"))
        #expect(short?.path == "try_next_zh[0]", "\(short.map { "\($0)" } ?? "valid")")
    }

    @Test func foldedChineseLinesJoinWithoutSpaces() throws {
        let text = minimal("title_zh: 握手\ndescription_zh: >\n  客户端先发送\n  ClientHello，服务器用\n  ServerHello 回答；两条消息\n  各带一个随机数。\n")
        let s = try ScenarioParser.parse(text: text, file: "t.yaml")
        #expect(s.description(for: .zh) == "客户端先发送 ClientHello，服务器用 ServerHello 回答；两条消息各带一个随机数。")
    }

    @Test func theCatalogueCarriesTheChineseTitle() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("zh-\(UUID().uuidString)/tls")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        try minimal(zh).write(to: dir.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        let c = LessonCatalogue(directory: dir.deletingLastPathComponent().path)
        #expect(c.problems.isEmpty, "\(c.problems)")
        #expect(c.entry(named: "tls/one")?.title(for: .zh) == "一次成功的握手")
        #expect(c.filtered(by: ["握手"]).map(\.name) == ["tls/one"])
    }

    /// Every lesson the repository ships is translated: the Chinese words are there and valid
    /// (parsing enforces the rules once one of them is present).
    @Test func everyLessonInTheLibraryHasChinese() throws {
        let files = Library.files
        #expect(files.count >= 100)
        for file in files {
            let s = try ScenarioParser.parse(contentsOf: file)
            guard let chinese = s.chinese else { Issue.record("\(file): no title_zh / description_zh"); continue }
            #expect(chinese.tryNext.count == s.tryNext.count, "\(file)")
            #expect(chinese.description.count >= 30, "\(file): a Chinese description that teaches its point")
            #expect(!chinese.description.contains("  "), "\(file): a doubled space in description_zh")
            let pairs = [(s.title, chinese.title), (s.description, chinese.description)] + Array(zip(s.tryNext, chinese.tryNext))
            for (english, translated) in pairs {
                for token in Self.untranslated(in: english) where !translated.contains(token) {
                    Issue.record("\(file): '\(token)' is in the English text but not in the Chinese")
                }
            }
        }
        let catalogue = LessonCatalogue(directory: Library.root)
        #expect(catalogue.problems.isEmpty, "\(catalogue.problems)")
        #expect(catalogue.entries.allSatisfy { $0.chinese != nil })
    }

    /// One term per concept, the same as the Chinese catalogue's glossary: these renderings are
    /// the ones it rules out (警报 for 告警, 重发 for 重传, 服务端 for 服务器, 信任链 for 证书链, …).
    static let ruledOutTerms = ["三路握手", "四路挥手", "服务端", "预主秘钥", "预备主密钥", "主秘钥", "秘钥", "信任链", "叶证书",
                                "散列", "加密套件", "前向加密", "监听者", "证书固定", "公钥固定", "钉扎", "双向验证", "警报",
                                "应答号", "确认序号", "重发", "三路", "简短握手", "公钥值", "录音", "版本回退", "窃贼", "质询"]

    /// The catalogue's typography rules (TestSupport.ChineseTypography) hold in every lesson's
    /// Chinese words too.
    @Test func lessonsFollowTheChineseTypography() throws {
        for file in Library.files {
            let s = try ScenarioParser.parse(contentsOf: file)
            guard let chinese = s.chinese else { continue }
            for text in [chinese.title, chinese.description] + chinese.tryNext {
                for problem in ChineseTypography.problems(in: text) {
                    Issue.record("\(file): \(problem)")
                }
            }
        }
    }

    @Test func lessonsUseTheGlossaryTerms() throws {
        for file in Library.files {
            let s = try ScenarioParser.parse(contentsOf: file)
            guard let chinese = s.chinese else { continue }
            let text = ([chinese.title, chinese.description] + chinese.tryNext).joined(separator: "\n")
            for term in Self.ruledOutTerms where text.contains(term) {
                Issue.record("\(file): '\(term)' is not the glossary's term")
            }
            for variant in ChineseGlossary.forbiddenVariants(in: text, rows: try ChineseGlossary.rows()) {
                Issue.record("\(file): \(variant)")
            }
        }
    }

    /// What a translation keeps as written: RFC numbers and sections, snake_case names (alerts,
    /// extensions, file keys) and lesson names (`tcp/syn-cookies`).
    static func untranslated(in english: String) -> Set<String> {
        var tokens = Set<String>()
        for m in english.matches(of: /RFC \d+|§[\d.]*\d|\b[a-z_]+_[a-z_]+\b|\b[a-z0-9]+\/[a-z0-9.\-]*[a-z0-9]\b/) {
            tokens.insert(String(m.output))
        }
        return tokens
    }

    /// 序号 is the TCP/TLS sequence number and 证书序列号 the certificate's serial number: the glossary check
    /// tells them apart (issue #34).
    @Test func theGlossaryCheckKeepsTheCertificateSerialNumber() throws {
        let rows = try ChineseGlossary.rows()
        #expect(ChineseGlossary.forbiddenVariants(in: "新的证书序列号、新的有效期", rows: rows).isEmpty)
        #expect(ChineseGlossary.forbiddenVariants(in: "SYN 占用一个序号", rows: rows).isEmpty)
        #expect(ChineseGlossary.forbiddenVariants(in: "SYN 占用一个序列号", rows: rows).count == 1)
        #expect(ChineseGlossary.forbiddenVariants(in: "证书序列号和 TCP 序列号", rows: rows).count == 1)
        #expect(ChineseGlossary.forbiddenVariants(in: "共享密钥 = 预主密钥", rows: rows).count == 1)
        #expect(ChineseGlossary.forbiddenVariants(in: "（第 1 次尝试）", rows: rows).count == 1)
    }

    @Test func untranslatedTokensAreFound() {
        #expect(Self.untranslated(in: "ends with bad_record_mac (RFC 5246 §7.2.2, tcp/syn-cookies).")
                == ["bad_record_mac", "RFC 5246", "§7.2.2", "tcp/syn-cookies"])
    }
}
