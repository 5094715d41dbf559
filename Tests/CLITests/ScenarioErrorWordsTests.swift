import Foundation
import Languages
import Rendering
import Scenarios
import Testing
@testable import tlslab

/// Issue #34: a broken lesson file is explained by the catalogue in the reader's language, after the
/// `FILE:LINE:COLUMN: key.path:` prefix that names the file, the line and the field. Each file below
/// holds one mistake; the English the catalogue gives is exactly the reader's English (so the English
/// output is unchanged), and the Chinese is Chinese.
@Suite("Scenario errors: catalogue words in English and Chinese, still located")
struct ScenarioErrorWordsTests {
    static let head = "title: t\ndescription: a lesson file with exactly one mistake in it\n"
    static let expect = "expect:\n  handshake: success\n"

    /// (a broken file, the key path its error must name, the line it must name).
    static let broken: [(text: String, path: String, line: Int)] = [
        (head + "expect:\n  handshak: success\n", "expect.handshak", 4),
        (head + "client:\n  ems: \"yes\"\n" + expect, "client.ems", 4),
        (head + "client:\n  min_dh_bits: 99999\n" + expect, "client.min_dh_bits", 4),
        ("description: a lesson file with exactly one mistake in it\n" + expect, "title", 1),
        (head + "kind: tlz\n" + expect, "kind", 3),
        (head + "client:\n  host: [a, b]\n" + expect, "client.host", 4),
        (head + "client:\n  host: !!str 7\n" + expect, "client.host", 4),
        (head + "client:\n  host: \"bad host name\"\n" + expect, "client.host", 4),
        (head + "title_zh: 标题\n" + expect, "description_zh", 2),
        ("kind: tcp\n" + head + "actions:\n  - do: send\n    by: client\n    bytes: 10\nexpect:\n  client_state: ESTABLISHED\n", "actions[0]", 5),
        ("kind: tcp\n" + head + "actions:\n  - do: connect\n    by: client\n    bogus: 1\nexpect:\n  client_state: ESTABLISHED\n", "actions[0].bogus", 7),
        ("kind: dh\n" + head + "dh: {p: 15, g: 2, client_private: 3, server_private: 4}\nexpect:\n  shared_secret: 1\n", "dh.p", 4),
        ("kind: dh\n" + head + "dh: {p: 23, g: 2, client_private: 3}\nexpect:\n  shared_secret: 1\n", "dh.server_private", 4),
        (head + "expect:\n  handshake: success\n  handshake: failure\n", "expect.handshake", 5),
        (head + "description_zh: 中文\n" + expect, "title_zh", 1),
        // YAML syntax (libyaml's problems, worded by the catalogue): a value indented under a value,
        // an unclosed flow sequence, a tab as indentation.
        (head + "client:\n  host: a\n    bad: b\n" + expect, "", 5),
        (head + "client:\n  host: [a, b\n" + expect, "", 5),
        (head + "client:\n\thost: a\n" + expect, "", 4),
        // libyaml's and Yams's other problems (issue #34): a flow sequence cut at the end, an alias with
        // no anchor, a second document, a %YAML directive of another major version.
        (head + "client:\n  host: [\n", "", 5),
        (head + "client:\n  host: *nothing\n" + expect, "", 4),
        (head + expect + "---\ntitle: u\n", "", 5),
        ("%YAML 2.0\n---\n" + head + expect, "", 1),
        // version "1.3": a 1.2 key refused with the RFC 8446 rule (issue #36).
        (head + "version: \"1.3\"\nserver:\n  suites: [TLS_RSA_WITH_AES_128_GCM_SHA256]\n" + expect, "server.suites[0]", 5),
        (head + "version: \"1.3\"\nclient:\n  suites: [TLS_DHE_RSA_WITH_AES_128_CBC_SHA256]\n" + expect, "client.suites[0]", 5),
        (head + "version: \"1.3\"\nclient:\n  suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]\n" + expect, "client.suites[0]", 5),
        (head + "version: \"1.3\"\nserver:\n  ems: false\n" + expect, "server.ems", 5),
        (head + "version: \"1.3\"\nserver:\n  dh_group: ffdhe2048\n" + expect, "server.dh_group", 5),
        (head + "version: \"1.3\"\nclient:\n  max_version: TLS1.2\n" + expect, "client.max_version", 5),
        (head + "version: \"1.3\"\nclient:\n  key_share: [secp384r1]\n" + expect, "client.key_share[0]", 5),
        (head + "client:\n  groups: [x25519]\n" + expect, "client.groups", 4),
        (head + "version: \"1.3\"\nattacker: { kind: early_ccs }\n" + expect, "attacker.kind", 4),
        (head + "version: \"1.3\"\nhttp:\n  resumption: ticket\n" + expect, "http.resumption", 5),
    ]

