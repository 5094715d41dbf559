/// The language the teaching text is written in. Protocol, field, suite and alert names, RFC
/// numbers and hex stay as they are in every language; the sentences around them are translated.
public enum Language: String, Sendable, Hashable, CaseIterable {
    /// English.
    case en
    /// Simplified Chinese (zh-Hans).
    case zh

    /// The catalogue that words every sentence, heading and label in this language.
    public var explanations: Explanations {
        switch self {
        case .en: return .english
        case .zh: return .chinese
        }
    }

    /// The BCP 47 tag of the language (an HTML page's `lang`).
    public var tag: String {
        switch self {
        case .en: return "en"
        case .zh: return "zh-Hans"
        }
    }
}
