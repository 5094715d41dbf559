import TLSEngine
import Trace

/// Renders a run as one self-contained HTML page (`tlslab export --html`): the ladder as inline
/// SVG, the walkthrough's steps with their explanations, values, knowledge panel, bytes and
/// certificate chain, a stylesheet (screen, print, slides) and a small script for stepping — no
/// network request of any kind. Pure: a trace in, a document out; no protocol value is computed
/// here — the steps are the terminal walkthrough's (``Walkthrough``), every word the catalogue's.
public struct HTMLRenderer: Sendable {
    public var explanations: Explanations
    /// One step per screen in large type, for projection (`--slides`).
    public var slides: Bool
    /// Embed the run's JSON Lines trace in the page as a data block.
    public var embedTrace: Bool

    public init(explanations: Explanations = .english, slides: Bool = false, embedTrace: Bool = true) {
        self.explanations = explanations
        self.slides = slides
        self.embedTrace = embedTrace
    }

    /// The catalogue's text for `key` (the key itself when the catalogue lacks it), HTML-escaped.
    func say(_ key: String, _ values: [String: String] = [:]) -> String {
        HTMLText.escaped(explanations(key, values) ?? key)
    }

    /// The page for `trace`; `name` names the run (`rsa`, `tcp/old-duplicate-syn`), `summary` is a
    /// built-in run's one-line description, `page` a lesson's title, description and checks.
    public func page(name: String, trace: Trace, summary: String? = nil, lesson page: LessonPage? = nil) -> String {
        String(decoding: pageBytes(name: name, trace: trace, summary: summary, lesson: page), as: UTF8.self)
    }

    /// The page as the UTF-8 bytes a file holds (what `export --html` writes): built once, in place.
    public func pageBytes(name: String, trace: Trace, summary: String? = nil, lesson page: LessonPage? = nil) -> [UInt8] {
        // The walkthrough at a width no line reaches: the browser wraps, not the renderer. The ladder's
        // labels keep values short; it is drawn, and its walkthrough let go, before the steps' one
        // (values whole: a reader copies them to redo a calculation) is built.
        func walkthrough(fullValues: Bool) -> Walkthrough {
            Walkthrough(title: name, trace: trace, width: 100_000, page: page, fullValues: fullValues, about: summary,
                        explanations: explanations, surface: .page)
        }
        let (ladderHTML, stepCount, rails): (String, Int, LadderRails) = {
            let walk = walkthrough(fullValues: false)
            let rails = ladderRails(walk, columns: ladderColumns(trace))
            return (ladder(walk, trace: trace, rails: rails), walk.steps.count, rails)
        }()
        let whole = walkthrough(fullValues: true)
        let sections = whole.steps.count == stepCount ? whole : walkthrough(fullValues: false)
        var bytes: [UInt8] = []
        var html = "<!DOCTYPE html>\n<html lang=\"\(explanations.language.tag)\" class=\"nojs\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        // Nothing may be fetched: no script, style, font, image or frame from anywhere.
        html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        html += "<meta name=\"generator\" content=\"TLSLab\">\n"
        html += "<title>\(say("html.title", ["name": page?.title ?? name]))</title>\n"
        html += "<style>\n\(HTMLStyleSheet.css)</style>\n</head>\n"
        html += "<body class=\"\(slides ? "slides" : "page")\">\n"
        html += "<a class=\"skip\" href=\"#panel\">\(say("html.skip"))</a>\n"
        html += header(name: name, summary: summary, lesson: page)
        html += controls(count: stepCount)
        html += "<noscript><p class=\"noscript\">\(say("html.noscript"))</p></noscript>\n"
        // A drawing whose rails moved apart (#33) gets a ladder column as wide as it, its box included.
        let column = rails.width > LadderGeometry.width ? " style=\"--ladder-column:\(HTMLText.number((rails.width + LadderGeometry.boxExtra).rounded(.up)))px\"" : ""
        html += "<main class=\"layout\"\(column)>\n"
        html += ladderHTML
        html += "<div class=\"panel\" id=\"panel\" tabindex=\"-1\">\n"
        bytes.append(contentsOf: html.utf8)
        html = ""
        stepSections(sections, trace: trace, lesson: page, into: &bytes)
        html += "<aside class=\"knowledge-now\" id=\"knowledge-now\" aria-live=\"polite\"></aside>\n"
        html += "</div>\n</main>\n"
        html += "<footer><p>\(say("html.footer"))</p></footer>\n"
        if embedTrace {
            var lines = JSONLinesRenderer().render(trace)
            if let page {
                let frame = JSONLinesRenderer().lesson(page)
                lines = [frame.head] + lines + frame.checks
            }
            html += "<script type=\"application/x-ndjson\" id=\"tlslab-trace\" aria-label=\"\(say("html.data.label"))\">\n"
            html += HTMLText.scriptData(lines.joined(separator: "\n")) + "\n</script>\n"
        }
        html += "<script>\n\(HTMLScript.source)</script>\n</body>\n</html>\n"
        bytes.append(contentsOf: html.utf8)
        return bytes
    }

    /// The title, what the run is, and a lesson's description.
    func header(name: String, summary: String?, lesson page: LessonPage?) -> String {
        var out = "<header class=\"top\">\n"
        if let page {
            out += "<h1>\(HTMLText.escaped(page.title))</h1>\n"
            let kind = CatalogueKey.lessonKind(page.kind).flatMap { explanations($0) } ?? page.kind
            out += "<p class=\"subtitle\">\(say("lesson.header", ["name": page.name, "kind": kind]))</p>\n"
            out += courseLinks(page)
        } else {
            out += "<h1>\(say("html.title", ["name": name]))</h1>\n"
            if let summary { out += "<p class=\"subtitle\">\(HTMLText.escaped(summary))</p>\n" }
        }
        out += "<p class=\"about\">\(say("html.subtitle"))</p>\n"
        return out + "</header>\n"
    }

    /// Back / position / Next, and the keys.
    func controls(count: Int) -> String {
        let format = explanations.phrase("html.nav.position")
        return """
        <nav class="controls" aria-label="\(say("html.nav.label"))">
        <button type="button" id="back">\(say("html.nav.back"))</button>
        <span id="position" role="status" data-format="\(HTMLText.escaped(format))">\(say("html.nav.position", ["step": "1", "total": "\(count)"]))</span>
        <button type="button" id="next">\(say("html.nav.next"))</button>
        <span class="keys">\(say("html.nav.keys"))</span>
        </nav>

        """
    }

    /// The name of a party in the reader's language.
    func party(_ actor: Actor) -> String {
        explanations(CatalogueKey.party(actor)) ?? actor.rawValue
    }

    /// The time of a step as the text ladder writes it, with its unit.
    func timeText(_ micros: Int64) -> String { RunDocument.timeText(micros) }
}
