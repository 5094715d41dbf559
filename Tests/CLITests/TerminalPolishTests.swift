import Foundation
import Rendering
import Scenarios
import Simulation
import Testing
@testable import tlslab

/// Issue #33, terminal: colour by kind and a bold current row where the terminal supports it (none
/// with NO_COLOR, `--color never` or when piped), `lessons` name first within the width, `--help`
/// says what bare `tlslab` does, and the walkthrough's last step says what to try next.
@Suite("The terminal: colour, lessons, help, what next")
struct TerminalPolishTests {
    @Test func colourFollowsTheChoiceTheTerminalAndNoColor() {
        let term = ["TERM": "xterm-256color"]
        #expect(Terminal.useColor(.auto, environment: term, isTerminal: true))
        #expect(!Terminal.useColor(.auto, environment: term, isTerminal: false), "piped: no colour")
        #expect(!Terminal.useColor(.auto, environment: term.merging(["NO_COLOR": "1"]) { $1 }, isTerminal: true))
        #expect(Terminal.useColor(.auto, environment: term.merging(["NO_COLOR": ""]) { $1 }, isTerminal: true), "an empty NO_COLOR is unset")
        #expect(!Terminal.useColor(.auto, environment: ["TERM": "dumb"], isTerminal: true))
        #expect(!Terminal.useColor(.auto, environment: [:], isTerminal: true), "no TERM: no colour")
        #expect(!Terminal.useColor(.never, environment: term, isTerminal: true))
        #expect(Terminal.useColor(.always, environment: ["NO_COLOR": "1"], isTerminal: false))
        #expect(throws: Never.self) { _ = try RenderOptions.parse(["--color", "never"]) }
        #expect(throws: (any Error).self) { _ = try RenderOptions.parse(["--color", "sometimes"]) }
    }

    /// `run --color always` colours even when piped (the attacker magenta, alerts red); `never` and a
    /// pipe with `auto` print none.
    @Test func runHonoursTheColourOption() throws {
        let always = try CLI.run(["run", "mitm", "--color", "always"])
        #expect(always.stdout.contains("\u{1B}[35m") && always.stdout.contains("\u{1B}[36m"))
        for arguments in [["run", "mitm", "--color", "never"], ["run", "mitm"]] {
            #expect(!(try CLI.run(arguments, environment: ["TERM": "xterm-256color"]).stdout.contains("\u{1B}[")), "\(arguments)")
        }
    }

    static func walk(_ run: String, color: Bool) throws -> Walkthrough {
        let resolved = try ResolvedRun.resolve(run, seed: .unspecified)
        let (trace, page) = resolved.play()
        var walk = Walkthrough(title: run, trace: trace, width: 80, page: page)
        walk.color = color
        return walk
    }

    /// TCP cyan, TLS green, alerts red, the attacker magenta; the current row bold; never wider.
    @Test func walkthroughColoursByKindAndBoldsTheCurrentRow() throws {
        let walk = try Self.walk("mitm", color: true)
        var cursor = Walkthrough.Cursor()
        cursor.step = walk.steps.count - 1
        var seen = ""
        for step in stride(from: 1, to: walk.steps.count, by: 1) {
            cursor.step = step
            let screen = walk.screen(cursor, width: 80, height: 40)
            seen += screen.joined(separator: "\n")
            for line in screen {
                let plain = line.replacing(/\u{1B}\[[0-9;]*m/, with: "")
                #expect(DisplayWidth.columns(plain) <= 80)
            }
            #expect(screen.contains { $0.hasPrefix("\u{1B}[1") && $0.contains("▶") }, "step \(step): the current row is bold")
        }
        for code in ["36m", "32m", "31m", "35m"] { #expect(seen.contains(code), "colour \(code)") }
        let plain = try Self.walk("mitm", color: false)
        cursor.step = 30
        #expect(!plain.screen(cursor, width: 80, height: 40).joined().contains("\u{1B}["), "no colour unless asked")
    }

    /// Piped, `lessons` is as wide as $COLUMNS or 80: every name whole, in course order.
    @Test(arguments: [nil, "60", "120"] as [String?])
    func lessonsFitTheWidthWithEveryNameWhole(columns: String?) throws {
        let root = LessonShowTests.root.path
        var env = ["TLSLAB_SCENARIOS": LessonShowTests.library]
        if let columns { env["COLUMNS"] = columns }
        let result = try CLI.run(["lessons"], environment: env, currentDirectory: root)
        #expect(result.status == 0)
        let width = columns.flatMap(Int.init) ?? 80
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for line in lines { #expect(DisplayWidth.columns(line) <= width, "wider than \(width): \(line)") }
        let path = LessonCatalogue(directory: LessonShowTests.library).path
        let firsts = lines.compactMap { $0.split(separator: " ").first.map(String.init) }
        let named = firsts.filter { name in path.contains { $0.name == name } }
        #expect(named == path.map(\.name), "every name whole, first on its line, in course order")
        #expect(lines.first?.hasPrefix("tcp/three-way-handshake") == true)
        // No title cut: the words of a long title are all there.
        let joined = result.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for entry in path.prefix(40) { #expect(joined.contains(entry.title.split(separator: " ").joined(separator: " ")), "\(entry.name)") }
        #expect(!result.stdout.contains("…"))
    }

    @Test func helpSaysWhatBareTlslabDoesWithExamples() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Bare `tlslab` starts the walkthrough") && help.stdout.contains("Examples:"))
        #expect(help.stdout.contains("tlslab walkthrough tcp/three-way-handshake") && help.stdout.contains("--color <when>"))
        #expect(Explanations.chinese("cli.help.examples")?.contains("逐步演示") == true)
    }

    /// The last step: a lesson's own try_next, else the next lesson of the course; a built-in run
    /// points to where the course starts.
    @Test func theLastStepSaysWhatToTryNext() throws {
        let path = LessonCatalogue(directory: LessonShowTests.library).path
        let without = try #require(path.firstIndex { entry in
            (try? ScenarioParser.parse(contentsOf: entry.file))?.tryNext.isEmpty == true && entry.kind == "tls"
        })
        let resolved = try ResolvedRun.resolve(path[without].name, seed: .unspecified)
        let next = try #require(resolved.nextInCourse(language: .en))
        #expect(next.name == path[without + 1].name)
        let (trace, page) = resolved.play()
        let walk = Walkthrough(title: resolved.name, trace: trace, width: 80, page: page, next: next)
        let last = try #require(walk.steps.last).detail.joined(separator: " ")
        #expect(last.contains("Next in the course: tlslab walkthrough \(next.name)"), "\(last)")

        let rsa = try ResolvedRun.resolve("rsa", seed: .unspecified)
        let start = try #require(rsa.nextInCourse(language: .zh))
        #expect(start.name == path[0].name)
        let walkRSA = Walkthrough(title: "rsa", trace: rsa.play().trace, width: 80, explanations: .chinese, next: start)
        #expect(try #require(walkRSA.steps.last).detail.joined().contains("第一课是 tlslab walkthrough \(path[0].name)"))

        // A lesson with try_next keeps its own suggestion and adds no other.
        let withOwn = try ResolvedRun.resolve("tls/early-ccs-refused", seed: .unspecified)
        let (t2, p2) = withOwn.play()
        let walk2 = Walkthrough(title: "x", trace: t2, width: 80, page: p2, next: withOwn.nextInCourse(language: .en))
        let last2 = try #require(walk2.steps.last).detail.joined(separator: " ")
        let own = try #require(p2?.tryNext.first)
        #expect(!last2.contains("Next in the course") && last2.contains(own.prefix(30)))
    }
}
