import ArgumentParser
import Foundation
import HTTP2
import Rendering
import Simulation
import Trace
import Trust

/// `tlslab walkthrough [SCENARIO]`: step through a run in the terminal.
struct WalkthroughCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walkthrough",
        abstract: "Step through a run interactively: the ladder so far, the current step's explanation and values.",
        discussion: """
        Keys: Enter, space or n: next · b: back · g then a number and Enter: jump to that step · \
        k: knowledge panel on/off · x: bytes on/off · < and >: first and last · q or Ctrl-C: quit.
        When stdin or stdout is not a terminal, the whole trace is printed instead.
        """
    )

    @Argument(help: "A built-in run (`tlslab list`), a lesson name (`tlslab lessons`) or a scenario file (.yaml); default: rsa.")
    var scenario: String = BuiltInRun.rsa.rawValue

    @Option(help: "Seed for every random value; 'random' uses the system CSPRNG.")
    var seed: String?

    @Flag(help: "Show secrets, keys and other long values in full instead of shortened.")
    var full = false

    @OptionGroup var language: LanguageOption

    func run() throws {
        let seedValue = try SeedChoice(seed)
        guard Terminal.stdinIsTerminal && Terminal.stdoutIsTerminal else {
            var options = try RenderOptions.parse([])
            options.seed = seed
            options.full = full
            options.language = language
            try options.runAndPrint(scenario)
            return
        }
        try Self.walk(scenario, seed: seedValue, full: full, language: language.language)
    }

    /// The interactive loop: paint, read a key, apply it; the terminal is restored on every exit.
    static func walk(_ name: String, seed: SeedChoice, full: Bool = false, language: Language = .en) throws {
        let resolved = try ResolvedRun.resolve(name, seed: seed)
        let explanations = language.explanations
        let (trace, page) = resolved.play(explanations: explanations)
        var width = Terminal.size?.columns ?? 80
        var walkthrough = Walkthrough(title: resolved.name, trace: trace, width: width, page: page, fullValues: full,
                                      explanations: explanations)
        var cursor = Walkthrough.Cursor()
        try RawTerminal.enter()
        defer { RawTerminal.restore() }
        while !cursor.finished {
            let size = Terminal.size ?? (80, 24)
            if size.columns != width {
                width = size.columns
                walkthrough = Walkthrough(title: resolved.name, trace: trace, width: width, page: page, fullValues: full,
                                          explanations: explanations)
            }
            let screen = walkthrough.screen(cursor, width: size.columns, height: size.rows)
            RawTerminal.write("\u{1B}[H" + screen.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
            guard let key = RawTerminal.readKey() else { break }
            cursor = walkthrough.apply(Walkthrough.key(key), to: cursor)
        }
    }
}
