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
        /// From one line of a label to the next (12 px text).
        static let line = 14.0
        /// The notes column, right of the last rail (clear of the last party's head): where it starts, and how wide it wraps.
        static let notesLeft = 792.0
        static let notesColumns = 48
        /// The widest a drawing gets by moving its rails apart (``LadderRails``): beside the step's
        /// panel (at least 320 px) on a 1366-pixel screen, with the ladder box's border and scroll bar.
        static let widest = 960.0
        /// What the ladder's box adds to its drawing's width: its border and a vertical scroll bar.
        static let boxExtra = 20.0
    }

    func ladder(_ walk: Walkthrough, trace: Trace) -> String {
        ladder(walk, trace: trace, rails: ladderRails(walk, columns: ladderColumns(trace)))
    }

    /// The parties with a rail: the client, an attacker when there is one, the server.
    func ladderColumns(_ trace: Trace) -> [Actor] {
        trace.hasAttacker ? [.client, .attacker, .server] : [.client, .server]
    }

    func ladder(_ walk: Walkthrough, trace: Trace, rails: LadderRails) -> String {
        typealias G = LadderGeometry
        // Each row as tall as its label's lines: every y from a running offset.
        let layouts = rowLayouts(walk, rails: rails)
        var tops: [Double] = []
        var y = G.header
        for layout in layouts {
            tops.append(y)
            y += layout.height
        }
        let height = y + 8
        // The drawing widens only for a notes column some label needs.
        let width = max(rails.width, (layouts.filter(\.placement.inNotes).map(\.placement.right).max() ?? 0) + 8)
        let w = HTMLText.number(width), notes = width > rails.width
        var svg = "<figure class=\"ladder-pane\">\n<div class=\"ladder-scroll\" id=\"ladder-scroll\">\n"
        // The column heads again, held at the top of the scrolling ladder (a deep link or a late step
        // still shows whose rail is whose); drawn over the drawing's own heads, hidden from screen readers.
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ladder-heads\" aria-hidden=\"true\" "
        svg += "viewBox=\"0 0 \(w) \(HTMLText.number(G.header))\" width=\"\(w)\" height=\"\(HTMLText.number(G.header))\">"
        svg += "<rect width=\"\(w)\" height=\"\(HTMLText.number(G.header - 6))\"/>"
        svg += heads(rails, notes: notes) + "</svg>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"ladder\" role=\"group\" aria-labelledby=\"ladder-title\" "
        svg += "viewBox=\"0 0 \(w) \(HTMLText.number(height))\" width=\"\(w)\" height=\"\(HTMLText.number(height))\">\n"
        svg += "<title id=\"ladder-title\">\(say("html.ladder.title"))</title>\n"
        svg += "<defs>"
        for tone in ["tcp", "tls", "alert", "plain"] {
            svg += "<marker id=\"head-\(tone)\" class=\"tone-\(tone)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto\">"
            svg += "<path class=\"tip\" d=\"M0,0 L10,5 L0,10 z\"/></marker>"
        }
        svg += "</defs>\n"
        svg += bands(walk, trace: trace, tops: tops, bottom: y, width: width)
        // Column heads and rails.
        svg += heads(rails, notes: notes)
        for actor in rails.columns {
            let x = HTMLText.number(rails.x(actor) ?? G.client)
            svg += "<line class=\"rail\" data-actor=\"\(actor.rawValue)\" x1=\"\(x)\" y1=\"\(HTMLText.number(G.header - 6))\" x2=\"\(x)\" y2=\"\(HTMLText.number(height))\"/>\n"
        }
        for (index, step) in walk.steps.enumerated() {
            svg += ladderRow(step, number: index + 1, top: tops[index], layout: layouts[index], width: width, trace: trace, rails: rails)
        }
        svg += "</svg>\n</div>\n"
        svg += legend(walk)
        return svg + "</figure>\n"
    }

    /// The time column's and every party's head, and the notes column's when the drawing has one.
    func heads(_ rails: LadderRails, notes: Bool = false) -> String {
        var out = "<text class=\"head\" x=\"\(HTMLText.number(LadderGeometry.timeRight))\" y=\"20\" text-anchor=\"end\">\(say("html.ladder.time"))</text>\n"
        for actor in rails.columns {
            let x = HTMLText.number(rails.x(actor) ?? LadderGeometry.client)
            out += "<text class=\"head\" x=\"\(x)\" y=\"20\" text-anchor=\"middle\">\(HTMLText.escaped(party(actor)))</text>\n"
        }
        if notes { out += "<text class=\"head\" x=\"\(HTMLText.number(rails.notesLeft))\" y=\"20\">\(say("html.ladder.notes"))</text>\n" }
        return out
    }

    /// Shaded bands from each phase heading to the next; `tops` are the rows' tops, `bottom` the last row's end.
    func bands(_ walk: Walkthrough, trace: Trace, tops: [Double], bottom: Double, width: Double) -> String {
        let starts = walk.steps.indices.filter { isPhase(walk.steps[$0], trace) }
        var out = ""
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? tops[starts[n + 1]] : bottom
            out += "<rect class=\"band band-\(n % 2)\" x=\"0\" y=\"\(HTMLText.number(tops[start]))\" width=\"\(HTMLText.number(width))\" height=\"\(HTMLText.number(end - tops[start]))\"/>\n"
        }
        return out
    }

    func isPhase(_ step: Walkthrough.Step, _ trace: Trace) -> Bool {
        guard step.kind == .event, trace.events.indices.contains(step.eventIndex),
              case .phase = trace.events[step.eventIndex].kind else { return false }
        return true
    }

    /// One step's row: its arrow, dot or heading, its label (whole, on as many lines as its lane
    /// needs: an arrow's above the arrow, a dot's beside it), its time, its text alternative.
    func ladderRow(_ step: Walkthrough.Step, number: Int, top: Double, layout: RowLayout, width: Double,
                   trace: Trace, rails: LadderRails) -> String {
        typealias G = LadderGeometry
        let extra = layout.height - G.row
        let words = step.label
        let time = step.time.map(timeText)
        let mark = step.mark
        let from = mark?.from.flatMap { rails.x($0) }
        let to = mark?.to.flatMap { rails.x($0) }
        let tone = mark?.tone.rawValue ?? (isPhase(step, trace) ? "phase" : "plain")
        var alt: String
        var body = ""
        // An arrow runs below its label's lines; a dot, a heading and a note sit on their first line.
        let arrow = mark != nil && from != nil && to != nil && from != to && !layout.placement.inNotes
        var lineY = top + G.row * 0.7
        if let mark, let from, let to, let sender = mark.from, let receiver = mark.to, from != to {
            if arrow { lineY += extra }
            let end = mark.lost ? (from + to) / 2 : to - (to > from ? 3 : -3)
            body += "<line class=\"arrow\(mark.lost ? " lost" : "")\" x1=\"\(HTMLText.number(from))\" y1=\"\(HTMLText.number(lineY))\" x2=\"\(HTMLText.number(end))\" y2=\"\(HTMLText.number(lineY))\"\(mark.lost ? "" : " marker-end=\"url(#head-\(mark.tone.rawValue))\"")/>\n"
            if mark.lost {
                body += "<text class=\"cross\" x=\"\(HTMLText.number(end))\" y=\"\(HTMLText.number(lineY + 4))\" text-anchor=\"middle\">✗</text>\n"
            }
            body += label(layout.placement, top: arrow ? top + G.row * 0.45 : top + G.row * 0.7)
            let values = ["step": "\(number)", "time": time ?? "", "from": party(sender), "to": party(receiver), "text": fullLabel(step)]
            alt = explanations(mark.lost ? "html.ladder.alt.lost" : "html.ladder.alt.arrow", values) ?? words
        } else if let mark, let actor = mark.from, let x = from {
            body += "<circle class=\"dot\" cx=\"\(HTMLText.number(x))\" cy=\"\(HTMLText.number(lineY - 3))\" r=\"4\"/>\n"
            body += label(layout.placement, top: lineY)
            // A label that names its actor already ("server: CLOSED → LISTEN") is not prefixed with it again.
            alt = step.labelNamesActor
                ? explanations("html.ladder.alt.markNamed", ["step": "\(number)", "time": time ?? "", "text": words]) ?? words
                : explanations("html.ladder.alt.mark", ["step": "\(number)", "time": time ?? "", "actor": party(actor), "text": words]) ?? words
        } else {
            body += label(layout.placement, top: lineY)
            alt = explanations("html.ladder.alt.note", ["step": "\(number)", "text": words]) ?? words
        }
        // A label in the notes column: a dotted leader from the row's mark to it.
        if layout.placement.inNotes, let from {
            let start = to.map { ($0 + from) / 2 } ?? from + 6
            let y = HTMLText.number(top + G.row * 0.7 - 4)
            body += "<line class=\"leader\" x1=\"\(HTMLText.number(start))\" y1=\"\(y)\" x2=\"\(HTMLText.number(rails.notesLeft - 4))\" y2=\"\(y)\"/>\n"
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
        g += "<rect class=\"hit\" y=\"\(HTMLText.number(top))\" width=\"\(HTMLText.number(width))\" height=\"\(HTMLText.number(layout.height))\"/>\n"
        return g + body + "</g>\n"
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
