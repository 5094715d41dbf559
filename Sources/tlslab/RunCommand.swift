import ArgumentParser
import Foundation
import HTTP2
import Rendering
import Scenarios
import Simulation
import Trace
import Trust

/// Options shared by `tlslab` (default walkthrough) and `tlslab run`.
struct RenderOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "Output format: text or json (JSON Lines, one object per event).")
    var format: Format = .text

    @Option(help: "Seed for every random value (the same seed reproduces the run byte for byte). Default: 1 for a built-in run, the file's own seed for a scenario; 'random' uses the system CSPRNG.")
    var seed: String?

    @Option(help: "Text detail: summary, normal or bytes.")
    var verbosity: TextRenderer.Verbosity = .normal

    func seedChoice() throws -> SeedChoice { try SeedChoice(seed) }

    /// Runs a scenario and prints its trace (a failed handshake is a lesson here, not an error: exit 0;
    /// `tlslab check` is where outcomes are asserted).
    func runAndPrint(_ name: String) throws {
        let resolved = try ResolvedRun.resolve(name, seed: try seedChoice())
        let trace = resolved.simulate()
        let lines: [String]
        switch format {
        case .json:
            lines = JSONLinesRenderer().render(trace)
        case .text:
            let renderer = TextRenderer(verbosity: verbosity, width: Terminal.columns ?? 100, color: Terminal.useColor)
            lines = renderer.title("TLSLab — \(resolved.name): \(resolved.summary)") + renderer.render(trace)
        }
        Swift.print(lines.joined(separator: "\n"))
    }
}

extension TextRenderer.Verbosity: ExpressibleByArgument {}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run one simulated connection and print its trace.",
        discussion: "RUN is a built-in name (see `tlslab list`) or a scenario file (a path ending in .yaml)."
    )

    @Argument(help: "A built-in run (\(BuiltInRun.allCases.map(\.rawValue).joined(separator: ", "))) or a scenario file.")
    var name: String

    @OptionGroup var options: RenderOptions

    func run() throws {
        try options.runAndPrint(name)
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the built-in runs.")

    func run() {
        let column = (BuiltInRun.allCases.map(\.rawValue.count).max() ?? 0) + 2
        for run in BuiltInRun.allCases {
            print(run.rawValue.padding(toLength: column, withPad: " ", startingAt: 0) + run.summary)
        }
    }
}
