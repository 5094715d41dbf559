import ArgumentParser
import Foundation
import Rendering
import Simulation
import Trace

/// `tlslab compare NAME NAME`: two runs side by side — a table of what each negotiated, how many
/// round trips its client waited, what crossed in the clear and what a stolen key opens; why;
/// who knows which secret; and both ladders, phase beside phase.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: CLIWords.text("cli.compareCommand.abstract"),
        discussion: CLIWords.text("cli.compareCommand.discussion")
    )

    @Argument(help: CLIWords.help("cli.compareCommand.first"))
    var first: String

    @Argument(help: CLIWords.help("cli.compareCommand.second"))
    var second: String

    @Option(help: CLIWords.help("cli.renderOptions.seed"))
    var seed: String?

    @OptionGroup var language: LanguageOption

    func run() throws {
        let seedChoice = try SeedChoice(seed)
        let explanations = language.explanations
        func play(_ name: String) throws -> (name: String, trace: Trace) {
            let resolved = try ResolvedRun.resolve(name, seed: seedChoice)
            return (resolved.name, resolved.play(explanations: explanations).trace)
        }
        let a = try play(first), b = try play(second)
        let printer = ComparisonPrinter(width: Terminal.columns ?? 140, explanations: explanations)
        print(printer.render(RunComparison(a, b), a.trace, b.trace).joined(separator: "\n"))
    }
}
