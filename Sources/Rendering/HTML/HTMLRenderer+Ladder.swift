import Trace

/// The ladder as inline SVG: a column per party, a row per walkthrough step — an arrow from the
/// sender's column to the receiver's (stopped half-way with ✗ when the network lost it), a dot for
/// a party acting alone, a line of text for a heading — phase bands behind, the time on the left.
/// Each row carries its step number, a text alternative and, for a message, opens its bytes.
extension HTMLRenderer {
    /// Sizes of the drawing, in SVG user units (CSS pixels at scale 1).
    enum LadderGeometry {
        static let width = 780.0
        static let header = 34.0
        static let row = 24.0
        static let timeRight = 64.0
        static let client = 150.0
        static let server = 740.0
        static let attacker = 445.0
        /// Width of one character of the label font (12 px monospace: 0.6 em), for fitting labels.
        static let character = 7.3
    }

    func ladder(_ walk: Walkthrough, trace: Trace) -> String {
        typealias G = LadderGeometry
        let columns: [Actor] = trace.hasAttacker ? [.client, .attacker, .server] : [.client, .server]
        let height = G.header + Double(walk.steps.count) * G.row + 8
        var svg = "<figure class=\"ladder-pane\">\n<div class=\"ladder-scroll\" id=\"ladder-scroll\">\n"
        // The column heads again, held at the top of the scrolling ladder (a deep link or a late step
        // still shows whose rail is whose); drawn over the drawing's own heads, hidden from screen readers.
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ladder-heads\" aria-hidden=\"true\" "
        svg += "viewBox=\"0 0 \(HTMLText.number(G.width)) \(HTMLText.number(G.header))\" width=\"\(HTMLText.number(G.width))\" height=\"\(HTMLText.number(G.header))\">"
        svg += "<rect width=\"\(HTMLText.number(G.width))\" height=\"\(HTMLText.number(G.header - 6))\"/>"
        svg += heads(columns) + "</svg>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"ladder\" role=\"group\" aria-labelledby=\"ladder-title\" "
        svg += "viewBox=\"0 0 \(HTMLText.number(G.width)) \(HTMLText.number(height))\" width=\"\(HTMLText.number(G.width))\" height=\"\(HTMLText.number(height))\">\n"
        svg += "<title id=\"ladder-title\">\(say("html.ladder.title"))</title>\n"
        svg += "<defs>"
        for tone in ["tcp", "tls", "alert", "plain"] {
            svg += "<marker id=\"head-\(tone)\" class=\"tone-\(tone)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto\">"
            svg += "<path class=\"tip\" d=\"M0,0 L10,5 L0,10 z\"/></marker>"
        }
        svg += "</defs>\n"
        svg += bands(walk, trace: trace, height: height)
        // Column heads and rails.
        svg += heads(columns)
        for actor in columns {
            let x = HTMLText.number(column(actor, columns) ?? G.client)
            svg += "<line class=\"rail\" data-actor=\"\(actor.rawValue)\" x1=\"\(x)\" y1=\"\(HTMLText.number(G.header - 6))\" x2=\"\(x)\" y2=\"\(HTMLText.number(height))\"/>\n"
        }
        for (index, step) in walk.steps.enumerated() {
            svg += ladderRow(step, number: index + 1, walk: walk, trace: trace, columns: columns)
        }
        svg += "</svg>\n</div>\n"
        svg += legend(walk)
        return svg + "</figure>\n"
    }

    /// The time column's and every party's head.
    func heads(_ columns: [Actor]) -> String {
        var out = "<text class=\"head\" x=\"\(HTMLText.number(LadderGeometry.timeRight))\" y=\"20\" text-anchor=\"end\">\(say("html.ladder.time"))</text>\n"
        for actor in columns {
            let x = HTMLText.number(column(actor, columns) ?? LadderGeometry.client)
            out += "<text class=\"head\" x=\"\(x)\" y=\"20\" text-anchor=\"middle\">\(HTMLText.escaped(party(actor)))</text>\n"
        }
        return out
    }

