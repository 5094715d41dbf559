import Foundation
import Testing

/// Issue #34: the command line itself in Chinese under `--lang zh`, `TLSLAB_LANG=zh` or a `zh_*` locale —
/// every help screen, the parser's errors and "unknown run or lesson … did you mean".
@Suite("The command line in Chinese: help, parser errors, unknown names")
struct ChineseCLITests {
    /// Runs of three or more English words in `text`: a sentence left in English. Words are ASCII letters
    /// (capitalised or lowercase); a word with punctuation attached (a list "rsa, dhe", a `code span`,
    /// --an-option, a path) ends the run, so option names, value lists and commands are not sentences.
    static func englishSentences(in text: String) -> [String] {
        var runs: [String] = []
        for whole in text.split(separator: "\n") {
            // An example command (`  tlslab run ecdhe --lang zh   用中文打印…`) is typed as it is:
            // only what follows it, after the gap of two or more spaces, is words.
            var line = whole
            let trimmed = whole.drop { $0 == " " }
            if trimmed.hasPrefix("tlslab ") || trimmed == "tlslab" {
                line = trimmed.range(of: "  ").map { trimmed[$0.upperBound...] } ?? ""
            }
            var current: [Substring] = []
            func flush() { if current.count >= 3 { runs.append(current.joined(separator: " ")) }; current = [] }
            // Apple's feature name is a name in both languages (as in the output tests' allow-list).
            for token in line.replacing("App Transport Security", with: "ATS").split(separator: " ") {
                // A word may end a clause ("information." "rsa,"): it counts, and the run stops after it.
                let ends = token.last.map { ".,;:!?)".contains($0) } ?? false
                let word = ends ? token.dropLast() : token
                let isWord = word.count >= 2 && word.allSatisfy { $0.isASCII && $0.isLetter }
                    && word.dropFirst().allSatisfy(\.isLowercase)
                if isWord { current.append(word) } else { flush() }
                if ends { flush() }
            }
            flush()
        }
        return runs
    }

    @Test func theDetectorFindsSentencesAndKeepsNames() {
        #expect(Self.englishSentences(in: "  -h, --help              Show help information.") == ["Show help information"])
        #expect(Self.englishSentences(in: "内置运行（rsa, dhe, ecdhe, wrong-host）、课程名").isEmpty)
        #expect(Self.englishSentences(in: "用 'tlslab help bench <subcommand>' 查看详细帮助。").isEmpty)
        #expect(Self.englishSentences(in: "  tlslab run ecdhe --lang zh   用中文打印一个内置运行").isEmpty)
        #expect(Self.englishSentences(in: "  tlslab run ecdhe   prints every step of the run") == ["prints every step of the run"])
    }

    /// Every command and subcommand, as `tlslab --help` and `tlslab bench --help` list them.
    static let commands: [[String]] = [[], ["run"], ["walkthrough"], ["export"], ["list"], ["lessons"], ["check"], ["compare"], ["connect"],
                                       ["serve"], ["dissect"], ["pin"], ["bench"], ["bench", "all"], ["bench", "crypto"],
                                       ["bench", "handshake"], ["bench", "tcp"], ["bench", "startup"], ["bench", "check"],
                                       ["bench", "cbc-padding"]]

