import Foundation
@testable import Rendering
import Scenarios
import Simulation
import Testing
import TestSupport
import Trace

/// Issue #34's typesetting rules on what a reader sees, not only on the catalogue: every built-in run's
/// text, its walkthrough screens and its HTML page's text in Chinese keep full-width punctuation in
/// Chinese sentences, one space between Chinese and Latin letters or digits, no space before a full-width
/// mark or inside （, no spaced ——, “ ” quotes (``ChineseTypography``), and no line of the text or the
/// screens starts with closing punctuation or ends with opening punctuation (``ChineseLineBreakTests``),
/// at 60, 80 and 120 columns. (Every lesson: `ChineseLineBreakTests.everyLesson` and `ChineseLessonTests`.)
@Suite("Chinese typesetting on every surface: text, walkthrough screens, HTML")
struct ChineseTypesettingSurfacesTests {
    static let widths = [60, 80, 120]

    /// Each line's problems (a wrapped line is checked as it is printed), with where it was seen.
    static func problems(_ lines: [String], _ place: String) -> [String] {
        lines.flatMap { line in ChineseTypography.problems(in: line).map { "\(place): \($0) in \(line)" } }
            + ChineseLineBreakTests.breaches(lines).map { "\(place): line break \($0)" }
    }

    @Test(arguments: BuiltInRun.allCases)
    func textAndWalkthroughScreens(run: BuiltInRun) throws {
        let trace = try ChineseLayoutTests.trace(run)
        for width in Self.widths {
            let text = TextRenderer(verbosity: .normal, width: width, color: false, explanations: .chinese).render(trace)
            for problem in Self.problems(ChineseLayoutTests.lines(text), "\(run.rawValue) text \(width)") { Issue.record("\(problem)") }
            let walkthrough = Walkthrough(title: run.rawValue, trace: trace, width: width, explanations: .chinese)
            var cursor = Walkthrough.Cursor()
            for step in stride(from: 0, to: walkthrough.steps.count, by: 4) {
                cursor.step = step
                let screen = walkthrough.screen(cursor, width: width, height: 30)
                for problem in Self.problems(screen, "\(run.rawValue) screen \(step) \(width)") { Issue.record("\(problem)") }
            }
        }
    }

    /// The page's text (its words between tags, scripts and styles left out).
    static func htmlText(_ page: String) -> [String] {
        let visible = page.replacing(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/, with: "")
        return visible.split(separator: /<[^>]+>/).map { piece in
            String(piece).replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
                .replacing("&#39;", with: "'").replacing("&amp;", with: "&").trimmingCharacters(in: .whitespacesAndNewlines)
        }.filter { !$0.isEmpty }
    }

    @Test(arguments: BuiltInRun.allCases)
    func htmlPageText(run: BuiltInRun) throws {
        let page = HTMLRenderer(explanations: .chinese).page(name: run.rawValue, trace: try ChineseLayoutTests.trace(run))
        let text = Self.htmlText(page)
        #expect(text.contains { $0.contains { ChineseTypography.isHan($0) } })
        for problem in text.flatMap({ piece in ChineseTypography.problems(in: piece).map { "\(run.rawValue) page: \($0) in \(piece)" } }) {
            Issue.record("\(problem)")
        }
    }

    /// Every lesson too (issue #34, "Done means": every lesson, the walkthrough screens and the HTML
    /// text): its walkthrough screens at 60, 80 and 120 columns and its page's text in Chinese.
    @Test func everyLessonsScreensAndPage() throws {
        let files = ScenarioCheck.files(under: [ChineseLessonOutputTests.library]).files
        #expect(files.count >= 100)
        for file in files {
            let scenario = try ScenarioParser.parse(contentsOf: file)
            guard let trace = scenario.run().trace else { continue }
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            for width in Self.widths {
                let walkthrough = Walkthrough(title: scenario.chinese?.title ?? name, trace: trace, width: width, explanations: .chinese)
                var cursor = Walkthrough.Cursor()
                for step in stride(from: 0, to: walkthrough.steps.count, by: 3) {
                    cursor.step = step
                    let screen = walkthrough.screen(cursor, width: width, height: 30)
                    for problem in Self.problems(screen, "\(name) screen \(step) \(width)") { Issue.record("\(problem)") }
                }
            }
            let page = HTMLRenderer(explanations: .chinese).page(name: name, trace: trace)
            for problem in Self.htmlText(page).flatMap({ piece in ChineseTypography.problems(in: piece).map { "\(name) page: \($0) in \(piece)" } }) {
                Issue.record("\(problem)")
            }
        }
    }

    @Test func theChecksFindWhatTheyDescribe() {
        #expect(Self.problems(["客户端发送了ClientHello"], "x").count == 1)
        #expect(Self.problems(["证书链（", "，叶子证书在前"], "x").count == 2)
        #expect(Self.htmlText("<p>客户端 &amp; 服务器</p><script>var a = 1</script>") == ["客户端 & 服务器"])
    }
}
