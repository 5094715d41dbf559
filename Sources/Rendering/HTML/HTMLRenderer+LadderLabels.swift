import Trace

/// Where a ladder row's words go on the page: whole, never cut. A label wraps onto as many lines as
/// it needs inside its lane — between the sender's and the receiver's rails for an arrow, between a
/// dot's rail and the next one on its side for a dot — with the typesetting wrapper every surface
/// uses (`DisplayWidth.wrap`: at spaces and where Chinese may break, no line starting with closing
/// punctuation). An arrow that passes a third party's rail (a recorder's, which only watches) has
/// its label beside its start, before that rail. A label holding a value too wide for its lane (one the wrapper would have to cut)
/// is written whole in a notes column right of the last rail instead. The row grows by a line
/// height for each extra line; every y below it follows.
extension HTMLRenderer {
    /// A row's label laid out: its lines, where they are anchored, the lane they stay in.
    struct LabelPlacement: Equatable {
        enum Anchor: String { case start, middle, end }
        var lines: [String]
        var x: Double
        var anchor: Anchor
        /// The lane's edges (drawing units): no line may reach past them.
        var left: Double, right: Double
        /// True when the label is in the notes column, not beside its arrow or dot.
        var inNotes = false

        /// True when every line, as wide as its display columns, lies between the lane's edges.
        var staysInLane: Bool {
            lines.allSatisfy { line in
                let w = Double(DisplayWidth.columns(line)) * LadderGeometry.character
                let (l, r) = anchor == .start ? (x, x + w) : anchor == .end ? (x - w, x) : (x - w / 2, x + w / 2)
                return l >= left - 0.01 && r <= right + 0.01
            }
        }
    }

    /// A row's shape: its label, and how tall it is.
    struct RowLayout {
        var placement: LabelPlacement
        var height: Double { LadderGeometry.row + Double(max(1, placement.lines.count) - 1) * LadderGeometry.line }
    }

    /// `text` on lines of at most `columns` display columns, broken only where a line may break (a
    /// space, or between Chinese characters by the Chinese rules): nil when a value in it is wider
    /// than `columns`, since the wrapper would have to cut it in the middle.
    static func labelLines(_ text: String, columns: Int) -> [String]? {
        guard columns >= 8 else { return nil }
        let lines = DisplayWidth.wrap(text, width: columns, indent: 0)
        guard lines.allSatisfy({ DisplayWidth.columns($0) <= columns }), joinsBack(lines, into: text) else { return nil }
        return lines
    }

    /// True when `lines`, joined again with the spaces the wrapper dropped at their ends, give `text`
    /// exactly (nothing left out, cut or repeated), and every line break without a space is one
    /// ``DisplayWidth/canBreak(between:and:)`` allows (between Chinese characters, never before
    /// closing punctuation) — so never inside a number, a hex value or a word.
    static func joinsBack(_ lines: [String], into text: String) -> Bool {
        var rest = Substring(text)
        var previous: Character?
        for (index, line) in lines.enumerated() {
            if index > 0 {
                let spaces = rest.prefix(while: { $0 == " " }).count
                rest = rest.dropFirst(spaces)
                if spaces == 0 {
                    guard let before = previous, let after = line.first, DisplayWidth.canBreak(between: before, and: after) else { return false }
                }
            }
            guard rest.hasPrefix(line) else { return false }
            rest = rest.dropFirst(line.count)
            previous = line.last
        }
        return rest.isEmpty
    }

    /// Every row's layout: the label of each step in its lane, whole. The notes column is used only
    /// by a label that cannot wrap inside its lane.
    func rowLayouts(_ walk: Walkthrough, rails: LadderRails) -> [RowLayout] {
        walk.steps.map { RowLayout(placement: placement($0, rails: rails)) }
    }

    /// The words a row shows: a message's label from its typed parts, anything else its label.
    func fullLabel(_ step: Walkthrough.Step) -> String {
        step.labelParts.isEmpty || !(step.mark.map { $0.to != nil } ?? false) ? step.label : labelText(step.labelParts)
    }

    /// Where `step`'s label goes in the standard drawing.
    func placement(_ step: Walkthrough.Step, columns: [Actor]) -> LabelPlacement {
        placement(step, rails: .standard(columns))
    }