    static func error(_ text: String) -> ScenarioError? {
        do { _ = try ScenarioParser.parse(text: text, file: "lesson.yaml"); return nil } catch { return error }
    }

    static func hasHan(_ s: String) -> Bool { s.unicodeScalars.contains { (0x4E00 ... 0x9FFF).contains($0.value) } }

    @Test(arguments: 0 ..< broken.count)
    func eachErrorIsWordedInBothLanguagesAndLocated(index: Int) throws {
        let (text, path, line) = Self.broken[index]
        let error = try #require(Self.error(text), "file \(index) parses")
        #expect(error.path == path, "\(error)")
        #expect(error.line == line, "\(error)")
        #expect(error.words != nil, "no catalogue words: \(error)")
        // English: the catalogue's sentence is the reader's, word for word.
        let english = CheckCommand.located(error, explanations: Language.en.explanations)
        #expect(english == error.description)
        // Chinese: the same prefix, then a Chinese explanation (no English fallback).
        let chinese = CheckCommand.located(error, explanations: Language.zh.explanations)
        let prefix = "lesson.yaml:\(error.line):\(error.column): \(error.path.isEmpty ? "" : error.path + ": ")"
        #expect(chinese.hasPrefix(prefix), "\(chinese)")
        let explanation = String(chinese.dropFirst(prefix.count))
        #expect(Self.hasHan(explanation), "\(chinese)")
        #expect(explanation != error.message, "\(chinese)")
        for english in ["expected ", "contradiction", "missing required", "unknown key", "does not apply", "duplicate key", "got "] {
            #expect(!explanation.contains(english), "\(english) in \(chinese)")
        }
        // No English sentence inside the Chinese either (a YAML problem libyaml words, say).
        #expect(ChineseCLITests.englishSentences(in: explanation).isEmpty, "English in: \(chinese)")
    }

