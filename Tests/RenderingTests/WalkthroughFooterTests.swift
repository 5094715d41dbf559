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
