@testable import Rendering
import Languages
import Simulation
import Testing
import TLSEngine
import Trace

/// `tlslab compare NAME NAME --html`: one self-contained page built from the same comparison as the
/// text — the same table rows, the same why paragraphs, each run's knowledge panel, and the ladders'
/// phases facing each other — in English and Chinese, with nothing fetched and nothing run.
@Suite("compare --html: the comparison as one page")
struct ComparisonPageTests {
    static func run(_ run: BuiltInRun) throws -> (name: String, trace: Trace) {
        (run.rawValue, Simulation(try run.setup(seed: 1)).run())
    }

    @Test(arguments: [Language.en, .zh])
    func thePageHoldsTheTableAndTheLaddersPhaseBesidePhase(language: Language) throws {
        let a = try Self.run(.rsa), b = try Self.run(.tls13)
        let comparison = RunComparison(a, b)
        let explanations = language.explanations
        let page = ComparisonPage(explanations: explanations).render(comparison, a.trace, b.trace)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<html lang=\"\(language.tag)\">"))
        #expect(!page.contains("<script") && !page.contains("http://") && !page.contains("https://"), "self-contained, no script")
        // Every row of the table, worded as the text printer words it, values in the run's column.
        let printer = ComparisonPrinter(width: 147, explanations: explanations)
        for row in printer.rows(comparison) {
            #expect(page.contains("<tr><th scope=\"row\">\(HTMLText.escaped(row.question))</th><td>\(HTMLText.escaped(row.first))</td><td>\(HTMLText.escaped(row.second))</td></tr>"),
                    "\(row.question)")
        }
        // rsa: 4 round trips, the certificate in the clear; tls13: 3, the certificate encrypted.
        #expect(comparison.first.roundTripsToFirstByte == 4 && comparison.second.roundTripsToFirstByte == 3)
        for key in ComparisonPrinter.whyKeys { #expect(page.contains(HTMLText.escaped(explanations(key) ?? key))) }
        // The ladders: the phases of both runs, paired in order, two cells per phase (one per run).
        let phases = page.components(separatedBy: "<pre class=\"phase\" data-phase=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(phases.count % 2 == 0 && phases.count >= 8)
        for pair in stride(from: 0, to: phases.count, by: 2) { #expect(phases[pair] == phases[pair + 1]) }
        #expect(Array(phases.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).prefix(5)) == ["start", "tcp", "tls", "application", "closing"])
        // Each ladder's messages are there: 1.2's ServerHelloDone only on the left, 1.3's EncryptedExtensions only on the right.
        #expect(page.contains("ServerHelloDone") && page.contains("EncryptedExtensions"))
        if language == .zh { #expect(page.contains("时序图") || page.contains("谁知道")) }
    }

    @Test func textInThePageIsEscaped() throws {
        let a = try Self.run(.rsa), b = try Self.run(.tls13)
        let page = ComparisonPage().render(RunComparison(("<b>one</b>", a.trace), ("two&three", b.trace)), a.trace, b.trace)
        #expect(!page.contains("<b>one</b>") && page.contains("&lt;b&gt;one&lt;/b&gt;") && page.contains("two&amp;three"))
    }
}
