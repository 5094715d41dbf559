import ArgumentParser
import Foundation
import Rendering
import Simulation
import Trace
import UserFiles

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

    @Option(help: CLIWords.help("cli.compareCommand.html"))
    var html: String?

    @OptionGroup var language: LanguageOption

    func run() throws {
        let seedChoice = try SeedChoice(seed)
        let explanations = language.explanations
        // The output path is checked before any work: a directory or a link is refused.
        if let path = html { try check(path, explanations: explanations) }
        func play(_ name: String) throws -> (name: String, trace: Trace) {
            let resolved = try ResolvedRun.resolve(name, seed: seedChoice)
            return (resolved.name, resolved.play(explanations: explanations).trace)
        }
        let a = try play(first), b = try play(second)
        let printer = ComparisonPrinter(width: Terminal.columns ?? 140, explanations: explanations)
        let comparison = RunComparison(a, b)
        print(printer.render(comparison, a.trace, b.trace).joined(separator: "\n"))
        if let path = html {
            try write(ComparisonPage(explanations: explanations).render(comparison, a.trace, b.trace), to: path, explanations: explanations)
        }
    }

    func check(_ path: String, explanations: Explanations) throws {
        do { try OutputFile.check(path) } catch { throw CLIError.file(error, explanations) }
    }

    /// The page, replaced atomically (as `export --html` writes its page).
    func write(_ page: String, to path: String, explanations: Explanations) throws {
        let bytes = Array(page.utf8)
        let batch = OutputBatch()
        do { try batch.stage(bytes, to: path, access: .ordinary) } catch { throw CLIError.file(error, explanations) }
        var outcomes: [OutputFile.Outcome] = []
        do { outcomes = try batch.commit() } catch { throw CLIError.file(error, explanations) }
        let replaced = zip([path], outcomes).map { explanations.replacedNote($1, $0) }.joined()
        print((explanations("cli.export.wroteHTML", ["file": TerminalText.escaped(path), "kib": "\(bytes.count / 1024)"]) ?? path) + replaced)
    }
}
