import ArgumentParser
import Foundation
import Languages
import Rendering

extension Language: ExpressibleByArgument {}

/// `--lang`, shared by every command that prints or exports teaching text: the flag, else
/// `TLSLAB_LANG`, else the locale (``Language/chosen(flag:environment:)`` has the rules).
struct LanguageOption: ParsableArguments {
    @Option(help: CLIWords.help("cli.languageOption.lang"))
    var lang: Language?

    var language: Language { Language.chosen(flag: lang, environment: ProcessInfo.processInfo.environment) }
    var explanations: Explanations { language.explanations }
}
