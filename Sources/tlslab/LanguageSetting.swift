import ArgumentParser
import Foundation
import Rendering

/// The language of the teaching text: `--lang zh|en`, else `TLSLAB_LANG`, else the locale
/// (`LC_ALL`, `LC_MESSAGES`, `LANG`, in POSIX's order of precedence): Chinese for any `zh`
/// locale (`zh_CN.UTF-8`, `zh_TW.UTF-8`, `zh_SG`, `zh`), English for anything else.
enum LanguageSetting {
    static func resolve(flag: Language?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Language {
        if let flag { return flag }
        if let chosen = environment["TLSLAB_LANG"], !chosen.isEmpty { return language(ofLocale: chosen) }
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let locale = environment[variable], !locale.isEmpty { return language(ofLocale: locale) }
        }
        return .en
    }

    /// `zh`, `zh_CN.UTF-8`, `zh-Hans`, `zh_TW`… → zh; `en_US.UTF-8`, `C`, `POSIX`, `fr_FR` → en.
    static func language(ofLocale locale: String) -> Language {
        let lowered = locale.lowercased()
        let code = lowered.prefix { $0.isLetter }
        return code == "zh" ? .zh : .en
    }
}

extension Language: ExpressibleByArgument {}

/// `--lang`, shared by every command that prints or exports teaching text.
struct LanguageOption: ParsableArguments {
    @Option(help: "Language of the explanations: zh (简体中文) or en. Default: $TLSLAB_LANG, else the locale ($LC_ALL, $LANG: zh_* → zh), else en.")
    var lang: Language?

    var language: Language { LanguageSetting.resolve(flag: lang) }
    var explanations: Explanations { language.explanations }
}
