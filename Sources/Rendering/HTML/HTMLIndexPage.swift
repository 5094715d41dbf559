/// The course folder's index (`tlslab export --all --html DIR`): every built-in run and every
/// lesson, by topic in course order, each a link to its page in the folder. Self-contained like the
/// pages: no style, font or script from anywhere.
public struct HTMLIndexPage: Sendable {
    /// One page of the folder: `file` is its path relative to the index.
    public struct Link: Sendable, Hashable {
        public var name: String
        public var title: String
        public var file: String
        /// A lesson's topic (its folder in the library); empty for a built-in run.
        public var topic: String
        /// A lesson's kind (`tls`, `tcp`, `ats`, `dh`); empty for a built-in run.
        public var kind: String
        /// What the lesson shows, in one sentence (the first of its description); empty for a run.
        public var summary: String

        public init(name: String, title: String, file: String, topic: String = "", kind: String = "", summary: String = "") {
            self.name = name
            self.title = title
            self.file = file
            self.topic = topic
            self.kind = kind
            self.summary = summary
        }
    }

    public var explanations: Explanations

    public init(explanations: Explanations = .english) {
        self.explanations = explanations
    }

    func say(_ key: String, _ values: [String: String] = [:]) -> String {
        HTMLText.escaped(explanations(key, values) ?? key)
    }

    /// The index: built-in runs first, then the lessons grouped by topic in the order given.
    public func render(runs: [Link], lessons: [Link]) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"\(explanations.language.tag)\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        html += "<title>\(say("html.index.title"))</title>\n<style>\n\(HTMLStyleSheet.css)</style>\n</head>\n<body class=\"index\">\n"
        html += "<header class=\"top\"><h1>\(say("html.index.title"))</h1>\n<p class=\"about\">\(say("html.index.intro"))</p></header>\n<main>\n"
        html += "<h2>\(say("html.index.runs"))</h2>\n<ul class=\"runs\">\n"
        for run in runs { html += item(run) }
        html += "</ul>\n<h2>\(say("html.index.lessons"))</h2>\n"
        // Numbered through the whole course, in the order given (the course order); the first is where to start.
        var topics: [String] = []
        for lesson in lessons where !topics.contains(lesson.topic) { topics.append(lesson.topic) }
        for topic in topics {
            html += "<section>\n<h3>\(HTMLText.escaped(CatalogueKey.indexTopic(topic).flatMap { explanations($0) } ?? topic))</h3>\n"
            let first = lessons.firstIndex { $0.topic == topic } ?? 0
            html += "<ol class=\"course\" start=\"\(first + 1)\">\n"
            for (n, lesson) in lessons.enumerated() where lesson.topic == topic { html += item(lesson, startHere: n == 0) }
            html += "</ol>\n</section>\n"
        }
        html += "</main>\n<footer><p>\(say("html.footer"))</p></footer>\n</body>\n</html>\n"
        return html
    }

    func item(_ link: Link, startHere: Bool = false) -> String {
        var out = "<li><a href=\"\(HTMLText.escaped(Self.relativeURL(link.file)))\">\(HTMLText.escaped(link.title))</a> <code>\(HTMLText.escaped(link.name))</code>"
        if !link.kind.isEmpty { out += " — \(HTMLText.escaped(CatalogueKey.lessonKind(link.kind).flatMap { explanations($0) } ?? link.kind))" }
        if startHere { out += " <strong class=\"start\">\(say("html.index.startHere"))</strong>" }
        if !link.summary.isEmpty { out += "<br><span class=\"summary\">\(HTMLText.escaped(link.summary))</span>" }
        return out + "</li>\n"
    }

    /// The first sentence of a lesson's description (up to its first full stop), for the index.
    public static func firstSentence(_ description: String) -> String {
        let text = description.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        for (i, c) in zip(text.indices, text) where c == "。" || (c == "." && text.index(after: i) < text.endIndex && text[text.index(after: i)] == " ") {
            return String(text[...i])
        }
        return text
    }

    /// A relative path as a URL path: each segment percent-encoded except unreserved characters.
    static func relativeURL(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.utf8.map { byte -> String in
                let c = Character(Unicode.Scalar(byte))
                if c.isASCII, c.isLetter || c.isNumber || "-._~".contains(c) { return String(c) }
                let hex = String(byte, radix: 16, uppercase: true)
                return "%" + (hex.count == 1 ? "0" + hex : hex)
            }.joined()
        }.joined(separator: "/")
    }
}
