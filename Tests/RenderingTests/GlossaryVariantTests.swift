@testable import Rendering
import Simulation
import Testing
import TestSupport

/// No rendering that `docs/glossary-zh.md` rules out appears in anything printed in Chinese (issue #34):
/// every built-in run at every verbosity, its walkthrough and its HTML page. The catalogue and the lessons'
/// zh fields are checked by `CatalogueTests` and `ChineseLessonTests` against the same rows.
@Suite("Chinese output: no forbidden glossary variant")
struct GlossaryVariantTests {
    @Test(arguments: BuiltInRun.allCases)
    func builtInRunsUseOneTermPerConcept(run: BuiltInRun) throws {
        let rows = try ChineseGlossary.rows()
        let trace = try ChineseLayoutTests.trace(run)
        var texts: [String] = []
        for verbosity in [TextRenderer.Verbosity.summary, .normal, .bytes] {
            texts += TextRenderer(verbosity: verbosity, width: 100_000, color: false, explanations: .chinese).render(trace)
        }
        let walkthrough = Walkthrough(title: run.rawValue, trace: trace, width: 80, explanations: .chinese)
        texts += walkthrough.steps.flatMap { $0.detail }
        var seen: Set<String> = []
        for text in texts {
            for variant in ChineseGlossary.forbiddenVariants(in: text, rows: rows) where seen.insert(variant).inserted {
                Issue.record("\(run.rawValue): \(variant) in: \(text)")
            }
        }
    }
}