    /// A demo (no `expect`) is refused by `check` with a located, worded line too.
    @Test func aDemoIsRefusedInChinese() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-demo-\(UUID().uuidString).yaml")
        try Self.head.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard case .invalid(let error) = ScenarioCheck.check(file: file.path, keepFacts: false) else {
            Issue.record("a demo passed check")
            return
        }
        #expect(error.path == "expect" && error.line == 1)
        #expect(CheckCommand.located(error, explanations: Language.en.explanations) == error.description)
        let chinese = CheckCommand.located(error, explanations: Language.zh.explanations)
        #expect(chinese.hasPrefix("\(file.path):1:1: expect: ") && Self.hasHan(chinese), "\(chinese)")
    }

    /// Through the command as a teacher runs it: with `--lang zh` every INVALID line is Chinese after
    /// its located prefix, and the English run's lines are unchanged in shape.
    @Test func checkInChineseWordsEveryInvalidLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-zh-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, file) in Self.broken.enumerated() {
            try file.text.write(to: dir.appendingPathComponent("f\(i).yaml"), atomically: true, encoding: .utf8)
        }
        try Self.head.write(to: dir.appendingPathComponent("demo.yaml"), atomically: true, encoding: .utf8)
        let zh = try CLI.run(["check", "--lang", "zh", dir.path])
        #expect(zh.status == 2)
        let lines = zh.stdout.split(separator: "\n").map(String.init)
        let invalid = lines.filter { $0.hasPrefix("INVALID ") }
        #expect(invalid.count == Self.broken.count + 1, "\(zh.stdout)")
        for line in invalid {
            // INVALID FILE:LINE:COLUMN: key.path: explanation
            let located = try #require(line.firstMatch(of: /^INVALID (.+\.yaml):(\d+):(\d+): (?:([^ ]+): )?(.*)$/), "\(line)")
            #expect(Int(located.output.2) ?? 0 >= 1)
            #expect(Self.hasHan(String(located.output.5)), "\(line)")
        }
        #expect(lines.last == "0 个通过，\(Self.broken.count + 1) 个未通过")
    }

    /// Every `scenario.` key the reader names is in both catalogues (the Scenarios module is not among
    /// those `CatalogueKeyLiteralTests` reads, because its lesson key paths look like keys).
    @Test func everyScenarioKeyIsInBothCatalogues() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { root.deleteLastPathComponent() }
        let folder = root.appendingPathComponent("Sources/Scenarios")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
        var keys: Set<String> = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for m in text.matches(of: /"(scenario\.[A-Za-z0-9_.]+)"/) { keys.insert(String(m.output.1)) }
        }
        #expect(keys.count > 100)
        let english = Explanations.english.text, chinese = Explanations.chineseText
        for key in keys.sorted() {
            #expect(english[key] != nil, "\(key) missing in English")
            #expect(chinese[key] != nil, "\(key) missing in Chinese")
        }
    }

    /// The reader builds no located error without catalogue words: every throw in Sources/Scenarios
    /// that writes an English message also names a `scenario.` key.
    @Test func everyReaderErrorCarriesWords() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { root.deleteLastPathComponent() }
        let folder = root.appendingPathComponent("Sources/Scenarios")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
        var offences: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (i, line) in lines.enumerated() where line.contains(/(\.error|keyError|\bfail|attackerError)\([^)]*"/) && !line.contains("func ") {
                // The statement: this line and the next three (a message may span lines).
                let statement = lines[i ..< min(lines.count, i + 5)].joined(separator: "\n")
                if !statement.contains("\"scenario.") && !statement.contains("e.words = ") {
                    offences.append("\(file.lastPathComponent):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offences.isEmpty, "\(offences.joined(separator: "\n"))")
    }
}

/// Issue #34: the commands' own option checks (`validate()`) are worded by the catalogue.
@Suite("Option checks: catalogue words in English and Chinese")
struct OptionProblemWordsTests {
    static let problems: [(OptionProblem, String)] = [
        (.mustBe(option: "--runs", range: "1…20"), "--runs must be 1…20"),
        (.takesSeconds(option: "--timeout", range: "1…3600"), "--timeout takes 1…3600 seconds"),
        (.takesSecondsUpToAWeek(option: "--ticket-lifetime", range: "1…604800"), "--ticket-lifetime takes 1…604800 seconds (up to a week)"),
        (.takes(option: "--port", range: "0…65535"), "--port takes 0…65535"),
        (.takesSizes(option: "--connections", range: "1…1000000"), "--connections takes sizes 1…1000000"),
        (.positive(option: "--max-connections"), "--max-connections takes a positive number"),
        (.secondsBetween(option: "--autoplay", lowest: "0.1", highest: "3600", given: "0.0"), "--autoplay takes a number of seconds from 0.1 to 3600, not 0.0"),
        (.needs(option: "--client-auth require", other: "--client-ca"), "--client-auth require needs --client-ca"),
        (.needsAPin(policy: "af-public-key"), "--policy af-public-key needs at least one --pin"),
        (.needsABundledCertificate(policy: "bundled-anchor"), "--policy bundled-anchor needs at least one --bundle certificate"),
        (.goesWith(option: "--bundle", other: "--policy bundled-anchor"), "--bundle goes with --policy bundled-anchor"),
        (.goesWithEither(option: "--pin", first: "--policy af-public-key", second: "af-certificate"), "--pin goes with --policy af-public-key or af-certificate"),
        (.goesWithAFPolicy(option: "--no-validates-domain-name"), "--no-validates-domain-name goes with an af-… policy"),
        (.goesWithAFPolicyOrImageDownloader(option: "--allow-invalid-certificates"), "--allow-invalid-certificates goes with an af-… policy or image-downloader"),
        (.goTogether(first: "--cert", second: "--key"), "--cert and --key go together"),
        (.seedDoesNotApply, "--seed does not apply: real connections use the system random generator"),
        (.alpnList, "--alpn takes comma-separated protocol names of 1…255 bytes, like h2,http/1.1"),
        (.unknownSelfTest(name: "x"), "unknown self-test 'x'"),
        (.noCertificateFile, "name at least one certificate file"),
        (.exportAllNeedsHTML, "--all writes pages: give --html DIR"),
        (.exportAllTakesNothingElse, "--all exports every run and lesson as pages into --html DIR: give no NAME, --pcap, --keylog or --pki"),
        (.exportNeedsName, "give a run or lesson to export (or --all --html DIR)"),
        (.exportNeedsOutput, "say what to write: --pcap FILE, --html FILE, or both"),
        (.exportKeylogNeedsPcap, "--keylog and --pki go with --pcap"),
        (.exportSlidesNeedHTML, "--slides shapes the --html page: give --html FILE"),
    ]

    @Test func eachProblemReadsAsBeforeInEnglishAndIsChineseInChinese() {
        for (problem, english) in Self.problems {
            let (key, values) = problem.words
            #expect(Language.en.explanations(key, values) == english)
            let chinese = Language.zh.explanations(key, values) ?? ""
            #expect(ScenarioErrorWordsTests.hasHan(chinese), "\(key): \(chinese)")
        }
    }

    /// Through the binary: the parser's "Error:" and our sentence are both Chinese.
    @Test func aBadOptionIsReportedInChinese() throws {
        let r = try CLI.run(["--lang", "zh", "export", "rsa"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("错误：请说明要写出什么：--pcap FILE、--html FILE，或两者都要"), "\(r.stderr)")
        let en = try CLI.run(["--lang", "en", "export", "rsa"])
        #expect(en.stderr.contains("Error: say what to write: --pcap FILE, --html FILE, or both"), "\(en.stderr)")
    }
}
