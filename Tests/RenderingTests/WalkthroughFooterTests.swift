import Foundation
@testable import Rendering
import Simulation
import Testing

/// Review-zh 5.6: at 60 columns the walkthrough's footer still says what k and x switch (who knows
/// what, the bytes) and whether each is on, in both languages; it is never wider than the screen.
@Suite("The walkthrough's footer names what k and x show")
struct WalkthroughFooterTests {
    @Test(arguments: [60, 80, 120])
    func theFooterNamesTheToggles(width: Int) throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        for (explanations, knowledge, bytes) in [(Explanations.english, "k knowledge off", "x bytes on"),
                                                 (Explanations.chinese, "k 谁知道什么 关", "x 字节 开")] {
            let walk = Walkthrough(title: "rsa", trace: trace, width: width, explanations: explanations)
            var cursor = Walkthrough.Cursor()
            cursor.step = 3
            cursor.showBytes = true
            let footer = try #require(walk.screen(cursor, width: width, height: 30).last)
            #expect(footer.contains(knowledge) && footer.contains(bytes), "\(explanations.language) at \(width): \(footer)")
            #expect(DisplayWidth.columns(footer) <= width, "\(footer)")
        }
    }
}

/// Review-zh 5.8: the ladder shows whole entries only, so a tall entry left rows empty under the
/// column header; those rows go to the explanation pane when it has more to show.
@Suite("No blank rows under the walkthrough's header while the pane is cut")
struct WalkthroughBlankRowsTests {
    @Test(arguments: [60, 80])
    func spareRowsGoToThePane(width: Int) throws {
        for run in [BuiltInRun.rsa, .mitm] {
            let trace = Simulation(try run.setup(seed: 1)).run()
            for explanations in [Explanations.english, .chinese] {
                let walk = Walkthrough(title: run.rawValue, trace: trace, width: width, explanations: explanations)
                var cursor = Walkthrough.Cursor()
                for step in 1 ..< walk.steps.count {
                    cursor.step = step
                    let screen = walk.screen(cursor, width: width, height: 30)
                    guard let separator = screen.firstIndex(where: { $0.hasPrefix("────") }) else { continue }
                    let paneIsCut = screen[separator...].contains { $0.hasPrefix("  ── ") }
                    // Row 2 is the first ladder row (after the title and the column header).
                    if screen[2].allSatisfy({ $0 == " " }) {
                        #expect(!paneIsCut, "\(run) \(explanations.language) step \(step) at \(width): blank ladder rows while the pane is cut:\n\(screen.joined(separator: "\n"))")
                    }
                    #expect(screen.count == 30)
                }
            }
        }
    }
}
