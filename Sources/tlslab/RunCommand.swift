import ArgumentParser
import Foundation
import HTTP2
import Rendering
import Scenarios
import Simulation
import Trace

/// Options shared by `tlslab` (default walkthrough) and `tlslab run`.
struct RenderOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: CLIWords.help("cli.peerRenderOptions.format"))
    var format: Format = .text

    @Option(help: CLIWords.help("cli.renderOptions.seed"))
    var seed: String?

    @Option(help: CLIWords.help("cli.peerRenderOptions.verbosity"))
    var verbosity: TextRenderer.Verbosity = .normal

    @Flag(help: CLIWords.help("cli.renderOptions.full"))
    var full = false

    @OptionGroup var language: LanguageOption

    @OptionGroup var colorOption: ColorOption

    func seedChoice() throws -> SeedChoice { try SeedChoice(seed) }

    /// Runs a scenario and prints its trace (a failed handshake is a lesson here, not an error: exit 0;
    /// `tlslab check` is where outcomes are asserted).
    /// A lesson file starts with its title and description and ends with what it showed (each
    /// expectation checked) and what to try next; JSON carries the same as a `lesson` object first
    /// and an `expectation` object per expectation before the summary.
    func runAndPrint(_ name: String) throws {
        Swift.print(try lines(for: name, width: Terminal.columns ?? 100, color: colorOption.enabled).joined(separator: "\n"))
    }

    /// What `runAndPrint` prints, as lines.
    func lines(for name: String, width: Int = 100, color: Bool = false) throws -> [String] {
        // A lesson comparing handlers prints every handler's run in file order (`NAME#HANDLER`: one).
        try ResolvedRun.resolve(name, seed: try seedChoice()).variants.flatMap { try lines(for: $0, width: width, color: color) }
    }

    func lines(for resolved: ResolvedRun, width: Int, color: Bool) throws -> [String] {
        let (trace, page) = resolved.play(explanations: language.explanations)
        var lines: [String]
        switch format {
        case .json:
            lines = JSONLinesRenderer().render(trace)
            if let page {
                let (head, checks) = JSONLinesRenderer().lesson(page)
                lines.insert(head, at: 0)
                // After every event of the run, before the summary (the renderer's last line).
                lines.insert(contentsOf: checks, at: max(0, lines.count - 1))
            }
        case .text:
            let explanations = language.explanations
            var renderer = TextRenderer(verbosity: verbosity, width: width, color: color, explanations: explanations)
            renderer.fullValues = full
            if let page {
                lines = renderer.lessonHeader(page) + renderer.render(trace) + renderer.lessonFooter(page)
            } else {
                lines = renderer.title(explanations("run.title", ["name": resolved.name, "summary": resolved.summary(in: explanations)])
                                       ?? resolved.name) + renderer.render(trace)
            }
        }
        return lines
    }
}

extension TextRenderer.Verbosity: ExpressibleByArgument {}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: CLIWords.text("cli.runCommand.abstract"),
        discussion: CLIWords.text("cli.runCommand.discussion", ["list": "\(LessonLibrary.searchDescription)"])
    )

    @Argument(help: CLIWords.help("cli.runCommand.name", ["list": "\(BuiltInRun.allCases.map(\.rawValue).joined(separator: ", "))"]))
    var name: String

    @OptionGroup var options: RenderOptions

    func run() throws {
        try options.runAndPrint(name)
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: CLIWords.text("cli.listCommand.abstract"))

    @OptionGroup var language: LanguageOption

    func run() {
        let column = (BuiltInRun.allCases.map(\.rawValue.count).max() ?? 0) + 2
        for run in BuiltInRun.allCases {
            print(DisplayWidth.padded(run.rawValue, to: column) + run.summary(in: language.explanations))
        }
    }
}

extension BuiltInRun {
    /// The run's one-line summary in the catalogue's language (`run.summary.NAME`).
    func summary(in explanations: Explanations) -> String {
        let key = switch self {
        case .rsa: "run.summary.rsa"
        case .dhe: "run.summary.dhe"
        case .ecdhe: "run.summary.ecdhe"
        case .wrongHost: "run.summary.wrong-host"
        case .untrusted: "run.summary.untrusted"
        case .lossy: "run.summary.lossy"
        case .httpPlain: "run.summary.http-plain"
        case .keyTheftRSA: "run.summary.key-theft-rsa"
        case .keyTheftDHE: "run.summary.key-theft-dhe"
        case .keyTheftECDHE: "run.summary.key-theft-ecdhe"
        case .weakRandom: "run.summary.weak-random"
        case .mitm: "run.summary.mitm"
        case .mitmTrusting: "run.summary.mitm-trusting"
        case .tamperServerHello: "run.summary.tamper-serverhello"
        case .strip: "run.summary.strip"
        case .replay: "run.summary.replay"
        case .http10: "run.summary.http10"
        case .keepAlive: "run.summary.keep-alive"
        case .pipelining: "run.summary.pipelining"
        case .resumption: "run.summary.resumption"
        case .h2: "run.summary.h2"
        case .h2c: "run.summary.h2c"
        case .chacha20: "run.summary.chacha20"
        case .tls13: "run.summary.tls13"
        case .tls13HRR: "run.summary.tls13-hrr"
        case .tls13Resumption: "run.summary.tls13-resumption"
        case .tls13ClientAuth: "run.summary.tls13-client-auth"
        case .tls13Downgrade: "run.summary.tls13-downgrade"
        case .tls13MITM: "run.summary.tls13-mitm"
        case .tls13KeyTheft: "run.summary.tls13-key-theft"
        case .tls13ZeroRTT: "run.summary.tls13-0rtt"
        case .tls13ZeroRTTReplay: "run.summary.tls13-0rtt-replay"
        case .tls13ZeroRTTSingleUse: "run.summary.tls13-0rtt-single-use"
        case .tls13ZeroRTTRecorded: "run.summary.tls13-0rtt-recorded"
        }
        // The catalogue is the only place for a run's words (English when a language lacks the key).
        return explanations(key) ?? Explanations.english(key) ?? rawValue
    }
}
