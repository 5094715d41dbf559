import Languages

extension Language {
    /// The catalogue that words every sentence, heading and label in this language.
    public var explanations: Explanations {
        switch self {
        case .en: return .english
        case .zh: return .chinese
        }
    }
}
