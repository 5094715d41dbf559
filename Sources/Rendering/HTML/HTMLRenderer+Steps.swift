import Trace

/// The steps beside the ladder: one section per walkthrough step with its headline, its lines
/// (values as a list, explanations as prose), the certificate chain, the message's bytes and the
/// knowledge panel at that step. Every section is in the document (print shows them all); the
/// script shows one at a time.
extension HTMLRenderer {
    /// The sections are appended to `html` one at a time: a run of thousands of steps never holds
    /// them twice, as one long string and as the page's bytes.
    func stepSections(_ walk: Walkthrough, trace: Trace, lesson page: LessonPage?, into html: inout [UInt8]) {
        let panels = !trace.isLessonOnly && !trace.isOneSided && !trace.events.isEmpty
        var tables: [String: String] = [:]          // table HTML → id
        var tableAt: [Int: String] = [:]           // event index → id, so each prefix is measured once
        var bytesAt: [[UInt8]: Int] = [:]           // message bytes → the step that first shows them
        var paragraphs = Paragraphs()
        var out = ""
        for (index, step) in walk.steps.enumerated() {
            let number = index + 1
            var knowledgeID: String?
            var ownTable: String?
            if panels, step.kind != .opening {
                if let id = tableAt[step.eventIndex] {
                    knowledgeID = id
                } else {
                    let table = knowledgeTable(walk.document.knowledge(after: step.eventIndex))
                    if let id = tables[table] {
                        knowledgeID = id
                    } else {
                        let id = "k\(tables.count + 1)"
                        tables[table] = id
                        knowledgeID = id
                        ownTable = table.replacing("<table class=\"knowledge\">", with: "<table class=\"knowledge\" id=\"\(id)\">")
                    }
                    tableAt[step.eventIndex] = knowledgeID
                }
            }
            let isLessonClose = page != nil && step.kind == .closing && index == walk.steps.count - 1
            out += "<section class=\"step part-\(Self.kindName(step.kind))\" id=\"step-\(number)\" data-step=\"\(number)\""
            if let knowledgeID { out += " data-knowledge=\"\(knowledgeID)\"" }
            out += " aria-labelledby=\"step-\(number)-h\">\n"
            out += "<h2 id=\"step-\(number)-h\"><span class=\"n\">\(say("html.nav.position", ["step": "\(number)", "total": "\(walk.steps.count)"]))</span>"
            if let time = step.time { out += " <span class=\"t\">\(HTMLText.escaped(timeText(time)))</span>" }
            out += " <span class=\"w\">\(HTMLText.escaped(step.label))</span></h2>\n"
            if isLessonClose, let page {
                out += lessonClose(page)
            } else if step.kind == .opening {
                // The story only: the terminal's "press n to begin" and key table end the opening there,
                // and the page's own keys are in its control bar.
                let begin = explanations("walk.opening.begin")
                out += step.detail.prefix { $0 != begin }.map { "<p class=\"why\">\(HTMLText.escaped($0))</p>\n" }.joined()
            } else {
                out += detailLines(step.lines, paragraphs: &paragraphs)
            }
            if step.kind == .event, trace.events.indices.contains(step.eventIndex),
               case .chainValidation(let validation) = trace.events[step.eventIndex].kind {
                out += chain(validation, checker: trace.events[step.eventIndex].actor)
            }
            // What the step calculates, as a calculation a reader can redo and copy.
            out += calculations(step.calculations, step: number)
            if let message = step.message {
                // A message sent again byte for byte (a certificate chain on every connection) shares the first table.
                if let first = bytesAt[message.bytes] {
                    out += sharedBytes(message, step: number, sameAs: first)
                } else {
                    bytesAt[message.bytes] = number
                    out += bytes(message, step: number)
                }
            }
            // What the bytes are for (each ClientHello extension's purpose…), beside the bytes.
            for line in step.bytesSentences { out += paragraphs.paragraph(line.worded(in: explanations)) }
            if let segment = step.segment {
                out += bytes(segment, id: "segment-\(number)",
                             summary: say("html.segment.summary", ["header": "\(segment.bytes.count)", "payload": "\(step.segmentPayload)"]),
                             about: paragraphs.paragraph(explanations.phrase("html.segment.why")), dump: say("html.segment.dump"))
            }
            out += records(step.records, step: number)
            if let ownTable { out += ownTable }
            out += "</section>\n"
            html.append(contentsOf: out.utf8)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// The walkthrough repeats an explanation wherever its kind comes again (every step stands on
    /// its own); the page holds a long one once and lets the script fill the repeats in when their
    /// step is shown or printed.
    struct Paragraphs {
        /// Shorter explanations are simply repeated.
        static let sharedFrom = 80
        var ids: [String: String] = [:]

        mutating func paragraph(_ text: String) -> String {
            guard text.count >= Self.sharedFrom else { return "<p class=\"why\">\(HTMLText.escaped(text))</p>\n" }
            if let id = ids[text] { return "<p class=\"why\" data-same=\"\(id)\"></p>\n" }
            let id = "w\(ids.count + 1)"
            ids[text] = id
            return "<p class=\"why\" id=\"\(id)\">\(HTMLText.escaped(text))</p>\n"
        }
    }

    /// The class name of a step's kind (`part-opening`, `part-event`…).
    static func kindName(_ kind: Walkthrough.Step.Kind) -> String {
        switch kind {
        case .opening: return "opening"
        case .event: return "event"
        case .phaseSummary: return "summary"
        case .closing: return "closing"
        }
    }

    /// A step's lines: headings, values (a list, monospace, nested values indented) and sentences (prose).
    func detailLines(_ lines: [LadderEntry], paragraphs: inout Paragraphs) -> String {
        var out = "", facts: [String] = []
        func flush() {
            guard !facts.isEmpty else { return }
            out += "<ul class=\"facts\">\n" + facts.map { "<li>\(HTMLText.escaped($0))</li>\n" }.joined() + "</ul>\n"
            facts.removeAll()
        }
        for line in lines where !line.isBlank {
            switch line.form {
            case .heading(let title, _):
                flush()
                out += "<h3>\(HTMLText.escaped(title))</h3>\n"
            case _ where line.isSentence:
                flush()
                out += paragraphs.paragraph(line.worded(in: explanations))
            case .fact(let text, let indent):
                facts.append(String(repeating: " ", count: indent) + text)
            default:
                facts.append(line.text)
            }
        }
        flush()
        return out.isEmpty ? "<p class=\"none\">\(say("html.step.nothing"))</p>\n" : out
    }

    /// The knowledge panel as a table: a row per secret, a column per party.
    func knowledgeTable(_ table: KnowledgeTable) -> String {
        var columns = ["party.client", "party.server", "party.eavesdropper"]
        if table.hasAfterwards { columns.append("html.knowledge.afterwards") }
        if table.hasAttacker { columns.append("party.attacker") }
        var out = "<table class=\"knowledge\">\n<caption>\(say("html.knowledge.heading"))</caption>\n<thead><tr>"
        out += "<th scope=\"col\">\(say("html.knowledge.secret"))</th>"
        for c in columns {
            out += "<th scope=\"col\">\(say(c))</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for row in table.rows {
            let name = row.changedInFlight ? say("html.knowledge.changedCopy") : row.derivedDifferently ? say("html.knowledge.serverOwn") : say(CatalogueKey.secret(row.secret))
            // A secret's identifier may break after an underscore on a narrow screen, not inside a word.
            out += "<tr><th scope=\"row\">\(name.replacing("_", with: "_<wbr>"))</th>"
            let marks = [row.client, row.server, row.eavesdropper] + (table.hasAfterwards ? [row.eavesdropperAfterwards ?? false] : [])
                + (table.hasAttacker ? [row.attacker ?? false] : [])
            for known in marks {
                out += known ? "<td class=\"yes\">\(say("html.knowledge.knows"))</td>"
                    : "<td class=\"no\"><span aria-label=\"\(say("html.knowledge.unknownAlt"))\">\(say("html.knowledge.unknown"))</span></td>"
            }
            out += "</tr>\n"
        }
        if table.rows.isEmpty {
            out += "<tr><td colspan=\"\(columns.count + 1)\">\(say("html.knowledge.empty"))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    /// A lesson's close: each expectation checked, the tally, what to try next.
    func lessonClose(_ page: LessonPage) -> String {
        var out = "<h3>\(say("html.lesson.checks"))</h3>\n"
        if page.isDemo {
            out += "<p class=\"why\">\(say("lesson.demo"))</p>\n"
        } else {
            out += "<ul class=\"checks\">\n"
            for p in page.problems {
                out += "<li class=\"fail\">\(say("lesson.problem", ["key": p.key, "actual": p.actual]))</li>\n"
            }
            for c in page.checks {
                let result = explanations(c.holds ? "lesson.pass" : "lesson.fail") ?? (c.holds ? "PASS" : "FAIL")
                let sentence = explanations.checkSentence(key: c.key, value: c.expected)
                var text = c.actual.map { say("lesson.expectationGot", ["result": result, "key": c.key, "expected": c.expected, "actual": $0]) }
                    ?? sentence.map { say("lesson.checkHolds", ["sentence": $0, "key": c.key, "expected": c.expected]) }
                    ?? say("lesson.expectation", ["result": result, "key": c.key, "expected": c.expected])
                if c.actual != nil, let sentence { text += "<br>" + say("lesson.checkExpected", ["sentence": sentence]) }
                out += "<li class=\"\(c.holds ? "pass" : "fail")\">\(text)</li>\n"
            }
            out += "</ul>\n<p>\(say("lesson.tally", ["passed": "\(page.checks.filter(\.holds).count)", "total": "\(page.checks.count)"]))</p>\n"
        }
        if !page.tryNext.isEmpty {
            out += "<h3>\(say("lesson.tryNext"))</h3>\n<ul class=\"try\">\n"
            out += page.tryNext.map { "<li>\(linkingLessons(HTMLText.escaped($0), page.pages))</li>\n" }.joined() + "</ul>\n"
        }
        return out + courseLinks(page)
    }

    /// `text` (escaped HTML) with every lesson name that has a page (`ats/http-exception`) made a link to it.
    func linkingLessons(_ text: String, _ pages: [String: String]) -> String {
        guard !pages.isEmpty else { return text }
        return text.replacing(/(^|[^A-Za-z0-9\/-])([a-z0-9-]+\/[a-z0-9-]+)(?![A-Za-z0-9\/-])/) { match in
            let before = String(match.output.1), name = String(match.output.2)
            guard let href = pages[name] else { return before + name }
            return before + "<a href=\"\(HTMLText.escaped(HTMLIndexPage.relativeURL(href)))\">\(name)</a>"
        }
    }

    /// Links to the lessons before and after this one in the course, and to the course's index.
    func courseLinks(_ page: LessonPage) -> String {
        guard page.previous != nil || page.next != nil else { return "" }
        var out = "<nav class=\"course\" aria-label=\"\(say("html.course.label"))\"><ul>\n"
        if let p = page.previous {
            out += "<li><a rel=\"prev\" href=\"\(HTMLText.escaped(HTMLIndexPage.relativeURL(p.href)))\">\(say("html.course.previous", ["title": p.title]))</a></li>\n"
        }
        if let n = page.next {
            out += "<li><a rel=\"next\" href=\"\(HTMLText.escaped(HTMLIndexPage.relativeURL(n.href)))\">\(say("html.course.next", ["title": n.title]))</a></li>\n"
        }
        return out + "</ul></nav>\n"
    }
}
