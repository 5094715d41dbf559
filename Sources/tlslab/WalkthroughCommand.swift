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
        abstract: CLIWords.text("cli.walkthroughCommand.abstract"),
        discussion: CLIWords.text("cli.walkthroughCommand.discussion") + "\n"
            + Walkthrough.keyHelp(CLIWords.explanations).map { "  " + $0 }.joined(separator: "\n")
            + "\n" + CLIWords.text("cli.walkthroughCommand.notATerminal")
    )

    @Argument(help: CLIWords.help("cli.walkthroughCommand.scenario"))
    var scenario: String = BuiltInRun.rsa.rawValue

    @Option(help: CLIWords.help("cli.exportCommand.seed"))
    var seed: String?

    @Flag(help: CLIWords.help("cli.walkthroughCommand.full"))
    var full = false

    @OptionGroup var language: LanguageOption

    @OptionGroup var colorOption: ColorOption

    @Option(help: ArgumentHelp(CLIWords.text("cli.walkthroughCommand.autoplay"),
                               valueName: "seconds"))
    var autoplay: Double?

    func validate() throws {
        if let autoplay, !(autoplay >= 0.1 && autoplay <= 3600) {
            throw OptionProblem.secondsBetween(option: "--autoplay", lowest: "0.1", highest: "3600", given: "\(autoplay)").validationError
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
