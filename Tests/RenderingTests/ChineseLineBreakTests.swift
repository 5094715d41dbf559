import Foundation
@testable import Rendering
import Scenarios
import Simulation
import TestSupport
import Testing

/// Issue #34: the Chinese line-breaking rules (避头尾, W3C clreq §3.1.7) hold in the wrapper every
/// surface uses — no line starts with closing punctuation (，。、；：？！）》」』］) and none ends with an
/// opening one (（《「『［) — for every built-in run and every lesson in Chinese at 60, 80 and 120 columns.
@Suite("Chinese line breaks: no closing punctuation first, no opening punctuation last")
struct ChineseLineBreakTests {
    static let widths = [60, 80, 120]

    /// The breaches in `lines`: each piece of text between rails (│ ┃ …) and runs of two or more spaces is
    /// where a wrapped line starts or ends, so each is checked on its own.
    static func breaches(_ lines: [String]) -> [String] {
        var found: [String] = []
        for line in lines {
            let plain = String(line.map { "│┃├┤┼─━▶◀╴╶┆".contains($0) ? " " : $0 })
            for piece in plain.split(separator: "  ").map({ $0.trimmingCharacters(in: .whitespaces) }) where !piece.isEmpty {
                if let first = piece.first, DisplayWidth.closingPunctuation.contains(first) { found.append("starts with \(first): \(line)") }
                if let last = piece.last, DisplayWidth.openingPunctuation.contains(last) { found.append("ends with \(last): \(line)") }
            }
        }
        return found
    }

    @Test func theCheckFindsWhatItDescribes() {
        #expect(Self.breaches(["           │   ，提供了 1 个密码套件"]).count == 1)
        #expect(Self.breaches(["证书链（", "］"]).count == 2)
        #expect(Self.breaches(["客户端：证书链（叶子证书在前）。"]).isEmpty)
    }

    /// The case of the review (5.1): a 64-digit random fills the column and "，" follows it.
    @Test func aHardCutKeepsTheCommaOnItsWord() {
        let random = String(repeating: "ab", count: 32)
        for width in 30 ... 80 {
            let lines = DisplayWidth.wrap("客户端随机数 \(random)，提供了 1 个密码套件（共 1 个）", width: width, indent: 4)
            #expect(Self.breaches(lines).isEmpty, "\(width): \(lines)")
            let dump = HexdumpRenderer(width: width).wrap("    客户端随机数 \(random)，提供了 1 个密码套件", continuationIndent: 4)
            #expect(Self.breaches(dump).isEmpty, "\(width): \(dump)")
        }
    }

    @Test(arguments: BuiltInRun.allCases)
    func builtInRuns(run: BuiltInRun) throws {
        let trace = try ChineseLayoutTests.trace(run)
        for width in Self.widths {
            for verbosity in [TextRenderer.Verbosity.summary, .normal, .bytes] {
                let lines = TextRenderer(verbosity: verbosity, width: width, color: false, explanations: .chinese).render(trace)
                for breach in Self.breaches(lines) { Issue.record("\(run.rawValue) \(verbosity) \(width): \(breach)") }
            }
        }
    }

    @Test func everyLesson() throws {
        let files = ScenarioCheck.files(under: [ChineseLessonOutputTests.library]).files
        #expect(files.count >= 100)
        for file in files {
            let scenario = try ScenarioParser.parse(contentsOf: file)
            let trace = scenario.run().trace
            let chinese = scenario.chinese
            for width in Self.widths {
                var lines: [String] = []
                if let trace { lines += TextRenderer(verbosity: .normal, width: width, color: false, explanations: .chinese).render(trace) }
                for text in [chinese?.title, chinese?.description].compactMap({ $0 }) + (chinese?.tryNext ?? []) {
                    lines += DisplayWidth.wrap(text, width: width, indent: 2)
                }
                for breach in Self.breaches(lines) { Issue.record("\(file) \(width): \(breach)") }
            }
            // The other typesetting rules too (issue #34), on the unwrapped text: a formula wrapped over two
            // lines ("Hash(…端口, 密钥)") keeps its ASCII commas, which a line alone cannot tell.
            var whole: [String] = []
            if let trace { whole += TextRenderer(verbosity: .normal, width: 100_000, color: false, explanations: .chinese).render(trace) }
            whole += [chinese?.title, chinese?.description].compactMap { $0 } + (chinese?.tryNext ?? [])
            for line in whole { for problem in ChineseTypography.problems(in: line) { Issue.record("\(file): \(problem)") } }
        }
    }
}
