import Foundation
import Languages
import Rendering
import Testing
import TestSupport
@testable import tlslab

/// The language setting: `--lang`, `TLSLAB_LANG`, the locale; every command that prints teaching
/// text speaks Chinese when asked and English otherwise.
@Suite("Language: --lang, TLSLAB_LANG and the locale")
struct LanguageTests {
    @Test func theFlagWinsThenTLSLABLANGThenTheLocale() {
        #expect(Language.chosen(flag: .zh, environment: ["TLSLAB_LANG": "en", "LANG": "en_US.UTF-8"]) == .zh)
        #expect(Language.chosen(flag: .en, environment: ["TLSLAB_LANG": "zh", "LANG": "zh_CN.UTF-8"]) == .en)
        #expect(Language.chosen(flag: nil, environment: ["TLSLAB_LANG": "zh", "LANG": "en_US.UTF-8"]) == .zh)
        #expect(Language.chosen(flag: nil, environment: ["TLSLAB_LANG": "en", "LC_ALL": "zh_CN.UTF-8"]) == .en)
        #expect(Language.chosen(flag: nil, environment: ["LANG": "zh_CN.UTF-8"]) == .zh)
        #expect(Language.chosen(flag: nil, environment: ["LANG": "zh_TW.UTF-8"]) == .zh)
        #expect(Language.chosen(flag: nil, environment: ["LC_ALL": "zh_SG", "LANG": "en_US.UTF-8"]) == .zh, "LC_ALL before LANG")
        #expect(Language.chosen(flag: nil, environment: ["LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"]) == .en, "LC_ALL before LANG")
        #expect(Language.chosen(flag: nil, environment: ["LC_MESSAGES": "zh_HK.UTF-8", "LANG": "en_US.UTF-8"]) == .zh)
        #expect(Language.chosen(flag: nil, environment: ["TLSLAB_LANG": "", "LANG": "zh_CN.UTF-8"]) == .zh, "empty is unset")
        #expect(Language.chosen(flag: nil, environment: ["LANG": "C.UTF-8"]) == .en)
        #expect(Language.chosen(flag: nil, environment: ["LANG": "fr_FR.UTF-8"]) == .en)
        #expect(Language.chosen(flag: nil, environment: [:]) == .en)
    }

    @Test func localesMapToLanguages() {
        for zh in ["zh", "zh_CN.UTF-8", "zh_TW.UTF-8", "zh-Hans", "ZH_cn", "zh_CN.GB18030", "zh_CN@stroke"] {
            #expect(Language(locale: zh) == .zh, "\(zh)")
        }
        for en in ["en", "en_US.UTF-8", "C", "POSIX", "zu_ZA", "ja_JP.UTF-8", "zhx"] {
            #expect(Language(locale: en) == .en, "\(en)")
        }
    }

    // MARK: Through the binary

    @Test func runSpeaksChineseWithTheFlagAndWithTheLocale() throws {
        let flag = try CLI.run(["run", "rsa", "--lang", "zh"])
        #expect(flag.status == 0)
        #expect(flag.stdout.hasPrefix("TLSLab — rsa：RSA 密钥交换"))
        #expect(flag.stdout.contains("── TCP 三次握手") && flag.stdout.contains("── 结果"))
        #expect(flag.stdout.contains("TLS_RSA_WITH_AES_128_GCM_SHA256"), "suite names stay")
        // The root's own options (`tlslab --lang zh run NAME`), LANG and TLSLAB_LANG give the same text.
        let root = try CLI.run(["--lang", "zh", "run", "rsa"])
        let locale = try CLI.run(["run", "rsa"], environment: ["TLSLAB_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"])
        let variable = try CLI.run(["run", "rsa"], environment: ["TLSLAB_LANG": "zh"])
        #expect(root.stdout == flag.stdout && locale.stdout == flag.stdout && variable.stdout == flag.stdout)
        // English stays the default, and --lang en overrides a Chinese locale.
        let english = try CLI.run(["run", "rsa", "--lang", "en"], environment: ["TLSLAB_LANG": "", "LANG": "zh_CN.UTF-8"])
        #expect(english.stdout.contains("── TCP three-way handshake"))
        #expect(try CLI.run(["run", "rsa"]).stdout == english.stdout)
    }

