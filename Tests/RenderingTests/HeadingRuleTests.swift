import Foundation
@testable import Rendering
import Simulation
import Testing
import Trace

/// Issues #33/#34 (review-zh 5.5): every section heading of a printed run ends in one column — the
/// phases, the knowledge tables, the outcome and the attacks' "After the run: …" headings — measured
/// in terminal columns (a Chinese character takes two), in English and Chinese, at 60, 80 and 120 columns.
@Suite("Section headings end in one column")
struct HeadingRuleTests {
    static let runs: [BuiltInRun] = [.keyTheftRSA, .keyTheftECDHE, .weakRandom, .tls13KeyTheft]

    @Test(arguments: [60, 80, 120])
    func everyHeadingHasTheRuleWidth(width: Int) throws {
        for run in Self.runs {
            let trace = Simulation(try run.setup(seed: 1)).run()
            for explanations in [Explanations.english, .chinese] {
                let lines = TextRenderer(verbosity: .normal, width: width, explanations: explanations).render(trace)
                    .flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
                let headings = lines.indices.filter { lines[$0].hasPrefix("── ") }
                // The phases, the knowledge tables, the outcome and the attack's own heading.
                #expect(headings.count >= 5, "\(run) \(explanations.language) at \(width): \(headings.map { lines[$0] })")
                #expect(headings.contains { lines[$0].contains(explanations.language == .zh ? "运行结束后" : "After the run") },
                        "\(run) \(explanations.language): \(headings.map { lines[$0] })")
                for i in headings {
                    let heading = lines[i]
                    if heading.hasSuffix("─") {
                        // A title too long for the rule keeps three dashes after it.
                        let title = String(heading.reversed().drop { $0 == "─" }.reversed())
                        #expect(DisplayWidth.columns(heading) == max(min(65, width), DisplayWidth.columns(title) + 3),
                                "\(run) \(explanations.language) at \(width): \(DisplayWidth.columns(heading)) columns: \(heading)")
                    } else {
                        // A title too long for the width wraps like any line; its rule ends the next line, within the width.
                        let next = i + 1 < lines.count ? lines[i + 1] : ""
                        #expect(DisplayWidth.columns(heading) <= width && next.hasSuffix("───") && DisplayWidth.columns(next) <= width,
                                "\(run) \(explanations.language) at \(width): \(heading) / \(next)")
                    }
                }
            }
        }
    }

    /// `TextRenderer.heading` (what `connect` prints above the HTTP response) is the section rule at the
    /// renderer's width, coloured as a heading only when the renderer colours.
    @Test(arguments: [60, 80, 120])
    func theRenderersHeadingIsTheSectionRule(width: Int) {
        for (title, explanations) in [("HTTP response", Explanations.english), ("HTTP 响应", .chinese)] {
            let plain = TextRenderer(width: width, explanations: explanations).heading(title)
            #expect(plain == LadderEntry.rule(title, width: width) && DisplayWidth.columns(plain) == min(65, width), "\(width): \(plain)")
            let coloured = TextRenderer(width: width, color: true, explanations: explanations).heading(title)
            #expect(coloured.hasPrefix("\u{1B}[") && coloured.hasSuffix("\u{1B}[0m") && coloured.contains(plain))
        }
    }

    /// The rule measures a Chinese title by display width: "── 运行结束后：… ─" is as wide as an English one.
    @Test func theRuleCountsColumnsNotCharacters() {
        let zh = LadderEntry.rule("运行结束后：服务器的 2048 位私钥被盗", width: 80)
        let en = LadderEntry.rule("After the run: the server's 2048-bit private key is stolen", width: 80)
        #expect(DisplayWidth.columns(zh) == 65 && DisplayWidth.columns(en) == 65)
        #expect(zh.count < en.count)
    }
}
