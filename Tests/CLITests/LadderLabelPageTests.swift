import Foundation
import Languages
@testable import Rendering
import Simulation
import Testing
@testable import tlslab
import Trace

/// Issue #33: on the page, no ladder label ends mid-value. For every built-in run and a few lessons,
/// in English and Chinese, each row's label lines (read back from the page's SVG text) give the
/// step's whole label — a message's every part, a dot's every word — joined with only the spaces
/// a line break took, no label ends in "…", and every label stays in its lane.
@Suite("Ladder labels on the page: whole")
struct LadderLabelPageTests {
    static let lessons = ["tcp/lost-syn", "tls/ecdhe", "tls13/one-round-trip", "ats/default-blocks-http", "tls/toy-dh-search"]

    /// Each row's label lines, by step number, as the page holds them (entities decoded).
    static func labelLines(_ html: String) -> [Int: [String]] {
        var out: [Int: [String]] = [:]
        for row in html.matches(of: /<g class="row[^"]*" id="row-(\d+)"[^>]*>(?s:(.*?))<\/g>/) {
            guard let n = Int(row.output.1), let text = row.output.2.firstMatch(of: /<text class="label[^"]*"[^>]*>(.*?)<\/text>/) else { continue }
            let content = String(text.output.1)
            let spans = content.matches(of: /<tspan[^>]*>(.*?)<\/tspan>/).map { String($0.output.1) }
            out[n] = (spans.isEmpty ? [content] : spans).map(unescaped)
        }
        return out
    }

    static func unescaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test(arguments: BuiltInRun.allCases.map(\.rawValue) + lessons, Language.allCases)
    func everyLabelIsWholeOnThePage(name: String, language: Language) throws {
        let explanations = Explanations.catalogue(for: language)
        let resolved = try ResolvedRun.resolve(name, seed: .unspecified)
        let (trace, page) = resolved.play(explanations: explanations)
        let summary = page == nil ? resolved.summary(in: explanations) : nil
        let renderer = HTMLRenderer(explanations: explanations)
        let html = renderer.page(name: resolved.name, trace: trace, summary: summary, lesson: page)
        // The ladder's steps, as the page builds them (values short on the ladder).
        let walk = Walkthrough(title: resolved.name, trace: trace, width: 100_000, page: page, fullValues: false, about: summary,
                               explanations: explanations, surface: .page)
        let rows = Self.labelLines(html)
        #expect(rows.count == walk.steps.count, "\(name): \(rows.count) labelled rows for \(walk.steps.count) steps")
        // The rails as the page draws them: moved apart when a label holds a piece too wide for its standard lane.
        let rails = renderer.ladderRails(walk, columns: renderer.ladderColumns(trace))
        for (index, step) in walk.steps.enumerated() {
            let lines = try #require(rows[index + 1], "\(name): row \(index + 1) has no label")
            let full = renderer.fullLabel(step)
            #expect(!(lines.last ?? "").hasSuffix("…") || full.hasSuffix("…"), "\(name) \(language) row \(index + 1): \(lines)")
            #expect(HTMLRenderer.joinsBack(lines, into: full), "\(name) \(language) row \(index + 1): \(lines) is not \(full)")
            let placement = renderer.placement(step, rails: rails)
            #expect(placement.staysInLane && placement.lines == lines, "\(name) \(language) row \(index + 1): \(lines)")
            // Every built-in run and lesson fits beside the step on a laptop (#33): no label needs the notes column.
            #expect(!placement.inNotes, "\(name) \(language) row \(index + 1): \(lines)")
        }
    }
}
