import Foundation
import HTTP2
import Rendering
import Simulation
import Testing
import Trace
import Trust

/// Golden (snapshot) tests: the rendered text of every built-in run for a fixed seed, byte for byte.
/// A change to the engine, the simulation or the renderer that changes what learners see shows up
/// here. To accept a change on purpose: `TLSLAB_UPDATE_GOLDENS=1 swift test --filter GoldenTests`,
/// then read the diff in git before committing it.
@Suite("Golden traces")
struct GoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let update = ProcessInfo.processInfo.environment["TLSLAB_UPDATE_GOLDENS"] == "1"

    static func check(_ text: String, named name: String) throws {
        let file = directory.appendingPathComponent(name)
        let recorded = try? String(contentsOf: file, encoding: .utf8)
        if update {
            // Only a golden that differs is rewritten, so the diff names exactly what changed.
            if recorded != text { try text.write(to: file, atomically: true, encoding: .utf8) }
            return
        }
        guard let expected = recorded else {
            Issue.record("no golden file \(name): run with TLSLAB_UPDATE_GOLDENS=1 to create it")
            return
        }
        guard text != expected else { return }
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        Issue.record("""
            \(name) differs from the golden file at line \(line + 1):
              golden: \(line < a.count ? String(a[line]) : "<end>")
              now:    \(line < b.count ? String(b[line]) : "<end>")
            (TLSLAB_UPDATE_GOLDENS=1 regenerates on purpose)
            """)
    }

    static func trace(_ run: BuiltInRun, seed: UInt64) throws -> Trace {
        Simulation(try run.setup(seed: seed)).run()
    }

    @Test(arguments: BuiltInRun.allCases)
    func textAtNormalVerbosity(run: BuiltInRun) throws {
        let lines = TextRenderer(verbosity: .normal, width: 100, color: false).render(try Self.trace(run, seed: 1))
        try Self.check(lines.joined(separator: "\n") + "\n", named: "\(run.rawValue)-seed1.txt")
    }

    @Test func rsaAtEveryVerbosityAndAnotherSeed() throws {
        let trace = try Self.trace(.rsa, seed: 7)
        for verbosity in TextRenderer.Verbosity.allCases {
            let lines = TextRenderer(verbosity: verbosity, width: 80, color: false).render(trace)
            try Self.check(lines.joined(separator: "\n") + "\n", named: "rsa-seed7-\(verbosity.rawValue)-80.txt")
        }
    }

    @Test func jsonLines() throws {
        let lines = JSONLinesRenderer().render(try Self.trace(.dhe, seed: 3))
        try Self.check(lines.joined(separator: "\n") + "\n", named: "dhe-seed3.jsonl")
    }

    /// The text renderer honours its width: no line is wider than asked (the bytes level wraps too).
    @Test(arguments: [60, 80, 120])
    func linesFitTheWidth(width: Int) throws {
        let trace = try Self.trace(.ecdhe, seed: 2)
        for verbosity in TextRenderer.Verbosity.allCases {
            for line in TextRenderer(verbosity: verbosity, width: width, color: false).render(trace)
                .flatMap({ $0.split(separator: "\n") }) {
                #expect(line.count <= width, "\(verbosity) at \(width): \(line.count) columns: \(line)")
            }
        }
    }

    /// Colour is escape codes around whole lines when asked for, and nothing else changes.
    @Test func colourOnlyAddsEscapes() throws {
        let trace = try Self.trace(.untrusted, seed: 1)
        let plain = TextRenderer(verbosity: .normal, width: 100, color: false).render(trace)
        let colored = TextRenderer(verbosity: .normal, width: 100, color: true).render(trace)
        #expect(!plain.joined().contains("\u{1B}["))
        #expect(colored.joined().contains("\u{1B}[31m"), "alerts are red")
        let stripped = colored.map { $0.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }
        #expect(stripped == plain)
    }
}