    /// Where `step`'s label goes between `rails`.
    func placement(_ step: Walkthrough.Step, rails railsOfDrawing: LadderRails) -> LabelPlacement {
        typealias G = LadderGeometry
        let words = fullLabel(step)
        let mark = step.mark
        let from = mark?.from.flatMap { railsOfDrawing.x($0) }
        let to = mark?.to.flatMap { railsOfDrawing.x($0) }
        var lane: LabelPlacement
        if let mark, let from, let to, mark.to != nil, from != to {
            // An arrow's label: centred between the sender's rail and the next one towards the receiver
            // (the receiver's, unless the arrow passes a party that only watches), 6 units clear of each.
            let rails = railsOfDrawing.xs
            let next = to > from ? rails.filter { $0 > from && $0 <= to }.min() ?? to : rails.filter { $0 < from && $0 >= to }.max() ?? to
            lane = LabelPlacement(lines: [], x: (from + next) / 2, anchor: .middle, left: min(from, next) + 6, right: max(from, next) - 6)
        } else if let mark, let actor = mark.from, let x = from {
            // A dot's label: towards the nearer side's next rail (the server's to its left), stopping before it.
            let rails = railsOfDrawing.xs
            if actor == .server {
                let stop = rails.filter { $0 < x }.max().map { $0 + 6 } ?? G.timeRight + 16
                lane = LabelPlacement(lines: [], x: x - 9, anchor: .end, left: stop, right: x - 9)
            } else {
                let stop = rails.filter { $0 > x }.min().map { $0 - 6 } ?? railsOfDrawing.width - 4
                lane = LabelPlacement(lines: [], x: x + 9, anchor: .start, left: x + 9, right: stop)
            }
        } else {
            // A heading or a line beside no party: across the drawing, right of the time column.
            lane = LabelPlacement(lines: [], x: G.timeRight + 12, anchor: .start, left: G.timeRight + 12, right: railsOfDrawing.width - 8)
        }
        if let lines = Self.labelLines(words, columns: Self.columns(lane.right - lane.left)) {
            lane.lines = lines
            return lane
        }
        return notes(words, left: railsOfDrawing.notesLeft)
    }

    /// `text` in the notes column, right of the last rail: wrapped to the column's width, a value
    /// wider than the column on a line of its own (the column widens the drawing to hold it).
    func notes(_ text: String, left: Double = LadderGeometry.notesLeft) -> LabelPlacement {
        typealias G = LadderGeometry
        let columns = max(G.notesColumns, Self.widestPiece(text))
        let lines = Self.labelLines(text, columns: columns) ?? [text]
        let right = left + Double(lines.map { DisplayWidth.columns($0) }.max() ?? 0) * G.character
        return LabelPlacement(lines: lines, x: left, anchor: .start, left: left, right: right, inNotes: true)
    }

    /// How many display columns of label text fit in `width` drawing units.
    static func columns(_ width: Double) -> Int { Int(width / LadderGeometry.character) }

    /// A label's lines as SVG text: one line as it is, several as a line (`tspan`) each, `top` the
    /// first line's baseline.
    func label(_ placement: LabelPlacement, top: Double) -> String {
        let anchor = placement.anchor
        // The anchor is a class (the stylesheet sets text-anchor): a long run has hundreds of labels.
        let cls = "label\(anchor == .start ? "" : anchor == .middle ? " m" : " e")\(placement.inNotes ? " note-label" : "")"
        let x = HTMLText.number(placement.x)
        guard placement.lines.count > 1 else {
            return "<text class=\"\(cls)\" x=\"\(x)\" y=\"\(HTMLText.number(top))\">\(HTMLText.escaped(placement.lines.first ?? ""))</text>\n"
        }
        var out = "<text class=\"\(cls)\" x=\"\(x)\" y=\"\(HTMLText.number(top))\">"
        for (n, line) in placement.lines.enumerated() {
            out += "<tspan x=\"\(x)\" y=\"\(HTMLText.number(top + Double(n) * LadderGeometry.line))\">\(HTMLText.escaped(line))</tspan>"
        }
        return out + "</text>\n"
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
}
