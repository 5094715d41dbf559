import Trace

/// Prints a run's document as the terminal's ladder: time on the left, rails with an arrow from
/// sender to receiver, the row's words; values and explanations under it; the column header, the
/// knowledge panel, the statistics, a lesson's header and footer. It words nothing about events:
/// the entries come from `RunDocumentBuilder`. `TextRenderer` (piped and terminal output) and the
/// walkthrough print with it.
struct LadderPrinter: CatalogueWording, Sendable {
    var width: Int
    var color: Bool
    var explanations: Explanations
    var layout: LadderLayout
    /// How ladder rows are drawn: for print, or for the interactive walkthrough (its sticky header
    /// names the time unit, its rails narrow with the screen, its detail lines carry no rails).
    var ladderStyle: LadderStyle

    init(width: Int, color: Bool = false, explanations: Explanations = .english, layout: LadderLayout = LadderLayout(),
         ladderStyle: LadderStyle = .printed) {
        self.width = width
        self.color = color
        self.explanations = explanations
        self.layout = layout
        self.ladderStyle = ladderStyle
    }

    /// The lines the terminal prints for `entry` (a row or value may hold several, joined by
    /// newlines; the caller splits and fits them to the width).
    func print(_ entry: LadderEntry) -> [String] {
        switch entry.form {
        case .row(let time, let mark, let text):
            let rails = mark.to != nil ? rails(from: mark.from, to: mark.to, lost: mark.lost) : rails(at: mark.from)
            // Whatever the attacker does is coloured as the attacker's, whatever its kind.
            let style: LadderEntry.Style = mark.from == .attacker && entry.style != .heading ? .attacker : entry.style
            return [lay(first: time + "  " + rails + "  ", text, indent: 0, style)]
        case .heading(_, let line):
            return [style(line, entry.style)]
        case .fact(let text, let indent):
            return [detailLine(text, entry.style, indent: indent)]
        case .sentence(_, let indent):
            // Worded now, in the printer's language.
            return [detailLine(entry.worded(in: explanations), entry.style, indent: indent)]
        case .paragraph(let text):
            return paragraphLines(text)
        case .line(let text):
            return [style(text, entry.style)]
        }
    }

    /// The lines the terminal prints for `entries`.
    func print(_ entries: [LadderEntry]) -> [String] { entries.flatMap(print) }

    /// The renderer's title line, wrapped to the width like every other line.
    func title(_ text: String) -> [String] {
        HexdumpRenderer(width: width).wrap(text, continuationIndent: 2).map { style($0, .heading) }
    }

    /// One output line per element, none wider than `width` columns: entries holding several
    /// lines are split, long lines wrap under their own indentation (colour kept on each piece).
    func fitToWidth(_ entry: String) -> [String] {
        entry.split(separator: "\n", omittingEmptySubsequences: false).flatMap { part -> [String] in
            let line = String(part)
            var code: String?
            var plain = line
            if color, line.hasPrefix("\u{1B}["), let m = line.firstIndex(of: "m"), line.hasSuffix("\u{1B}[0m") {
                code = String(line[line.index(line.startIndex, offsetBy: 2)..<m])
                plain = String(line[line.index(after: m)..<line.index(line.endIndex, offsetBy: -4)])
            }
            // Text a real peer sent (HTTP request target, headers, body) must not drive the terminal.
            plain = TerminalText.escaped(plain)
            guard DisplayWidth.columns(plain) > width else { return [code.map { "\u{1B}[\($0)m\(plain)\u{1B}[0m" } ?? plain] }
            let indent = plain.prefix { $0 == " " }.count
            let pieces = HexdumpRenderer(width: width).wrap(plain, continuationIndent: indent + 2)
            return pieces.map { piece in code.map { "\u{1B}[\($0)m\(piece)\u{1B}[0m" } ?? piece }
        }
    }

    /// A section heading's rule ("── Title ────").
    func rule(_ title: String) -> String { LadderEntry.rule(title, width: width) }
}
