import Languages

/// A lesson's Chinese words, as read from `title_zh`, `description_zh` and `try_next_zh`. English
/// is always in the file; every lesson under the repository's `Scenarios/` has the Chinese text
/// too (a file of your own may leave it out, and is then shown in English in either language).
public struct ChineseLessonText: Sendable, Hashable {
    public var title: String
    public var description: String
    /// One line for each `try_next` line, in the same order (empty when the file has no `try_next`).
    public var tryNext: [String]

    public init(title: String, description: String, tryNext: [String] = []) {
        self.title = title
        self.description = description
        self.tryNext = tryNext
    }
}

extension Scenario {
    /// The title in `language`; English when the file has no Chinese text.
    public func title(for language: Language) -> String {
        language == .zh ? chinese?.title ?? title : title
    }

    /// The description in `language`; English when the file has no Chinese text.
    public func description(for language: Language) -> String {
        language == .zh ? chinese?.description ?? description : description
    }

    /// The `try_next` lines in `language`; English when the file has no Chinese text.
    public func tryNext(for language: Language) -> [String] {
        language == .zh ? chinese?.tryNext ?? tryNext : tryNext
    }
}

extension LessonCatalogue.Entry {
    /// The title in `language`; English when the file has no Chinese text.
    public func title(for language: Language) -> String {
        language == .zh ? chinese?.title ?? title : title
    }

    /// The description in `language`; English when the file has no Chinese text.
    public func description(for language: Language) -> String {
        language == .zh ? chinese?.description ?? description : description
    }
}
