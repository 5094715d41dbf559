import Foundation
import Rendering
import Simulation
import Testing

/// The Chinese text of built-in runs, byte for byte (read by a native reader when it changes).
/// `TLSLAB_UPDATE_GOLDENS=1` rewrites differing files, as for the English goldens.
@Suite("Golden traces in Chinese")
struct ChineseGoldenTests {
    @Test(arguments: [BuiltInRun.rsa, .dhe, .keyTheftRSA, .mitm])
    func chineseTextAtNormalVerbosity(run: BuiltInRun) throws {
        let lines = TextRenderer(verbosity: .normal, width: 100, color: false, explanations: .chinese)
            .render(try GoldenTests.trace(run, seed: 1))
        try GoldenTests.check(lines.joined(separator: "\n") + "\n", named: "\(run.rawValue)-seed1-zh.txt")
    }

    @Test func chineseRSAAt80Columns() throws {
        let lines = TextRenderer(verbosity: .normal, width: 80, color: false, explanations: .chinese)
            .render(try GoldenTests.trace(.rsa, seed: 7))
        try GoldenTests.check(lines.joined(separator: "\n") + "\n", named: "rsa-seed7-normal-80-zh.txt")
    }
}
