@testable import Rendering
import Simulation
import Testing
import Trace

/// A reference such as "RFC 5246 §7.4.1" is read as one thing: no line break between "RFC" and its
/// number, or between the number and its section, in either language and in either wrapper.
@Suite("RFC references stay on one line")
struct ReferenceWrapTests {
    static let english = "The server's certificate list is sent leaf first, and each following certificate must certify the one before it (RFC 5246 §7.4.2); the client checks it (RFC 5280 §6.1)."
    static let chinese = "服务器的证书列表先发叶子证书，之后的每一张证书都必须为前一张签名（RFC 5246 §7.4.2）；客户端按 RFC 5280 §6.1 检查它。"

    @Test func theRuleFindsTheSpacesOfAReference() {
        let text = Array("see RFC 5246 §7.4.1 and 2 §3, FRFC 1 §2 or （RFC 9113 §3.4）")
        let joined = text.indices.filter { DisplayWidth.joinsReference(text, at: $0) }.map { String(text[($0 - 2)...($0 + 1)]) }
        #expect(joined == ["FC 5", "46 §", "FC 9", "13 §"], "\(joined)")
    }

    /// Whether a wrapped line ends inside a reference: with "RFC", or with "RFC n" before a line that
    /// continues with "§".
    static func splitReferences(_ lines: [String]) -> [String] {
        let rails: Set<Character> = [" ", "│", "┆", "║"]
        var out: [String] = []
        for (index, line) in lines.enumerated() {
            let end = line.replacing(/\s+$/, with: "")
            if end.hasSuffix("RFC") { out.append(line) }
            if index + 1 < lines.count, end.contains(/RFC \d+$/) {
                let next = lines[index + 1].drop { rails.contains($0) }
                if next.hasPrefix("§") { out.append(line + " ⏎ " + lines[index + 1]) }
            }
        }
        return out
    }

    @Test(arguments: [60, 80, 120])
    func bothWrappersKeepReferencesTogether(width: Int) {
        for text in [Self.english, Self.chinese] {
            // Shift the text so that every position of the references meets the line's end once.
            for shift in 0..<40 {
                let shifted = String(repeating: "x", count: shift) + " " + text
                for lines in [TextRenderer.wrapWords(shifted, width: width, indent: 2),
                              HexdumpRenderer(width: width).wrap("  " + shifted, continuationIndent: 4)] {
                    #expect(Self.splitReferences(lines).isEmpty, "\(width) +\(shift): \(lines)")
                    for line in lines { #expect(DisplayWidth.columns(line) <= width, "\(width): \(line)") }
                    #expect(lines.joined().filter { $0 != " " } == ("  " + shifted).filter { $0 != " " }, "nothing is lost")
                }
            }
        }
    }

    @Test func withoutTheRuleTheTestFindsASplit() {
        // The same check on a naive break at the width: it sees the split the wrappers avoid.
        let lines = ["the rule is stated in RFC", "5246 §7.4.1", "see RFC 5246", "§7.4.2"]
        #expect(Self.splitReferences(lines).count == 2)
    }

    @Test(arguments: [60, 80, 120])
    func runsInBothLanguagesKeepReferencesTogether(width: Int) throws {
        for run in [BuiltInRun.rsa, .h2, .mitm, .strip] {
            let trace = Simulation(try run.setup(seed: 1)).run()
            for explanations in [Explanations.english, .chinese] {
                let ladder = TextRenderer(verbosity: .normal, width: width, color: false, explanations: explanations).render(trace)
                    .flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
                #expect(Self.splitReferences(ladder).isEmpty, "\(run) \(explanations.language) at \(width): \(Self.splitReferences(ladder))")
                let walk = Walkthrough(title: run.rawValue, trace: trace, width: width, explanations: explanations)
                var cursor = Walkthrough.Cursor()
                for step in 0..<walk.steps.count {
                    cursor.step = step
                    let screen = walk.screen(cursor, width: width, height: 60)
                    #expect(Self.splitReferences(screen).isEmpty, "\(run) step \(step) at \(width): \(Self.splitReferences(screen))")
                }
            }
        }
    }
}
