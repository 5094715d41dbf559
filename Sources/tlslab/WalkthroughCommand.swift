import ArgumentParser
import Foundation
import HTTP2
import Languages
import Rendering
import Simulation
import Trace

/// `tlslab walkthrough [SCENARIO]`: step through a run in the terminal.
struct WalkthroughCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walkthrough",
        abstract: "Step through a run interactively: the ladder so far, the current step's explanation and values.",
        discussion: "Keys (? shows them inside the walkthrough too):\n"
            + Walkthrough.keyHelp().map { "  " + $0 }.joined(separator: "\n")
            + "\nWhen stdin or stdout is not a terminal, the whole trace is printed instead."
    )

    @Argument(help: "A built-in run (`tlslab list`), a lesson name (`tlslab lessons`) or a scenario file (.yaml); default: rsa.")
    var scenario: String = BuiltInRun.rsa.rawValue

    @Option(help: "Seed for every random value; 'random' uses the system CSPRNG.")
    var seed: String?

    @Flag(help: "Show secrets, keys and other long values in full instead of shortened.")
    var full = false

    @OptionGroup var language: LanguageOption

    @OptionGroup var colorOption: ColorOption

    @Option(help: ArgumentHelp("Advance one step every SECONDS seconds by itself (for projecting in a class); any key pauses, a resumes.",
                               valueName: "seconds"))
    var autoplay: Double?

    func validate() throws {
        if let autoplay, !(autoplay >= 0.1 && autoplay <= 3600) {
            throw ValidationError("--autoplay takes a number of seconds from 0.1 to 3600, not \(autoplay)")
        }
    }

    func run() throws {
        let seedValue = try SeedChoice(seed)
        guard Terminal.stdinIsTerminal && Terminal.stdoutIsTerminal else {
            var options = try RenderOptions.parse([])
            options.seed = seed
            options.full = full
            options.language = language
            options.colorOption = colorOption
            try options.runAndPrint(scenario)
            return
        }
        try Self.walk(scenario, seed: seedValue, full: full, autoplay: autoplay, language: language.language, color: colorOption.enabled)
    }

    /// The interactive loop: paint, read a key (or, while autoplay runs, wait at most its interval),
    /// apply it; the terminal is restored on every exit. Every word in `language`.
    static func walk(_ name: String, seed: SeedChoice, full: Bool = false, autoplay: Double? = nil, language: Language = .en,
                     color: Bool = false) throws {
        let resolved = try ResolvedRun.resolve(name, seed: seed)
        let explanations = language.explanations
        let (trace, page) = resolved.play(explanations: explanations)
        let about = page == nil ? resolved.summary(in: explanations) : nil
        let next = resolved.nextInCourse(language: language)
        var width = Terminal.size?.columns ?? 80
        func make(_ width: Int) -> Walkthrough {
            var walk = Walkthrough(title: resolved.name, trace: trace, width: width, page: page, fullValues: full, about: about,
                                   explanations: explanations, next: next)
            walk.color = color
            return walk
        }
        var walkthrough = make(width)
        var cursor = Walkthrough.Cursor()
        cursor.autoplay = autoplay != nil
        try RawTerminal.enter()
        defer { RawTerminal.restore() }
        while !cursor.finished {
            let size = Terminal.size ?? (80, 24)
            if size.columns != width {
                width = size.columns
                walkthrough = make(width)
            }
            cursor = walkthrough.clamped(cursor, width: size.columns, height: size.rows)
            let screen = walkthrough.screen(cursor, width: size.columns, height: size.rows)
            RawTerminal.write("\u{1B}[H" + screen.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
            let key: Walkthrough.Key
            switch RawTerminal.readKey(timeout: cursor.autoplay ? autoplay ?? 3 : nil) {
            case .key(let bytes): key = Walkthrough.key(bytes)
            case .timedOut: key = .tick
            case .endOfInput: return
            }
            cursor = walkthrough.apply(key, to: cursor)
        }
    }
}
