/// The lesson's Chinese words: `title_zh`, `description_zh`, `try_next_zh`.
///
/// The rule: a scenario file may leave all three out (a file of your own is then shown in English);
/// a file that has any of them is a translated lesson and must be complete — `title_zh` and
/// `description_zh` both present, and `try_next_zh` exactly when the file has `try_next`, with one
/// line for each of its lines. Each is checked like its English twin (a one-line title of at most
/// 200 characters, a description of at least 20 characters, suggestions of 10 to 300 characters on
/// one line) and must contain Chinese (a Han character), so an untranslated copy is refused. Every
/// lesson of the repository's `Scenarios/` is a translated lesson (a library test walks them).
extension ScenarioReader {
    static let chineseKeys = ["title_zh", "description_zh", "try_next_zh"]

    static func chinese(_ top: YAMLMapping, tryNext: [String]) throws(ScenarioError) -> ChineseLessonText? {
        guard let present = chineseKeys.first(where: { top.has($0) }) else { return nil }
        func missing(_ key: String, beside english: String, _ expected: ScenarioError.Expected) -> ScenarioError {
            var e = top.keyError(english, "missing required key '\(key)': expected \(expected.english); a translated lesson (this file has \(present)) needs it beside '\(english)'",
                                 "scenario.zh.missing", ["key": key, "present": present, "english": english], parts: ["expected": expected.words])
            e.path = key
            return e
        }
        guard let titleValue = top["title_zh"] else {
            throw missing("title_zh", beside: "title", .init("the lesson's name in Chinese, one line", "scenario.expected.zhTitle"))
        }
        guard let descriptionValue = top["description_zh"] else {
            throw missing("description_zh", beside: "description", .init("the description in Chinese, at least 20 characters", "scenario.expected.zhDescription"))
        }
        let title = try titleValue.name(limit: 200)
        guard containsHan(title) else { throw titleValue.error("expected the title in Chinese, got '\(YAMLValue.clip(title))'", "scenario.zh.titleNotChinese", ["value": YAMLValue.clip(title)]) }

        let description = joiningChineseLines(try descriptionValue.prose())
        guard description.count >= 20 else {
            throw top.keyError("description_zh", "expected a Chinese description that teaches the point (at least 20 characters), got \(description.count)", "scenario.zh.descriptionTooShort", ["count": "\(description.count)"])
        }
        guard description.count <= LessonWorkLimits.maximumDescriptionCharacters else {
            throw top.keyError("description_zh", "expected a Chinese description of at most \(LessonWorkLimits.maximumDescriptionCharacters) characters, got \(description.count)", "scenario.zh.descriptionTooLong", ["limit": "\(LessonWorkLimits.maximumDescriptionCharacters)", "count": "\(description.count)"])
        }
        guard containsHan(description) else {
            throw descriptionValue.error("expected the description in Chinese, got '\(YAMLValue.clip(description))'", "scenario.zh.descriptionNotChinese", ["value": YAMLValue.clip(description)])
        }

        var lines: [String] = []
        switch (top["try_next_zh"], tryNext.isEmpty) {
        case (nil, true):
            break
        case (nil, false):
            throw missing("try_next_zh", beside: "try_next", .init("\(tryNext.count) Chinese line\(tryNext.count == 1 ? "" : "s"), one for each try_next line",
                                                                       tryNext.count == 1 ? "scenario.expected.zhTryNext.one" : "scenario.expected.zhTryNext", ["count": "\(tryNext.count)"]))
        case (_?, true):
            throw top.keyError("try_next_zh", "expected no try_next_zh: the file has no try_next for it to translate", "scenario.zh.tryNextWithoutEnglish")
        case (let value?, false):
            let items = try value.list()
            guard items.count == tryNext.count else {
                throw top.keyError("try_next_zh", "expected \(tryNext.count) line\(tryNext.count == 1 ? "" : "s"), one for each try_next line, got \(items.count)",
                                   tryNext.count == 1 ? "scenario.zh.tryNextCount.one" : "scenario.zh.tryNextCount", ["count": "\(tryNext.count)", "got": "\(items.count)"])
            }
            for item in items {
                let text = joiningChineseLines(try item.prose())
                guard text.count >= 10, text.count <= 300, !text.contains("\n") else {
                    throw item.error("expected one line of 10 to 300 characters saying what to change and what will happen, got '\(YAMLValue.clip(text))'", "scenario.tryNextLine", ["value": YAMLValue.clip(text)])
                }
                guard containsHan(text) else { throw item.error("expected the suggestion in Chinese, got '\(YAMLValue.clip(text))'", "scenario.zh.suggestionNotChinese", ["value": YAMLValue.clip(text)]) }
                lines.append(text)
            }
        }
        return ChineseLessonText(title: title, description: description, tryNext: lines)
    }

    /// True when `text` has a Han character (CJK Unified Ideographs and their extensions, compatibility ideographs).
    static func containsHan(_ text: String) -> Bool {
        text.unicodeScalars.contains { s in
            switch s.value {
            case 0x3400 ... 0x4DBF, 0x4E00 ... 0x9FFF, 0xF900 ... 0xFAFF, 0x20000 ... 0x3FFFF: return true
            default: return false
            }
        }
    }

    /// A Han character, CJK punctuation or a fullwidth form: text written without spaces between words.
    static func isWideScript(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3000 ... 0x303F, 0x3400 ... 0x4DBF, 0x4E00 ... 0x9FFF, 0xF900 ... 0xFAFF, 0xFF00 ... 0xFF60, 0x20000 ... 0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Chinese text as the reader means it: a folded YAML block (`>`) joins its lines with a space,
    /// which inside a Chinese sentence is wrong, so spaces and line breaks between two Han characters
    /// or CJK punctuation marks are dropped (as CSS Text 3 §4.1.3 does with a segment break between
    /// two wide characters); a space beside Latin text (`使用 RSA 密钥`) stays. Trailing white space
    /// goes.
    static func joiningChineseLines(_ text: String) -> String {
        var out: [Unicode.Scalar] = []
        var pending: [Unicode.Scalar] = []
        for s in text.unicodeScalars {
            if s == " " || s == "\n" || s == "\t" {
                pending.append(s)
                continue
            }
            if !pending.isEmpty {
                if !(isWideScript(s) && out.last.map(isWideScript) == true) { out += pending }
                pending = []
            }
            out.append(s)
        }
        var result = String(String.UnicodeScalarView(out))
        while result.last?.isWhitespace == true { result.removeLast() }
        return result
    }
}
