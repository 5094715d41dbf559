import Benchmarks
import Rendering

/// How a benchmark prints its report: `--format text|json`. The root command declares `--format`
/// (its option group `RenderOptions`) and consumes it wherever it appears on the command line;
/// ArgumentParser hands a parent's option group to a subcommand that declares the same type, so the
/// bench commands read it from there.
enum BenchFormat: String, CaseIterable {
    case text, json

    init(_ format: RenderOptions.Format) {
        self = format == .json ? .json : .text
    }
}

extension BenchReport {
    /// Prints the report as the command line asked: a table in the reader's language, or JSON.
    func print(_ format: BenchFormat) throws {
        switch format {
        case .json: Swift.print(try json())
        case .text: Swift.print(table(CLIWords.explanations))
        }
    }
}
