/// The language TLSLab's teaching text is written in: the renderers' catalogue and a lesson's own
/// words (its title, description and `try_next` lines) are chosen by it. Protocol, field, suite
/// and alert names, RFC numbers and hex stay as they are in every language; the sentences around
/// them are translated.
public enum Language: String, Sendable, Hashable, CaseIterable {
    /// English.
    case en
    /// Simplified Chinese (zh-Hans).
    case zh

    /// The BCP 47 tag of the language (an HTML page's `lang`).
    public var tag: String {
        switch self {
        case .en: return "en"
        case .zh: return "zh-Hans"
        }
    }
}

extension Language {
    /// The language asked for: the command line's `--lang` when given, else `TLSLAB_LANG`, else the
    /// locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, in POSIX's order of precedence: XBD §8.2); an empty
    /// variable counts as unset. English when nothing names a language.
    public static func chosen(flag: Language?, environment: [String: String]) -> Language {
        if let flag { return flag }
        if let chosen = environment["TLSLAB_LANG"], !chosen.isEmpty { return Language(locale: chosen) }
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let locale = environment[variable], !locale.isEmpty { return Language(locale: locale) }
        }
        return .en
    }

    /// The language of a locale name: Chinese for any `zh` locale (`zh`, `zh_CN.UTF-8`, `zh_TW`,
    /// `zh-Hans`, `zh_SG`…), English for anything else (`en_US.UTF-8`, `C`, `POSIX`, `fr_FR`).
    public init(locale: String) {
        let code = locale.lowercased().prefix { $0.isLetter }
        self = code == "zh" ? .zh : .en
    }
}