    @Test(arguments: commands)
    func everyHelpScreenIsChinese(command: [String]) throws {
        let result = try CLI.run(["--lang", "zh"] + command + ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("用法：") && result.stdout.contains("选项："), "\(result.stdout)")
        #expect(Self.englishSentences(in: result.stdout).isEmpty,
                "\(command): English \(Self.englishSentences(in: result.stdout)) in:\n\(result.stdout)")
        // The parser's lone English words too: "(default)" after the default subcommand, "(default: …)", "(values: …)".
        for word in ["(default", "(values:", "not available", "listening on"] {
            #expect(!result.stdout.contains(word), "\(command): '\(word)' in:\n\(result.stdout)")
        }
        let english = try CLI.run(command + ["--help"])
        #expect(english.stdout.contains("USAGE:") && english.stdout.contains("Show help information."))
    }

    @Test func theLocaleAndTheVariableChooseChineseHelp() throws {
        for environment in [["TLSLAB_LANG": "zh"], ["TLSLAB_LANG": "", "LANG": "zh_CN.UTF-8"], ["TLSLAB_LANG": "", "LC_ALL": "zh_TW.UTF-8"]] {
            let result = try CLI.run(["run", "--help"], environment: environment)
            #expect(result.stdout.hasPrefix("概述：运行一条模拟连接"), "\(environment): \(result.stdout)")
        }
        let flagWins = try CLI.run(["--lang", "en", "run", "--help"], environment: ["TLSLAB_LANG": "zh"])
        #expect(flagWins.stdout.hasPrefix("OVERVIEW: Run one simulated connection"))
    }

    @Test func helpLinesFitTheirColumns() throws {
        let result = try CLI.run(["--lang", "zh", "connect", "--help"], environment: ["COLUMNS": "80"])
        for line in result.stdout.split(separator: "\n") {
            let columns = line.unicodeScalars.reduce(0) { $0 + ((0x2E80 ... 0xFFEF).contains($1.value) ? 2 : 1) }
            #expect(columns <= 80, "\(columns) columns: \(line)")
            #expect(!["，", "。", "、", "；", "：", "）"].contains(line.trimmingCharacters(in: .whitespaces).first.map(String.init) ?? ""),
                    "a line starts with closing punctuation: \(line)")
        }
    }

    @Test func parserErrorsAreChinese() throws {
        let bad = try CLI.run(["--lang", "zh", "run", "rsa", "--verbosity", "foo"])
        #expect(bad.status == 2)
        let joined = bad.stderr.replacing("\n", with: "")
        #expect(joined.contains("错误：'--verbosity <verbosity>' 不接受值 'foo'") && joined.contains("'summary'、'normal'、'bytes'。"), "\(bad.stderr)")
        #expect(bad.stderr.contains("用法：tlslab"))
        let missing = try CLI.run(["pin"], environment: ["TLSLAB_LANG": "", "LANG": "zh_CN.UTF-8"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("错误：缺少必需的参数 '<files> ...'"), "\(missing.stderr)")
        #expect(Self.englishSentences(in: missing.stderr).isEmpty, "\(missing.stderr)")
        // The parser's suggestion for a misspelt option.
        let misspelt = try CLI.run(["--lang", "zh", "dissect", "--hex", "16"])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.hasPrefix("错误：未知的选项 '--hex'；你是不是要找 '--as'？"), "\(misspelt.stderr)")
        #expect(Self.englishSentences(in: misspelt.stderr).isEmpty, "\(misspelt.stderr)")
        #expect(try CLI.run(["dissect", "--hex", "16"]).stderr.hasPrefix("Error: Unknown option '--hex'. Did you mean '--as'?"))
    }

    @Test func anUnknownNameIsChineseWithSuggestions() throws {
        let result = try CLI.run(["--lang", "zh", "run", "tls/ecdh"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("没有名为“tls/ecdh”的内置运行或课程；你是不是要找 “ecdhe”"), "\(result.stderr)")
        #expect(result.stderr.contains("`tlslab list` 列出内置运行"))
        let english = try CLI.run(["run", "tls/ecdh"])
        #expect(english.stderr.contains("unknown run or lesson 'tls/ecdh'; did you mean 'ecdhe'"), "\(english.stderr)")
    }
}

/// A broken lesson file: `check` (and `run`) keep the located prefix `FILE:LINE:COLUMN: key.path:` and
/// word the explanation after it in Chinese.
@Suite("check INVALID in Chinese")
struct ChineseInvalidTests {
    static func brokenCopy(_ replace: String, with replacement: String, in dir: URL) throws -> String {
        let lesson = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/tls/dhe.yaml")
        let text = try String(contentsOf: lesson, encoding: .utf8)
        #expect(text.contains(replace))
        let file = dir.appendingPathComponent("broken.yaml")
        try text.replacing(replace, with: replacement).write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func aMisspelledKeyIsExplainedInChinese() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.brokenCopy("server:\n  suites:", with: "server:\n  sutes:", in: dir)
        let zh = try CLI.run(["check", file, "--lang", "zh"])
        let en = try CLI.run(["check", file])
        #expect(zh.status == 2 && en.status == 2)
        let zhLine = try #require(zh.stdout.split(separator: "\n").first { $0.hasPrefix("INVALID") })
        let enLine = try #require(en.stdout.split(separator: "\n").first { $0.hasPrefix("INVALID") })
        // The same located prefix in both languages.
        let prefix = try #require(enLine.firstMatch(of: #/^INVALID .*broken\.yaml:\d+:\d+: server\.sutes: /#)).output
        #expect(zhLine.hasPrefix(prefix), "\(zhLine)")
        #expect(enLine.contains("unknown key 'sutes'; expected one of:") && enLine.contains("did you mean 'suites'?"), "\(enLine)")
        #expect(zhLine.contains("未知的键“sutes”；可用的键有：") && zhLine.contains("你是不是想写“suites”？"), "\(zhLine)")
        #expect(ChineseCLITests.englishSentences(in: String(zhLine.dropFirst(prefix.count))).isEmpty, "\(zhLine)")
        let run = try CLI.run(["run", file, "--lang", "zh"])
        #expect(run.status == 2 && run.stderr.contains("server.sutes: 未知的键“sutes”"), "\(run.stderr)")
    }

    @Test func aQuotedBooleanIsExplainedInChinese() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.brokenCopy("server:\n", with: "server:\n  ems: \"false\"\n", in: dir)
        let zh = try CLI.run(["check", file, "--lang", "zh"])
        #expect(zh.status == 2)
        #expect(zh.stdout.contains("server.ems: 应为 true 或 false，实际是字符串“false”（布尔值不加引号）"), "\(zh.stdout)")
    }
}
