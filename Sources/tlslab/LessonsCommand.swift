import ArgumentParser
import Foundation
import Rendering
import Scenarios
import Trace
import Simulation

/// `tlslab lessons [WORD…] [--path]`: the lesson library as a catalogue or as a course.
struct LessonsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lessons",
        abstract: CLIWords.text("cli.lessonsCommand.abstract"),
        discussion: CLIWords.text("cli.lessonsCommand.discussion", ["list": "\(LessonLibrary.searchDescription)"])
    )

    @Argument(help: CLIWords.help("cli.lessonsCommand.words"))
    var words: [String] = []

    @Flag(help: CLIWords.help("cli.lessonsCommand.path"))
    var path = false

    @OptionGroup var language: LanguageOption

    func run() throws {
        guard let library = LessonLibrary.locate() else {
            throw CLIError.badInput("no lesson library found: \(LessonLibrary.searchDescription)")
        }
        let catalogue = library.catalogue
        let explanations = language.explanations
        func say(_ key: String, _ values: [String: String] = [:]) -> String { explanations(key, values) ?? key }
        for problem in catalogue.problems {
            FileHandle.standardError.write(Data("tlslab: skipped \(TerminalText.escaped("\(problem)"))\n".utf8))
        }
        var rows: [[String]] = []
        let ordered = path ? catalogue.path : catalogue.entries
        let chosen = Set((words.isEmpty ? catalogue.entries : catalogue.filtered(by: words)).map(\.name))
        for (i, e) in ordered.enumerated() where chosen.contains(e.name) {
            rows.append((path ? ["\(i + 1)."] : []) + [e.topic, e.kind + (e.checked ? "" : say("cli.lessons.demo")), e.title(for: language.language), e.name])
        }
        if !path {
            for run in BuiltInRun.allCases {
                let summary = run.summary(in: explanations)
                let text = ["built-in", "tls", run.summary, summary, run.rawValue].joined(separator: " ").lowercased()
                guard words.allSatisfy({ text.contains($0.lowercased()) }) else { continue }
                rows.append(["built-in", "tls", summary, run.rawValue])
            }
        }
        if rows.isEmpty {
            throw CLIError.badInput("no lesson matches \(words.joined(separator: " ")) (`tlslab lessons` lists them all)")
        }
        // A title or a name comes from a lesson file: a terminal control in it is shown escaped.
        rows = rows.map { $0.map { TerminalText.escaped($0) } }
        // On a terminal the titles are cut to its width; piped, nothing is cut (grep sees whole titles).
        for line in Self.table(rows, width: Terminal.stdoutIsTerminal ? (Terminal.columns ?? 120) : Int.max / 2) { print(line) }
        if !path, words.isEmpty {
            print(say("cli.lessons.tally", ["lessons": "\(catalogue.entries.count)", "directory": TerminalText.escaped(library.directory),
                                            "runs": "\(BuiltInRun.allCases.count)"]))
        }
    }

    /// Columns padded in display columns; the title column (second to last) is cut to fit the width.
    static func table(_ rows: [[String]], width: Int) -> [String] {
        guard let count = rows.first?.count else { return [] }
        var widths = (0..<count).map { c in rows.map { DisplayWidth.columns($0[c]) }.max() ?? 0 }
        let titleColumn = count - 2
        let others = widths.enumerated().filter { $0.offset != titleColumn }.map(\.element).reduce(0, +) + 2 * (count - 1)
        widths[titleColumn] = max(20, min(widths[titleColumn], width - others))
        return rows.map { row in
            row.enumerated().map { c, cell -> String in
                var text = cell
                if c == titleColumn, DisplayWidth.columns(text) > widths[c] {
                    while DisplayWidth.columns(text) > widths[c] - 1 { text.removeLast() }
                    text += "…"
                }
                return c == count - 1 ? text : DisplayWidth.padded(text, to: widths[c])
            }.joined(separator: "  ")
        }
    }
}
