import ArgumentParser
import Foundation
import Languages
import Rendering

/// The language of the command line's own words (issue #34), chosen before the arguments are parsed:
/// `--lang X` / `--lang=X` anywhere in argv, else `TLSLAB_LANG`, else the locale (the same rules as
/// ``LanguageOption``). Help text, the parser's messages and the command line's errors come from the
/// catalogue in that language.
enum CLIWords {
    static let language: Language = chosen(arguments: Array(CommandLine.arguments.dropFirst()),
                                           environment: ProcessInfo.processInfo.environment)
    static var explanations: Explanations { language.explanations }

    /// The `--lang` value in `arguments` (last one wins, as the parser does), else the environment's choice.
    static func chosen(arguments: [String], environment: [String: String]) -> Language {
        var flag: Language?
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { break }
            if a == "--lang", i + 1 < arguments.count { flag = Language(rawValue: arguments[i + 1]) ?? flag; i += 1 }
            else if a.hasPrefix("--lang=") { flag = Language(rawValue: String(a.dropFirst(7))) ?? flag }
            i += 1
        }
        return Language.chosen(flag: flag, environment: environment)
    }

    /// A catalogue entry of the command line (`cli.…`) in the chosen language.
    static func text(_ key: String, _ values: [String: String] = [:]) -> String {
        explanations(key, values) ?? Explanations.english(key, values) ?? key
    }

    /// An option's or argument's help.
    static func help(_ key: String, _ values: [String: String] = [:]) -> ArgumentHelp { ArgumentHelp(text(key, values)) }
}

