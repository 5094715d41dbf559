import Foundation
import Testing
import TestSupport

/// The walkthrough's first minute in a real terminal (tmux) at 60×20, 80×24 and 120×40, for `rsa`,
/// `dhe` and a lesson: the opening screen, the column header at every step, a sentence on every
/// step, message names whole at every width, `?` help, autoplay. A missing tmux skips these
/// locally and fails them in CI.
@Suite("tlslab walkthrough: the first minute in a terminal", .serialized,
       CrossCheckRequirement.trait(Tool.path("tmux") != nil, missing: "tmux is not installed"))
struct WalkthroughFirstMinuteTerminalTests {
    typealias Session = WalkthroughTerminalTests.Session

    /// The lesson library, so the lesson is opened by name as a student would.
    static let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios").path

    /// The handshake messages every full walk shows, each of which must appear whole on some ladder line.
    static let names = ["ClientHello", "ServerHello", "Certificate", "ServerHelloDone", "ClientKeyExchange", "ChangeCipherSpec"]

    static func stepNumber(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"step (\d+)/(\d+)"#, options: .regularExpression) else { return nil }
        let text = screen[range].dropFirst(5)
        return Int(text.split(separator: "/")[0])
    }

    static func stepCount(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"step (\d+)/(\d+)"#, options: .regularExpression) else { return nil }
        return Int(screen[range].split(separator: "/")[1])
    }

    @Test(arguments: [(60, 20), (80, 24), (120, 40)], ["rsa", "dhe", "lesson"])
    func everyStepHasHeaderAndSentence(size: (Int, Int), run: String) throws {
        let binary = try #require(CLI.binary).path
        var session = Session()
        session.columns = size.0
        session.rows = size.1
        defer { session.kill() }
        let command = run == "lesson" ? "env TLSLAB_SCENARIOS=\(Self.library) \(binary) walkthrough attacks/mitm-default-client"
            : "\(binary) walkthrough \(run)"
        try session.start("\(command); sleep 30")
        // The opening screen: the story, the parties over their columns with the time unit, the keys.
        let opening = try session.wait(for: "the opening screen") { $0.contains("step 1/") && $0.contains("TLSLab:") }
        var lines = opening.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 2 && lines[1].contains("ms") && lines[1].contains("client") && lines[1].contains("server"),
                "column header: \(opening)")
        if run != "lesson" { #expect(opening.contains("A client at 192.0.2.10"), "who talks to whom: \(opening)") }
        if size.1 >= 40 { #expect(opening.contains("next step") && opening.contains("Keys"), "the keys: \(opening)") }
        let count = try #require(Self.stepCount(opening))
        // `?`: every key, then any key closes it.
        try session.keys("?")
        let help = try session.wait(for: "the help overlay") { $0.contains("any key closes the help") }
        for meaning in ["next step", "previous step", "first step, last step", "quit"] {
            #expect(help.contains(meaning), "help lists \(meaning): \(help)")
        }
        #expect(help.contains("d  u  PgDn  PgUp") && help.contains("?"))
        try session.keys("Space")
        _ = try session.wait(for: "the help closed") { !$0.contains("any key closes the help") && $0.contains("step 1/") }
        // Every step: the header, the marker, a sentence below the line, nothing cut on the ladder.
        var ladderText = ""
        for step in 1...count {
            if step > 1 { try session.keys("n") }
            var screen = try session.wait(for: "step \(step)", interval: 0.01) { Self.stepNumber($0) == step }
            // The header may be on screen before the rest of the frame: read until two reads agree.
            for _ in 0..<100 {
                Thread.sleep(forTimeInterval: 0.02)
                let again = try session.screen()
                if again == screen { break }
                screen = again
            }
            lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.count >= size.1 - 1)
            let words = Set(lines[1].split(separator: " ").map(String.init))
            #expect(words.isSuperset(of: ["ms", "client", "server"]) && (run != "lesson" || words.contains("attacker")),
                    "\(run) \(size) step \(step): header \(lines[1])")
            #expect(lines.allSatisfy { $0.count <= size.0 })
            let separator = try #require(lines.dropFirst(2).firstIndex { $0.hasPrefix("───") }, "step \(step): \(screen)")
            let ladder = lines[2..<separator]
            #expect(ladder.contains { $0.hasPrefix("▶") }, "step \(step): the current step is on screen")
            #expect(!ladder.contains { $0.hasSuffix("…") }, "step \(step): a ladder line was cut: \(ladder.joined(separator: "\n"))")
            ladderText += ladder.joined(separator: "\n") + "\n"
            let pane = lines[(separator + 1)..<(lines.count - 1)].joined(separator: " ")
            #expect(pane.split(separator: " ").count >= 4, "step \(step) says something: \(screen)")
            #expect(!screen.contains("nothing more to say"))
        }
        for name in Self.names where run != "lesson" {
            #expect(ladderText.contains(name), "\(run) \(size): \(name) whole on the ladder")
        }
        try session.keys("q")
    }

    /// `--autoplay` advances by itself; a key pauses it; a bad interval is refused with exit 2.
    @Test func autoplayAdvancesAndAKeyPauses() throws {
        let binary = try #require(CLI.binary).path
        var session = Session()
        session.columns = 80
        session.rows = 24
        defer { session.kill() }
        try session.start("\(binary) walkthrough rsa --autoplay 0.2; sleep 30")
        let moving = try session.wait(for: "autoplay to reach step 4") { (Self.stepNumber($0) ?? 0) >= 4 }
        #expect(moving.contains("any key pauses"))
        try session.keys("x")
        let paused = try session.wait(for: "the pause") { !$0.contains("any key pauses") }
        Thread.sleep(forTimeInterval: 0.8)
        let still = try session.screen()
        #expect(Self.stepNumber(still) == Self.stepNumber(paused), "paused: \(still)")
        #expect(still.contains("x bytes off"), "the pausing key did nothing else")
        try session.keys("q")
        #expect(try CLI.run(["walkthrough", "rsa", "--autoplay", "0"]).status == 2)
        #expect(try CLI.run(["walkthrough", "rsa", "--autoplay", "soon"]).status == 2)
    }

    /// `tlslab walkthrough --help` lists every key, d/u and ? included.
    @Test func helpListsEveryKey() throws {
        let result = try CLI.run(["walkthrough", "--help"])
        #expect(result.status == 0)
        for keys in ["n  Enter  Space", "b  p", "g N Enter", "<  >  Home  End", "d  u  PgDn  PgUp", "?", "q  Ctrl-C", "--autoplay"] {
            #expect(result.stdout.contains(keys), "\(keys): \(result.stdout)")
        }
    }
}
