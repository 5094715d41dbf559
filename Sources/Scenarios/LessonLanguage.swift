/// The language a lesson's own words — its title, description and `try_next` lines — are shown in.
/// English is always in the file; Simplified Chinese (zh-Hans) is in `title_zh`, `description_zh`
/// and `try_next_zh` (every lesson under the repository's `Scenarios/` has them; a file of your own
/// may leave them out, and is then shown in English in either language).
public enum LessonLanguage: String, Sendable, CaseIterable {
    case en
    case zh
}

/// A lesson's Chinese words, as read from `title_zh`, `description_zh` and `try_next_zh`.
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
    public func title(for language: LessonLanguage) -> String {
        language == .zh ? chinese?.title ?? title : title
    }

    /// The description in `language`; English when the file has no Chinese text.
    public func description(for language: LessonLanguage) -> String {
        language == .zh ? chinese?.description ?? description : description
    }

    /// The `try_next` lines in `language`; English when the file has no Chinese text.
    public func tryNext(for language: LessonLanguage) -> [String] {
        language == .zh ? chinese?.tryNext ?? tryNext : tryNext
    }
}

extension LessonCatalogue.Entry {
    /// The title in `language`; English when the file has no Chinese text.
    public func title(for language: LessonLanguage) -> String {
        language == .zh ? chinese?.title ?? title : title
    }

    /// The description in `language`; English when the file has no Chinese text.
    public func description(for language: LessonLanguage) -> String {
        language == .zh ? chinese?.description ?? description : description
    }
}
