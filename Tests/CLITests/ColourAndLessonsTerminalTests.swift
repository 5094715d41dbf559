import Foundation
import Scenarios
import Testing

/// Issue #33 in a real terminal (tmux): the walkthrough in colour with TERM=xterm-256color, none with
/// NO_COLOR=1; `lessons` at 80 columns shows every name whole.
@Suite("Colour and lessons in a terminal (tmux)", .serialized)
struct ColourAndLessonsTerminalTests {
    typealias Session = WalkthroughTerminalTests.Session

    /// The pane after a few steps of `mitm`, with its SGR sequences (`capture-pane -e`).
    static func walkthroughScreen(environment: String) throws -> String {
        let binary = try #require(CLI.binary).path
        let session = Session()
        defer { session.kill() }
        try session.start("env \(environment) \(binary) walkthrough mitm; sleep 30")
        _ = try session.wait(for: "step 1") { $0.contains("step 1/") }
        for _ in 0..<6 { try session.keys("n") }
        _ = try session.wait(for: "step 7") { $0.contains("step 7/") }
        return try session.tmux(["capture-pane", "-p", "-e", "-t", session.name])
    }

    @Test(.enabled(if: WalkthroughTerminalTests.enabled, "tmux is not installed (CI installs it)"))
    func walkthroughHasColourOnAColourTerminalAndNoneWithNoColor() throws {
        let coloured = try Self.walkthroughScreen(environment: "-u NO_COLOR TERM=xterm-256color")
        #expect(coloured.contains("\u{1B}[36m"), "TCP rows in cyan")
        #expect(coloured.contains("\u{1B}[35m"), "the attacker's rows in magenta")
        #expect(coloured.split(separator: "\n").contains { $0.contains("\u{1B}[1m") && $0.contains("▶") }, "the current row bold")
        let plain = try Self.walkthroughScreen(environment: "NO_COLOR=1 TERM=xterm-256color")
        #expect(plain.contains("step 7/") && !plain.contains("\u{1B}["), "NO_COLOR: no SGR at all")
    }

    @Test(.enabled(if: WalkthroughTerminalTests.enabled, "tmux is not installed (CI installs it)"))
    func lessonsAt80ColumnsShowsEveryNameWhole() throws {
        let binary = try #require(CLI.binary).path
        var session = Session()
        session.rows = 60
        defer { session.kill() }
        let library = LessonShowTests.library
        try session.start("env TLSLAB_SCENARIOS=\(library) \(binary) lessons; echo END-OF-LIST; sleep 30")
        _ = try session.wait(for: "the list") { $0.contains("END-OF-LIST") }
        let text = try session.tmux(["capture-pane", "-p", "-S", "-1000", "-t", session.name])
        let lines = text.split(separator: "\n").map(String.init)
        let firsts = Set(lines.compactMap { $0.split(separator: " ").first.map(String.init) })
        for entry in LessonCatalogue(directory: library).path {
            #expect(firsts.contains(entry.name), "\(entry.name) whole at the start of a line")
        }
        #expect(!text.contains("…"), "no title cut")
    }
}