/// The argument parser's own words (swift-argument-parser writes its headings and messages in English):
/// each fixed phrase it prints, with the catalogue key that words it. Matched per line, so option
/// names, values and usage lines stay as the parser wrote them.
enum ParserWords {
    /// (the parser's English, with `(.*)` for what it fills in; the catalogue key).
    static var phrases: [(Regex<AnyRegexOutput>, String)] { [
        (try! Regex(#"^OVERVIEW: (.*)$"#), "cli.parser.overview"),
        (try! Regex(#"^USAGE: (.*)$"#), "cli.parser.usageHeading"),
        (try! Regex(#"^ARGUMENTS:$"#), "cli.parser.arguments"),
        (try! Regex(#"^OPTIONS:$"#), "cli.parser.options"),
        (try! Regex(#"^SUBCOMMANDS:$"#), "cli.parser.subcommands"),
        (try! Regex(#"^(.*)Show help information\.$"#), "cli.parser.showHelp"),
        (try! Regex(#"^(.*)Show the version\.$"#), "cli.parser.showVersion"),
        (try! Regex(#"^  See '(.*)' for detailed help\.$"#), "cli.parser.seeSubcommandHelp"),
        (try! Regex(#"^  See '(.*)' for more information\.$"#), "cli.parser.seeHelp"),
        (try! Regex(#"^Usage: (.*)$"#), "cli.parser.usage"),
        (try! Regex(#"^Help:  (.*)$"#), "cli.parser.help"),
        (try! Regex(#"^Error: Missing expected argument '(.*)'$"#), "cli.parser.missingArgument"),
        (try! Regex(#"^Error: Missing value for '(.*)'$"#), "cli.parser.missingValue"),
        (try! Regex(#"^Error: Unknown option '(.*)'\. Did you mean '(.*)'\?$"#), "cli.parser.unknownOptionDidYouMean"),
        (try! Regex(#"^Error: Unknown option '(.*)'$"#), "cli.parser.unknownOption"),
        (try! Regex(#"^Error: Unexpected argument '(.*)'$"#), "cli.parser.unexpectedArgument"),
        (try! Regex(#"^Error: (\d+) unexpected arguments: (.*)$"#), "cli.parser.unexpectedArguments"),
        (try! Regex(#"^Error: Missing required subcommand\.$"#), "cli.parser.missingSubcommand"),
        (try! Regex(#"^Error: The value '(.*)' is invalid for '(.*)'\. Please provide one of (.*)\.$"#), "cli.parser.invalidValueOneOf"),
        (try! Regex(#"^Error: The value '(.*)' is invalid for '(.*)'$"#), "cli.parser.invalidValue"),
        (try! Regex(#"^Error: (.*)$"#), "cli.parser.error"),
    ] }

    /// `text` (a help screen or an error message of the parser) in `explanations`' language.
    /// English text is returned unchanged.
    static func worded(_ text: String, in explanations: Explanations, width: Int? = max(40, Terminal.columns ?? 80)) -> String {
        guard explanations.language != .en else { return text }
        let text = annotations(text, in: explanations)
        let width = width ?? Int.max
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let line = String(line)
            for (pattern, key) in phrases {
                guard let m = try? pattern.wholeMatch(in: line) else { continue }
                var values: [String: String] = [:]
                for i in 1 ..< m.output.count {
                    values["\(i)"] = m.output[i].substring.map(String.init) ?? ""
                }
                // Our own messages after "Error: " are already worded; the parser's "(default: …)" stays.
                if key == "cli.parser.invalidValueOneOf", let list = values["3"] {
                    values["3"] = list.matches(of: /'[^']*'/).map { String($0.output) }.joined(separator: CLIWords.text("cli.unknownName.separator"))
                }
                return fitted(explanations(key, values) ?? line, width: width)
            }
            return fitted(line, width: width)
        }.joined(separator: "\n")
    }

    /// Whether the command line asks for help (`-h`, `--help`, `help SUBCOMMAND`).
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.first == "help" || arguments.contains("-h") || arguments.contains("--help")
    }

    /// The (sub)command the arguments name: `bench crypto --help` → `CryptoBenchCommand`.
    static func command(named arguments: [String], in root: ParsableCommand.Type) -> ParsableCommand.Type {
        var command = root
        for argument in arguments where !argument.hasPrefix("-") && argument != "help" {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { continue }
            command = sub
        }
        return command
    }

    /// A command's help screen in `explanations`' language, wrapped by display width: asked of the parser
    /// unwrapped, its fixed phrases worded from the catalogue, then wrapped with ``fitted(_:width:)``.
    static func help(for command: ParsableCommand.Type, in explanations: Explanations) -> String {
        let width = max(40, Terminal.columns ?? 80)
        let text = annotations(TLSLab.helpMessage(for: command, columns: 100_000), in: explanations)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            fitted(worded(String(line), in: explanations, width: nil), width: width)
        }.joined(separator: "\n")
    }

    /// The parser's annotations after an option's help, which it may have wrapped over lines:
    /// "(default: x)", "(values: a, b)", "(values: a, b; default: a)".
    static func annotations(_ text: String, in explanations: Explanations) -> String {
        func joined(_ s: Substring) -> String { String(s).replacing(/\n +/, with: " ") }
        return text
            .replacing(/\ ?\(values: ([^)]*?);\s+default: ([^)]*)\)/) { m in
                explanations.phrase("cli.parser.values", ["1": joined(m.output.1)]) + explanations.phrase("cli.parser.default", ["1": joined(m.output.2)])
            }
            .replacing(/\ ?\(default: ([^)]*)\)/) { m in explanations("cli.parser.default", ["1": joined(m.output.1)]) ?? String(m.output.0) }
            .replacing(/\ ?\(values: ([^)]*)\)/) { m in explanations("cli.parser.values", ["1": joined(m.output.1)]) ?? String(m.output.0) }
            // The default subcommand in a SUBCOMMANDS list ("  all (default)      …"), its help kept in its column.
            .replacing(/^(  \S+) \(default\)( *)/.anchorsMatchLineEndings()) { m in
                let word = explanations.phrase("cli.parser.defaultSubcommand")
                let pad = max(1, DisplayWidth.columns(" (default)" + m.output.2) - DisplayWidth.columns(word))
                return m.output.1 + word + String(repeating: " ", count: pad)
            }
    }

    /// A line the parser wrapped by characters, re-wrapped by display width (a Chinese character takes two
    /// columns) with the typesetting rules of ``DisplayWidth/wrap(_:width:indent:)``; continuation lines
    /// start where the line's text starts (an option's help column).
    static func fitted(_ line: String, width: Int) -> String {
        guard DisplayWidth.columns(line) > width else { return line }
        let lead = line.prefix { $0 == " " }.count
        // An option's line: its name from column 2, its help from the parser's help column (26).
        let characters = Array(line)
        let indent = lead == 2 && characters.count > 26 && characters[25] == " " && characters[26] != " " ? 26 : lead
        let head = String(line.prefix(indent)), body = String(line.dropFirst(indent))
        let lines = DisplayWidth.wrap(body, width: width, indent: indent)
        return ([head + lines[0].dropFirst(indent)] + lines.dropFirst()).joined(separator: "\n")
    }
}