    /// The x of a party's column; nil for a party without one (the network, an eavesdropper).
    func column(_ actor: Actor, _ columns: [Actor]) -> Double? {
        guard columns.contains(actor) else { return nil }
        switch actor {
        case .client: return LadderGeometry.client
        case .server: return LadderGeometry.server
        case .attacker: return LadderGeometry.attacker
        default: return nil
        }
    }

    /// Shaded bands from each phase heading to the next.
    func bands(_ walk: Walkthrough, trace: Trace, height: Double) -> String {
        typealias G = LadderGeometry
        let starts = walk.steps.indices.filter { isPhase(walk.steps[$0], trace) }
        var out = ""
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : walk.steps.count
            let y = G.header + Double(start) * G.row
            out += "<rect class=\"band band-\(n % 2)\" x=\"0\" y=\"\(HTMLText.number(y))\" width=\"\(HTMLText.number(G.width))\" height=\"\(HTMLText.number(Double(end - start) * G.row))\"/>\n"
        }
        return out
    }

    func isPhase(_ step: Walkthrough.Step, _ trace: Trace) -> Bool {
        guard step.kind == .event, trace.events.indices.contains(step.eventIndex),
              case .phase = trace.events[step.eventIndex].kind else { return false }
        return true
    }

    /// One step's row: its arrow, dot or heading, its label, its time, its text alternative.
    func ladderRow(_ step: Walkthrough.Step, number: Int, walk: Walkthrough, trace: Trace, columns: [Actor]) -> String {
        typealias G = LadderGeometry
        let top = G.header + Double(number - 1) * G.row
        let lineY = top + G.row * 0.7, textY = top + G.row * 0.45
        let words = step.label
        let time = step.time.map(timeText)
        let mark = step.mark
        let from = mark?.from.flatMap { column($0, columns) }
        let to = mark?.to.flatMap { column($0, columns) }
        let tone = mark?.tone.rawValue ?? (isPhase(step, trace) ? "phase" : "plain")
        var alt: String
        var body = ""
        if let mark, let from, let to, let sender = mark.from, let receiver = mark.to, from != to {
            let end = mark.lost ? (from + to) / 2 : to - (to > from ? 3 : -3)
            body += "<line class=\"arrow\(mark.lost ? " lost" : "")\" x1=\"\(HTMLText.number(from))\" y1=\"\(HTMLText.number(lineY))\" x2=\"\(HTMLText.number(end))\" y2=\"\(HTMLText.number(lineY))\"\(mark.lost ? "" : " marker-end=\"url(#head-\(mark.tone.rawValue))\"")/>\n"
            if mark.lost {
                body += "<text class=\"cross\" x=\"\(HTMLText.number(end))\" y=\"\(HTMLText.number(lineY + 4))\" text-anchor=\"middle\">✗</text>\n"
            }
            let room = Int((abs(to - from) - 12) / G.character)
            // A message's label from its typed parts: whole parts are left out to fit, never cut.
            let shown = step.labelParts.isEmpty ? fit(words, room) : arrowLabel(step.labelParts, room)
            body += label(shown, x: (from + to) / 2, y: textY, anchor: "middle")
            let full = step.labelParts.isEmpty ? words : labelText(step.labelParts)
            let values = ["step": "\(number)", "time": time ?? "", "from": party(sender), "to": party(receiver), "text": full]
            alt = explanations(mark.lost ? "html.ladder.alt.lost" : "html.ladder.alt.arrow", values) ?? words
        } else if let mark, let actor = mark.from, let x = from {
            body += "<circle class=\"dot\" cx=\"\(HTMLText.number(x))\" cy=\"\(HTMLText.number(lineY - 3))\" r=\"4\"/>\n"
            let leftward = actor == .server
            // The label stays in its lane: it stops before the next rail on its side, never crosses it.
            let rails = columns.compactMap { column($0, columns) }
            let span = leftward ? x - (rails.filter { $0 < x }.max().map { $0 + 6 } ?? G.timeRight + 16)
                                : (rails.filter { $0 > x }.min().map { $0 - 6 } ?? G.width - 4) - x
            let room = Int((span - 9) / G.character)
            body += label(fit(words, room), x: leftward ? x - 9 : x + 9, y: lineY, anchor: leftward ? "end" : "start")
            // A label that names its actor already ("server: CLOSED → LISTEN") is not prefixed with it again.
            alt = step.labelNamesActor
                ? explanations("html.ladder.alt.markNamed", ["step": "\(number)", "time": time ?? "", "text": words]) ?? words
                : explanations("html.ladder.alt.mark", ["step": "\(number)", "time": time ?? "", "actor": party(actor), "text": words]) ?? words
        } else {
            let room = Int((G.width - G.timeRight - 20) / G.character)
            body += label(fit(words, room), x: G.timeRight + 12, y: lineY, anchor: "start")
            alt = explanations("html.ladder.alt.note", ["step": "\(number)", "text": words]) ?? words
        }
        if let time {
            body += "<text class=\"time\" x=\"\(HTMLText.number(G.timeRight))\" y=\"\(HTMLText.number(lineY))\">\(HTMLText.escaped(time))</text>\n"
        }
        // A row opens its bytes: a message's, a segment's TCP header, a record's.
        let opens = step.message != nil || step.segment != nil || !step.records.isEmpty
        var g = "<g class=\"row tone-\(tone)\(opens ? " has-bytes" : "")\" id=\"row-\(number)\" data-step=\"\(number)\""
        if step.kind == .event { g += " data-event=\"\(step.eventIndex)\"" }
        // The text alternative is the row's <title> (its accessible name, and a tooltip).
        g += opens ? " role=\"button\" tabindex=\"0\">\n" : " role=\"img\">\n"
        g += "<title>\(HTMLText.escaped(alt))</title>\n"
        g += "<rect class=\"hit\" y=\"\(HTMLText.number(top))\" width=\"\(HTMLText.number(G.width))\" height=\"\(HTMLText.number(G.row))\"/>\n"
        return g + body + "</g>\n"
    }

    /// A label's parts in protocol notation: `TCP [SA] seq=1 ack=2 len=0 · ClientHello`,
    /// `TLS ClientHello (517 bytes)`; the size in the page's words.
    func labelText(_ parts: [LadderEntry.LabelPart]) -> String {
        parts.map { part -> String in
            switch part {
            case .protocolName(let name), .message(let name): return name
            case .flags(let flags): return "[\(flags)]"
            case .seq(let n): return "seq=\(n)"
            case .ack(let n): return "ack=\(n)"
            case .length(let n): return "len=\(n)"
            case .bytes(let n): return explanations.phrase("value.bytes", ["count": "\(n)"]).trimmingCharacters(in: .whitespaces)
            case .carried(let names): return "· " + names.joined(separator: ", ")
            }
        }.joined(separator: " ")
    }

    /// The label of an arrow `columns` wide: all its parts when they fit; else without the
    /// numbers (ack, then seq), then without the size and length; what it carries is cut last
    /// (between names); the protocol, flags and message name stay.
    func arrowLabel(_ parts: [LadderEntry.LabelPart], _ columns: Int) -> String {
        var kept = parts
        for dropped in [{ (p: LadderEntry.LabelPart) in if case .ack = p { true } else { false } },
                        { if case .seq = $0 { true } else { false } },
                        { if case .bytes = $0 { true } else { false } },
                        { if case .length = $0 { true } else { false } }] {
            if DisplayWidth.columns(labelText(kept)) <= columns { break }
            kept.removeAll(where: dropped)
        }
        return fit(labelText(kept), columns)
    }

    func label(_ text: String, x: Double, y: Double, anchor: String) -> String {
        // The anchor is a class (the stylesheet sets text-anchor): a long run has hundreds of labels.
        "<text class=\"label\(anchor == "start" ? "" : anchor == "middle" ? " m" : " e")\" x=\"\(HTMLText.number(x))\" y=\"\(HTMLText.number(y))\">\(HTMLText.escaped(text))</text>\n"
    }

    /// `text` cut to `columns` display columns, with … when cut: at the last place a line could
    /// break (a space, or between Chinese characters), so no value or word is cut in the middle
    /// (unless the text is one long value), without the separator left before the cut.
    func fit(_ text: String, _ columns: Int) -> String {
        let room = max(4, columns)
        guard DisplayWidth.columns(text) > room else { return text }
        let kept = Array(DisplayWidth.prefix(text, columns: room - 1))
        let all = Array(text)
        var cut = kept.count
        while cut > 0 {
            let after = all[cut]
            if after == " " || kept[cut - 1] == " " || DisplayWidth.canBreak(between: kept[cut - 1], and: after) { break }
            cut -= 1
        }
        if cut == 0 { cut = kept.count }  // one long value: cut it where the room ends
        var head = String(kept[..<cut])
        while let last = head.last, [" ", ",", "·", ":", "，", "、", "：", "—"].contains(last) { head.removeLast() }
        return head + "…"
    }

    /// What the marks mean: only those the drawing holds (no TCP items on a page without segments).
    func legend(_ walk: Walkthrough) -> String {
        let tones = Set(walk.steps.compactMap { $0.mark?.tone })
        let arrows = walk.steps.contains { $0.mark?.to != nil }
        let lost = walk.steps.contains { $0.mark?.lost == true }
        let dots = walk.steps.contains { $0.mark != nil && $0.mark?.to == nil }
        let tcp = arrows && tones.contains(.tcp)
        func item(_ tone: String?, _ swatch: String, _ key: String) -> String {
            "<li\(tone.map { " class=\"tone-\($0)\"" } ?? "")><svg class=\"swatch\" width=\"34\" height=\"14\" aria-hidden=\"true\">\(swatch)</svg> \(say(key))</li>\n"
        }
        let arrow = "<line class=\"arrow\" x1=\"2\" y1=\"7\" x2=\"27\" y2=\"7\"/><path class=\"tip\" d=\"M25,3 L32,7 L25,11 z\"/>"
        var out = "<figcaption class=\"legend\">\n<h2>\(say("html.legend.heading"))</h2>\n<ul>\n"
        if tcp { out += item("tcp", arrow, "html.legend.tcp") }
        if arrows, tones.contains(.tls) { out += item("tls", arrow, "html.legend.tls") }
        if tones.contains(.alert) { out += item("alert", arrow, "html.legend.alert") }
        if lost { out += item("alert", "<line class=\"arrow lost\" x1=\"2\" y1=\"7\" x2=\"20\" y2=\"7\"/><text class=\"cross\" x=\"17\" y=\"11\">✗</text>", "html.legend.lost") }
        if dots { out += item(nil, "<circle class=\"dot\" cx=\"17\" cy=\"7\" r=\"4\"/>", "html.legend.mark") }
        if walk.steps.contains(where: { isPhase($0, walk.trace) }) {
            out += item(nil, "<rect class=\"band band-0\" x=\"0\" y=\"0\" width=\"34\" height=\"14\"/>", "html.legend.phase")
        }
        out += item(nil, "<rect class=\"current-swatch\" x=\"0\" y=\"0\" width=\"34\" height=\"14\"/>", "html.legend.current")
        if tcp { out += "<li>\(say("html.legend.flags"))</li>\n" }
        out += "<li>\(say("html.legend.time"))</li>\n"
        return out + "</ul>\n</figcaption>\n"
    }
}