    /// `LANG=zh_CN.UTF-8 tlslab` piped: the default walkthrough, printed whole, in Chinese.
    @Test func theDefaultWalkthroughFollowsTheLocale() throws {
        let result = try CLI.run([], environment: ["TLSLAB_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("RSA 密钥交换，单向认证") && result.stdout.contains("预主密钥"))
    }

    /// A lesson's own Chinese words (title_zh, description_zh, try_next_zh) reach the screen in zh,
    /// and its English ones in en.
    @Test func lessonsShowTheirChineseText() throws {
        let zh = try CLI.run(["run", "tcp/old-duplicate-syn", "--lang", "zh"])
        #expect(zh.status == 0, "\(zh.stderr)")
        #expect(zh.stdout.contains("三次握手拒绝过期的重复 SYN"), "\(zh.stdout.prefix(600))")
        let en = try CLI.run(["run", "tcp/old-duplicate-syn", "--lang", "en"])
        #expect(!en.stdout.contains("三次握手拒绝过期的重复 SYN") && en.stdout.contains("SYN"))
        let catalogue = try CLI.run(["lessons", "tcp", "--lang", "zh"])
        #expect(catalogue.stdout.contains("四次挥手与 TIME-WAIT"), "\(catalogue.stdout.prefix(600))")
    }

    /// A `reason_includes` expectation names a policy step by its identifier; the footer words that
    /// step in the page's language, Chinese or English (an ATS lesson and a challenge lesson).
    @Test func aNamedReasonIsWordedInEachLanguage() throws {
        for (lesson, id, step, english) in [("ats/non-forward-secret-blocked", "ats.notForwardSecret", "套件不具备前向安全", "not forward secret"),
                                            ("afnetworking/renewal-public-key-pinning", "af.publicKeyPinFound", "锁定的公钥", "equals a pinned key")] {
            let zh = try CLI.run(["run", lesson, "--lang", "zh"])
            #expect(zh.status == 0, "\(zh.stderr)")
            let footer = zh.stdout.components(separatedBy: "这一课展示了什么").last ?? ""
            #expect(footer.contains(id), "\(footer.prefix(800))")
            let means = footer.components(separatedBy: "\n").filter { $0.contains("即：") }
            #expect(means.count == 1, "\(footer.prefix(800))")
            #expect(means.first?.contains(step) == true, "\(means)")
            let en = try CLI.run(["run", lesson, "--lang", "en"])
            let enFooter = en.stdout.components(separatedBy: "What this lesson showed").last ?? ""
            let enMeans = enFooter.components(separatedBy: "\n").filter { $0.contains("that is:") }
            let enWords = enFooter.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(enMeans.count == 1 && enWords.contains(english), "\(enFooter.prefix(800))")
        }
    }

    @Test func badLanguageIsBadInput() throws {
        let result = try CLI.run(["run", "rsa", "--lang", "fr"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--lang"))
    }

    @Test func everyTeachingCommandTakesTheLanguage() throws {
        let list = try CLI.run(["list", "--lang", "zh"])
        #expect(list.status == 0 && list.stdout.contains("mitm") && list.stdout.contains("中间人"))
        let walk = try CLI.run(["walkthrough", "dhe", "--lang", "zh"])
        #expect(walk.status == 0 && walk.stdout.contains("前向安全") && walk.stdout.contains("DH 群"))
        let lessons = try CLI.run(["lessons", "built-in", "--lang", "zh"])
        #expect(lessons.status == 0 && lessons.stdout.contains("明文 HTTP，无 TLS"), "\(lessons.stdout)\(lessons.stderr)")
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcap = dir.appendingPathComponent("rsa.pcap").path
        let export = try CLI.run(["export", "rsa", "--pcap", pcap, "--lang", "zh"])
        #expect(export.status == 0 && export.stdout.hasPrefix("已写入 \(pcap)："), "\(export.stdout)\(export.stderr)")
    }

    /// check: PASS/FAIL/INVALID and the tally stay as scripts read them; the explanation is translated.
    @Test func checkExplainsAFailureInChinese() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("wrong.yaml")
        // A lesson of the library with one expectation made wrong on purpose.
        let lesson = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/tls/alpn.yaml")
        let text = try String(contentsOf: lesson, encoding: .utf8)
        #expect(text.contains("  alpn: h2\n"))
        try text.replacing("  alpn: h2\n", with: "  alpn: http/1.1\n").write(to: file, atomically: true, encoding: .utf8)
        let zh = try CLI.run(["check", file.path, "--lang", "zh"])
        let en = try CLI.run(["check", file.path])
        #expect(zh.status == 1 && en.status == 1)
        #expect(en.stdout.hasPrefix("FAIL \(dir.path)/wrong: alpn: expected http/1.1, got h2"), "\(en.stdout)")
        #expect(zh.stdout.hasPrefix("FAIL \(dir.path)/wrong：alpn：预期 http/1.1，实际 h2"), "\(zh.stdout)")
        // The tally is a summary a person reads (issue #34): the same counts, in each language's words.
        #expect(en.stdout.split(separator: "\n").last == "0 passed, 1 failed", "\(en.stdout)")
        #expect(zh.stdout.split(separator: "\n").last == "0 个通过，1 个未通过", "\(zh.stdout)")
    }
}

/// The Chinese walkthrough in a real terminal (tmux, 80×24, UTF-8): Chinese on screen, nothing
/// past the edge, the rails in their columns.
@Suite("tlslab walkthrough in Chinese in a terminal", .serialized)
struct ChineseWalkthroughTerminalTests {
    typealias Session = WalkthroughTerminalTests.Session

    @Test(CrossCheckRequirement.trait(Tool.path("tmux") != nil, missing: "tmux is not installed"))
    func chineseWalkthroughAt80x24() throws {
        let binary = try #require(CLI.binary).path
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report").path
        var session = Session()
        session.utf8 = true
        defer { session.kill() }
        // The pane is UTF-8 whatever the test machine's locale; LANG chooses the language.
        try session.start(WalkthroughTerminalTests.command("env TLSLAB_LANG= LC_ALL= LANG=zh_CN.UTF-8 \(binary)", "walkthrough rsa", report: report))
        let first = try session.wait(for: "step 1") { $0.contains("第 1/") }
        #expect(first.contains("TLSLab · rsa · 第 1/"))
        #expect(first.contains("按 n 或 Enter 开始"), "the opening screen: \(first)")
        #expect(first.contains("? 帮助") && first.contains("q 退出"))
        try Self.expectFits(first)
        // Forward to the ClientHello: the ladder keeps its rails, the Chinese explanation wraps inside 80 columns.
        var screen = first
        for _ in 0..<30 where !screen.contains("ClientHello：") {
            try session.keys("n")
            Thread.sleep(forTimeInterval: 0.05)
            screen = try session.screen()
        }
        screen = try session.wait(for: "the ClientHello's explanation") { $0.contains("ClientHello：客户端") }
        try Self.expectFits(screen)
        // Ladder rows: a time, then the rails (the walkthrough's times carry no unit: the header says 毫秒).
        let ladder = screen.split(separator: "\n").filter { line in
            line.contains { "│├┤●".contains($0) } && line.drop { $0 == " " || $0 == "▶" }.first?.isNumber == true
        }
        #expect(ladder.count >= 4, "\(screen)")
        let columns = Set(ladder.map { line in DisplayWidth.columns(line[..<(line.firstIndex { "│├┤●".contains($0) } ?? line.endIndex)]) })
        #expect(columns.count == 1, "the client rail is in one column on every ladder line: \(columns)\n\(screen)")
        try session.keys("k")
        let knowledge = try session.wait(for: "the knowledge panel") { $0.contains("到目前为止，谁知道什么") }
        #expect(knowledge.contains("窃听者"))
        try Self.expectFits(knowledge)
        try session.keys("k")
        _ = try session.wait(for: "the knowledge panel closed") { !$0.contains("到目前为止，谁知道什么") }
        try session.keys(">")
        let last = try session.wait(for: "the outcome") { $0.contains("── 结果") && $0.contains("成功：TLS 1.2") }
        try Self.expectFits(last)
        try session.keys("q")
        let text = try WalkthroughTerminalTests.report(report)
        #expect(text.contains("exit=0"), "\(text)")
    }

    /// Issue #34, "Done means": the zh walkthrough at 60 columns in tmux (60×24): every screen fits 60
    /// display columns with no line starting with closing punctuation, the footer keeps 帮助 and 退出, the
    /// knowledge panel and the outcome are Chinese, and q leaves with status 0.
    @Test(CrossCheckRequirement.trait(Tool.path("tmux") != nil, missing: "tmux is not installed"))
    func chineseWalkthroughAt60Columns() throws {
        let binary = try #require(CLI.binary).path
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report").path
        var session = Session()
        session.utf8 = true
        session.columns = 60
        defer { session.kill() }
        try session.start(WalkthroughTerminalTests.command("env TLSLAB_LANG=zh \(binary)", "walkthrough rsa", report: report))
        let first = try session.wait(for: "step 1") { $0.contains("第 1/") }
        #expect(first.contains("TLSLab · rsa · 第 1/"), "\(first)")
        #expect(first.contains("帮助") && first.contains("退出"), "the footer at 60 columns: \(first)")
        try Self.expectFits(first, columns: 60)
        var screen = first
        for _ in 0 ..< 20 {
            try session.keys("n")
            Thread.sleep(forTimeInterval: 0.05)
            screen = try session.screen()
            try Self.expectFits(screen, columns: 60)
        }
        try session.keys("k")
        let knowledge = try session.wait(for: "the knowledge panel") { $0.contains("到目前为止") && $0.contains("窃听者") }
        try Self.expectFits(knowledge, columns: 60)
        try session.keys("k")
        try session.keys(">")
        let last = try session.wait(for: "the outcome") { $0.contains("结果") && $0.contains("成功") }
        try Self.expectFits(last, columns: 60)
        try session.keys("q")
        let text = try WalkthroughTerminalTests.report(report)
        #expect(text.contains("exit=0"), "\(text)")
    }

    /// Every line of the captured pane fits 80 display columns (tmux draws a wide character in two cells).
    static func expectFits(_ screen: String) throws { try expectFits(screen, columns: 80) }

    /// Every line fits `columns` and none starts with closing punctuation (避头尾).
    static func expectFits(_ screen: String, columns: Int) throws {
        for line in screen.split(separator: "\n") {
            #expect(!["，", "。", "、", "；", "：", "？", "！", "）"].contains(line.trimmingCharacters(in: .whitespaces).first.map(String.init) ?? ""),
                    "a line starts with closing punctuation: \(line)")
        }
        try expectFitsWidth(screen, columns: columns)
    }

    static func expectFitsWidth(_ screen: String, columns: Int) throws {
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }       // capture-pane ends with a newline
        #expect(lines.count <= 24)
        for line in lines { #expect(DisplayWidth.columns(line) <= columns, "\(DisplayWidth.columns(line)) columns: \(line)") }
    }
}
