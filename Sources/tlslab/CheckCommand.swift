import ArgumentParser
import Foundation
import PKI
import Rendering
import Scenarios
import Trace

/// `tlslab check PATH...`: every scenario under the paths, one line each, then a summary (`N passed, N failed`).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: CLIWords.text("cli.checkCommand.abstract"),
        discussion: CLIWords.text("cli.checkCommand.discussion")
    )

    @Argument(help: CLIWords.help("cli.checkCommand.paths"))
    var paths: [String]

    @Flag(help: CLIWords.help("cli.checkCommand.showFacts"))
    var showFacts = false

    @OptionGroup var language: LanguageOption

    func run() throws {
        let (files, missing) = ScenarioCheck.files(under: paths)
        var passed = 0, failed = 0, invalid = 0
        // A path that is not there is reported like an invalid file (and on standard error), so the
        // report still ends with its summary line.
        for path in missing {
            invalid += 1
            // A path is the user's or a directory listing's: any terminal control in it is shown escaped.
            let shown = TerminalText.escaped(path)
            print(language.explanations.phrase("cli.check.missing", ["path": shown]))
            let note = language.explanations("cli.check.missingPath", ["path": shown]) ?? shown
            FileHandle.standardError.write(Data("tlslab: \(note)\n".utf8))
        }
        if files.isEmpty && missing.isEmpty {
            print(Self.summary(passed: 0, failed: 0, explanations: language.explanations))
            let list = paths.joined(separator: language.explanations.phrase("list.separator"))
            throw CLIError.badInput(language.explanations("cli.check.noFiles", ["paths": list]) ?? list)
        }
        for file in files {
            let result = ScenarioCheck.check(file: file, keepFacts: showFacts)
            switch result {
            case .pass: passed += 1
            case .fail: failed += 1
            case .invalid: invalid += 1
            }
            // File names and the values in a line come from the file system and the lesson: escaped.
            print(TerminalText.escaped(Self.line(result, explanations: language.explanations)))
            if showFacts, case .fail(_, _, let facts) = result {
                let words = language.explanations
                for key in facts.keys.sorted() { print(TerminalText.escaped("    \(key): \(facts[key].map { FactWords.fact($0, words) } ?? "")")) }
            }
        }
        // The last line is the summary (`N passed, N failed` in English); an invalid file did not pass, so it
        // counts as failed (its INVALID line says why, and the exit status is 2).
        print(Self.summary(passed: passed, failed: failed + invalid, explanations: language.explanations))
        if invalid > 0 { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }

    /// The last line: how many files passed and how many did not, in the chosen language (issue #34:
    /// a summary a person reads). English gives `N passed, N failed`, the line scripts read.
    static func summary(passed: Int, failed: Int, explanations: Explanations) -> String {
        let values = ["passed": "\(passed)", "failed": "\(failed)"]
        return explanations.phrase("cli.check.summary", values)
    }

    /// One file's result: PASS/FAIL/INVALID stay as they are in every language (scripts grep them),
    /// the explanation after them is in the chosen one; an invalid file keeps its
    /// `FILE:LINE:COLUMN: key.path:` prefix.
    static func line(_ result: ScenarioCheck.Result, explanations: Explanations) -> String {
        if case .invalid(let error) = result { return "INVALID " + located(error, explanations: explanations) }
        guard case .fail(let name, let unmet, _) = result else { return result.line }
        return explanations("cli.check.fail", ["name": name, "key": unmet.key, "expected": FactWords.fact(unmet.expected, explanations),
                                               "actual": unmet.actual.map { FactWords.fact($0, explanations) } ?? explanations.phrase("lesson.nothing")])
            ?? result.line
    }

    /// `FILE:LINE:COLUMN: key.path: explanation`: the located prefix as it is in every language, the
    /// explanation worded by the catalogue from the error's words (its key, values and worded parts);
    /// the English `message` only where an error carries no words.
    static func located(_ error: ScenarioError, explanations: Explanations) -> String {
        guard let text = explanation(error, explanations: explanations) else { return error.description }
        return "\(error.file):\(error.line):\(error.column): \(error.path.isEmpty ? "" : error.path + ": ")\(text)"
    }

    /// The explanation after the located prefix, in `explanations`' language; nil without words.
    static func explanation(_ error: ScenarioError, explanations: Explanations) -> String? {
        guard let words = error.words else { return nil }
        var values = words.values
        if let got = words.got { values["got"] = explanations(got.key, ["value": got.value]) ?? got.value }
        for (name, part) in words.parts {
            switch part.cause {
            case .pki(let error)?: values[name] = explanations.pkiError(error); continue
            case .builtInPKI(let failure)?: values[name] = explanations.builtInPKIFailure(failure); continue
            case nil: break
            }
            guard let worded = explanations(part.key, part.values) else { return nil }
            values[name] = worded
        }
        return explanations(words.key, values)
    }
}
