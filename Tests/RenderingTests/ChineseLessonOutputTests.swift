import Foundation
@testable import Rendering
import Scenarios
import Testing
import Trace

/// `tlslab --lang zh run LESSON` for every policy lesson (AFNetworking, NSURLSession challenges, ATS,
/// mutual TLS, certificates, the MITM attacks on policies): the run's lines hold no English sentence
/// and no English word outside ``ChineseASCIIWordTests``'s allow-list; the only exemption is the text
/// the engines still write themselves (``ChineseLayoutTests/engineText(_:)``). The policy's own steps
/// are worded by the catalogue, so its Chinese reasons are there.
@Suite("Policy lessons in Chinese: no English left")
struct ChineseLessonOutputTests {
    /// The repository's `Scenarios/` directory (found from this file's path).
    static var library: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Scenarios").path
    }

    static let policyDirectories = ["afnetworking", "challenge", "ats", "mtls", "certs"]

    /// The policy lessons: every file of the policy directories, and the attacks that run against a policy.
    static var policyLessons: [String] {
        let files = ScenarioCheck.files(under: [library]).files
        return files.filter { file in
            let relative = String(file.dropFirst(library.count + 1))
            return policyDirectories.contains { relative.hasPrefix($0 + "/") } || relative.hasPrefix("attacks/mitm-")
        }.map { String($0.dropFirst(library.count + 1)) }.sorted()
    }

    static func zhLines(_ lesson: String) throws -> (lines: [String], exempt: [String]) {
        let run = try ScenarioParser.parse(contentsOf: library + "/" + lesson).run()
        let trace = try #require(run.trace, "\(lesson) has no trace")
        var lines: [String] = []
        for verbosity in [TextRenderer.Verbosity.summary, .normal] {
            lines += TextRenderer(verbosity: verbosity, width: 100_000, color: false, explanations: .chinese).render(trace)
        }
        // The certificates' names in an ATS lesson's plan are the lesson file's values (demo-leaf).
        let names = trace.events.flatMap { event -> [String] in
            if case .lesson(.atsPlan(let plan)) = event.kind { return plan.chain } else { return [] }
        }
        return (lines, ChineseLayoutTests.engineText(trace) + names)
    }

    @Test func thePolicyLessonsAreFound() {
        let lessons = Self.policyLessons
        #expect(lessons.count >= 60, "\(lessons.count)")
        #expect(lessons.contains("afnetworking/renewal-public-key-pinning.yaml") && lessons.contains("attacks/mitm-own-domain-default.yaml"))
    }

    @Test(arguments: policyLessons)
    func noEnglishInTheChineseRun(lesson: String) throws {
        let (lines, exempt) = try Self.zhLines(lesson)
        var found: [String: String] = [:]
        for line in lines {
            let kept = exempt.reduce(line) { $0.replacing($1, with: " ") }
            for word in ChineseASCIIWordTests.disallowedWords(in: kept) where found[word] == nil { found[word] = line }
            for run in ChineseLayoutTests.englishRuns(in: kept) where found[run] == nil { found[run] = line }
        }
        for (word, line) in found.sorted(by: { $0.key < $1.key }) {
            Issue.record("\(lesson): English \"\(word)\" in: \(line)")
        }
    }

    /// The policy's steps appear worded in Chinese (the catalogue's, not the policy's English).
    @Test(arguments: [
        ("afnetworking/renewal-public-key-pinning.yaml", "第 6 步：O=TLSLab, CN=api.example.com 的公钥与一个锁定的公钥相同"),
        ("afnetworking/renewal-certificate-pinning.yaml", "第 5 步：只把 1 张锁定的证书当作信任锚，证书链无效"),
        ("afnetworking/no-domain-check.yaml", "第 2 步：validatesDomainName 为 NO，使用 BasicX509 策略（不校验域名）"),
        ("afnetworking/must-use-pinning.yaml", "要为自签名证书校验域名就必须使用证书锁定"),
        ("challenge/mode-simple.yaml", "Simple 模式：用 BasicX509 检查证书链，不校验域名"),
        ("challenge/web-container.yaml", "ServerTrust 挑战的处理方：混合网页容器"),
        ("certs/rsa-1024.yaml", "ATS：叶子证书密钥 RSA 1024 位，低于 RSA 2048 / EC 256"),
        ("certs/bundled-anchor-other-ca.yaml", "结果既不是 kSecTrustResultProceed 也不是 kSecTrustResultUnspecified"),
        ("mtls/subject-not-whitelisted.yaml", "不在白名单中"),
        ("mtls/success.yaml", "客户端证书链有效，锚定在客户端 CA 集合中"),
    ])
    func theChineseReasonIsShown(lesson: String, reason: String) throws {
        let (lines, _) = try Self.zhLines(lesson)
        #expect(lines.contains { $0.contains(reason) }, "\(lesson): no line holds \(reason)")
        let english = try ScenarioParser.parse(contentsOf: Self.library + "/" + lesson).run().trace.map {
            TextRenderer(verbosity: .normal, width: 100_000, color: false, explanations: .english).render($0)
        } ?? []
        #expect(!english.contains { $0.contains(reason) })
    }
}
