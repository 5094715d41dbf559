import ArgumentParser
import Foundation
import Rendering
import Scenarios
import Simulation

/// Options shared by `tlslab` (default walkthrough) and `tlslab run`.
struct RenderOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "Output format: text or json (JSON Lines, one object per event).")
    var format: Format = .text

    @Option(help: "Seed for every random value (the same seed reproduces the run byte for byte). Default 1; 'random' uses the system CSPRNG.")
    var seed: String?

    @Option(help: "Text detail: summary, normal or bytes.")
    var verbosity: TextRenderer.Verbosity = .normal

    func seedValue() throws -> UInt64? {
        guard let seed else { return 1 }
        if seed == "random" { return nil }
        guard let v = UInt64(seed) else { throw CLIError.badInput("--seed takes a whole number or 'random', not '\(seed)'") }
        return v
    }

    /// Runs a built-in and prints it.
    func runAndPrint(_ run: BuiltInRun) throws {
        let setup: SimulationSetup
        do {
            setup = try run.setup(seed: try seedValue())
        } catch let error as BuiltInRun.SetupError {
            throw CLIError.failed("\(error)")
        }
        print(setup, heading: "TLSLab — \(run.rawValue): \(run.summary)")
    }

    /// Runs a scenario file's TLS world and prints it (its own seed unless --seed is given).
    func runAndPrint(scenarioFile path: String, seedGiven: Bool) throws {
        var scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(contentsOf: path)
        } catch {
            throw CLIError.badInput("\(error)")
        }
        if seedGiven {
            guard let seed = try seedValue() else { throw CLIError.badInput("a scenario runs from a seed; --seed random is not supported here") }
            scenario.seed = seed
        }
        guard let setup = scenario.simulationSetup() else {
            throw CLIError.badInput("\(path) is a \(scenario.kind) scenario; `tlslab run` shows TLS scenarios (use `tlslab check \(path)`)")
        }
        print(setup, heading: "TLSLab — \(scenario.title)")
    }

    func print(_ setup: SimulationSetup, heading: String) {
        let trace = Simulation(setup).run()
        let lines: [String]
        switch format {
        case .json:
            lines = JSONLinesRenderer().render(trace)
        case .text:
            let color = Terminal.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            lines = [heading]
                + TextRenderer(verbosity: verbosity, width: Terminal.columns ?? 100, color: color).render(trace)
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
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/") {
            try options.runAndPrint(scenarioFile: name, seedGiven: options.seed != nil)
            return
        }
        guard let run = BuiltInRun(rawValue: name) else {
            throw CLIError.badInput("unknown run '\(name)' (known: \(BuiltInRun.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        try options.runAndPrint(run)
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the built-in runs.")

    func run() {
        for run in BuiltInRun.allCases {
            print(run.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + run.summary)
        }
    }
}
