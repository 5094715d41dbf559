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
            throw CLIError.input(.noLessonLibrary)
        }
        let catalogue = library.catalogue
        let explanations = language.explanations
        func say(_ key: String, _ values: [String: String] = [:]) -> String { explanations(key, values) ?? key }
        for problem in catalogue.problems {
            FileHandle.standardError.write(Data("tlslab: skipped \(TerminalText.escaped("\(problem)"))\n".utf8))
        }
        // Name first, then the title; always in course order (--path numbers the lessons).
        var rows: [(name: String, title: String)] = []
        let ordered = catalogue.path
        let chosen = Set((words.isEmpty ? catalogue.entries : catalogue.filtered(by: words)).map(\.name))
        for (i, e) in ordered.enumerated() where chosen.contains(e.name) {
            rows.append(((path ? "\(i + 1). " : "") + e.name, e.title(for: language.language) + (e.checked ? "" : say("cli.lessons.demo"))))
        }
        var builtInStart: Int?
        if !path {
            for run in BuiltInRun.allCases {
                let summary = run.summary(in: explanations)
                let text = ["built-in", "tls", run.summary(in: .english), summary, run.rawValue].joined(separator: " ").lowercased()
                guard words.allSatisfy({ text.contains($0.lowercased()) }) else { continue }
                if builtInStart == nil { builtInStart = rows.count }
                rows.append((run.rawValue, summary))
            }
        }
        if rows.isEmpty {
            throw CLIError.input(.noLessonMatches(words: words.joined(separator: " ")))
        }
        // A title or a name comes from a lesson file: a terminal control in it is shown escaped.
        rows = rows.map { (TerminalText.escaped($0.name), TerminalText.escaped($0.title)) }
        // The terminal's width; piped, $COLUMNS or 80. Titles wrap under themselves: nothing is cut.
        let width = max(Terminal.columns ?? 80, 24)
        let lessons = Array(rows[..<(builtInStart ?? rows.count)]), runs = Array(rows[(builtInStart ?? rows.count)...])
        // One name column for both parts, so the titles line up.
        let nameWidth = Self.nameWidth(lessons + runs, width: width)
        for line in Self.table(lessons, width: width, nameWidth: nameWidth) { print(line) }
        if !runs.isEmpty {
            if !lessons.isEmpty { print("") }
            for line in Self.wrap(say("cli.lessons.builtIn"), width) + Self.table(runs, width: width, nameWidth: nameWidth) { print(line) }
        }
        if !path, words.isEmpty {
            let tally = say("cli.lessons.tally", ["lessons": "\(catalogue.entries.count)", "directory": TerminalText.escaped(library.directory),
                                                  "runs": "\(BuiltInRun.allCases.count)"])
            for line in Self.wrap(tally, max(Terminal.columns ?? 80, 24)) { print(line) }
        }
    }

    /// Two columns, no line wider than `width` display columns: every name whole, then its title
    /// in the width that remains, wrapped under itself. The name column is at most 40% of the width
    /// (at least 24): a longer name stands alone on its line and its title starts on the next, in
    /// the title column. Below 48 columns the titles go under the names, indented by four.
    static func table(_ rows: [(name: String, title: String)], width: Int, nameWidth given: Int? = nil) -> [String] {
        let width = max(width, 24)
        let nameWidth = given ?? nameWidth(rows, width: width)
        var out: [String] = []
        for row in rows {
            if width >= 48 {
                let lines = wrap(row.title, width - nameWidth - 2)
                let indent = String(repeating: " ", count: nameWidth + 2)
                if DisplayWidth.columns(row.name) > nameWidth {
                    out += wrap(row.name, width)
                    out += lines.map { indent + $0 }
                } else {
                    out.append(DisplayWidth.padded(row.name, to: nameWidth) + "  " + (lines.first ?? ""))
                    out += lines.dropFirst().map { indent + $0 }
                }
            } else {
                out += wrap(row.name, width)
                out += wrap(row.title, width - 4).map { "    " + $0 }
            }
        }
        return out
    }

    /// The name column's width: the longest name, at most 40% of the width (at least 24).
    static func nameWidth(_ rows: [(name: String, title: String)], width: Int) -> Int {
        min(rows.map { DisplayWidth.columns($0.name) }.max() ?? 0, max(24, max(width, 24) * 2 / 5))
    }

    /// `text` in lines of at most `width` display columns, broken between words (a word longer than
    /// the width is broken inside).
    static func wrap(_ text: String, _ width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ").map(String.init) {
            var word = word
            let candidate = line.isEmpty ? word : line + " " + word
            if DisplayWidth.columns(candidate) <= width { line = candidate; continue }
            if !line.isEmpty { lines.append(line); line = "" }
            while DisplayWidth.columns(word) > width {
                var head = ""
                for ch in word {
                    if DisplayWidth.columns(head + String(ch)) > width { break }
                    head.append(ch)
                }
                lines.append(head)
                word.removeFirst(head.count)
            }
            line = word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
