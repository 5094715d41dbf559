import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The ladder canvas: column headers, rails, arrows, rows, indented detail, wrapping and styles (the walkthrough draws on it too).
extension TextRenderer {
    /// Who sends to whom, in words beside the graphic ("client ──▶ server", "client ◀── server"),
    /// the left name being the left column: with three columns the graphic alone is easy to misread.
    func arrow(_ from: Actor, _ to: Actor) -> String {
        func column(_ a: Actor) -> Int {
            switch a {
            case .client: return 0
            case .attacker, .eavesdropper, .network: return 1
            case .server: return 2
            }
        }
        guard from != to else { return name(from) }
        // The walkthrough's sticky header names the columns above the arrow.
        if ladderStyle == .walkthrough { return "" }
        return column(from) <= column(to) ? "\(name(from)) ──▶ \(name(to))" : "\(name(to)) ◀── \(name(from))"
    }

    /// The time column, right-aligned to the widest time of the trace.
    func time(_ micros: Int64) -> String {
        DisplayWidth.leftPadded(Self.timeText(micros, unit: ladderStyle == .printed), to: layout.timeWidth)
    }

    /// Milliseconds with one decimal, rounded to the nearest tenth ("0.9ms" for 882 µs, "160.9ms" for
    /// 160.882 ms; a half rounds up); without the unit where a header names it.
    static func timeText(_ micros: Int64, unit: Bool = true) -> String {
        let tenths = (micros.magnitude + 50) / 100
        return (micros < 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)" + (unit ? "ms" : "")
    }

    /// The heading of the time column: "time", or in the walkthrough the unit its times are in.
    var timeHeading: String { ladderStyle == .walkthrough ? (explanations("walk.timeUnit") ?? "ms") : say("ladder.time") }

    // MARK: Ladder rows

    /// The names above the columns, placed by display width (a Chinese name takes two columns a character).
    func columnHeader() -> [String] {
        var names = ""
        for actor in layout.columns {
            guard let position = layout.position(actor) else { continue }
            let label = name(actor)
            let labelWidth = DisplayWidth.columns(label)
            let start = actor == .client ? 0 : actor == .server ? layout.ladderWidth - labelWidth : max(0, position - labelWidth / 2)
            // A name never overwrites the one before it: it starts one column after at the earliest.
            let used = DisplayWidth.columns(names)
            names += String(repeating: " ", count: max(used == 0 ? 0 : 1, start - used)) + label
        }
        let head = DisplayWidth.leftPadded(timeHeading, to: layout.timeWidth) + "  " + names
        return [style(head.trimmingTrailingSpaces(), .heading)]
    }

    /// The ladder graphic: a rail per column, an arrow from one column to another (broken off
    /// with ✗ when the network lost it), or a dot on the column of the actor acting alone.
    func rails(from: Actor? = nil, to: Actor? = nil, at: Actor? = nil, lost: Bool = false) -> String {
        var chars = Array(repeating: Character(" "), count: layout.ladderWidth)
        for actor in layout.columns { if let p = layout.position(actor) { chars[p] = "│" } }
        if let from, let to, let a = layout.position(from), let b = layout.position(to), a != b {
            let step = a < b ? 1 : -1
            let end = lost ? a + (b - a) / 2 : b
            var i = a + step
            while i != end {
                chars[i] = chars[i] == "│" ? "┼" : "─"
                i += step
            }
            chars[a] = a < b ? "├" : "┤"
            if lost {
                chars[end] = "✗"
            } else {
                chars[end - step] = a < b ? "▶" : "◀"
            }
        } else if let at, let p = layout.position(at) {
            chars[p] = "●"
        }
        return String(chars)
    }

    /// One ladder entry: time, the graphic, the text (wrapped in its own column, rails continuing
    /// when printed): an arrow from `from` to `to` (broken off when `lost`), or a mark on `at`'s column.
    func row(_ t: String, from: Actor? = nil, to: Actor? = nil, at: Actor? = nil, lost: Bool = false,
             _ text: String, _ s: Style = .plain) -> LadderEntry {
        let tone: LadderMark.Tone = switch s {
        case .tcp: .tcp
        case .tls: .tls
        case .alert: .alert
        default: .plain
        }
        let mark = from != nil && to != nil ? LadderMark(from: from, to: to, lost: lost, tone: tone) : LadderMark(from: at, to: nil, tone: tone)
        return LadderEntry(.row(time: t, mark: mark, text: text), s)
    }

    /// A value under an entry (printed: blank time, plain rails, then the text).
    func detail(_ text: String, _ s: Style = .plain, indent: Int = 0) -> LadderEntry {
        LadderEntry(s == .explanation ? .sentence(text, indent: indent) : .fact(text, indent: indent), s)
    }

    /// A line under an entry: blank time, plain rails, then the text.
    func detailLine(_ text: String, _ s: Style = .plain, indent: Int = 0) -> String {
        // The walkthrough shows detail below the ladder and wraps it to the screen itself.
        if ladderStyle == .walkthrough { return style(String(repeating: " ", count: indent) + text, s) }
        let first = String(repeating: " ", count: layout.timeWidth) + "  " + rails() + "  "
        return lay(first: first, text, indent: indent, s)
    }

    func lay(first: String, _ text: String, indent: Int, _ s: Style) -> String {
        let continuation = String(repeating: " ", count: layout.timeWidth) + "  " + rails() + "  "
        let textWidth = max(20, width - DisplayWidth.columns(first))
        let pieces = Self.wrapWords(text, width: textWidth, indent: indent)
        return pieces.enumerated().map { i, piece in
            style(((i == 0 ? first : continuation) + piece).trimmingTrailingSpaces(), s)
        }.joined(separator: "\n")
    }

    func short(_ bytes: [UInt8], sized: Bool = true) -> String {
        bytes.count <= 16 || fullValues ? Hex.string(bytes)
            : Hex.string(bytes.prefix(8)) + "…" + Hex.string(bytes.suffix(4)) + (sized ? say("value.bytes", ["count": "\(bytes.count)"]) : "")
    }

    /// The first line of an HTTP/1.x message; for an HTTP/2 one (`http2`, from the trace's phase:
    /// its fields as `name: value` lines, pseudo-headers first) the request as method and URI
    /// (`GET https://example.com/a`), the response as its status.
    func firstLine(_ s: String, http2: Bool) -> String {
        let lines = s.split(separator: "\r\n")
        guard http2 else { return String(lines.first ?? "") }
        var pseudo: [String: String] = [:]
        for line in lines.prefix(while: { $0.hasPrefix(":") }) {
            guard let colon = line.dropFirst().firstIndex(of: ":") else { continue }
            pseudo[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if let method = pseudo[":method"] {
            return "\(method) \(pseudo[":scheme"] ?? "https")://\(pseudo[":authority"] ?? "")\(pseudo[":path"] ?? "")"
        }
        return pseudo[":status"].map { say("ladder.http.status", ["status": $0]) } ?? lines.prefix(while: { $0.hasPrefix(":") }).joined(separator: " ")
    }

    /// A section heading: "── Title ────", as wide as 65 columns or the screen if narrower.
    func rule(_ title: String) -> String {
        let head = "── \(title) "
        return head + String(repeating: "─", count: max(3, min(65, width) - DisplayWidth.columns(head)))
    }

    /// Words of `text` in lines of at most `width` display columns, each starting with `indent` spaces;
    /// Chinese text, which has no spaces, breaks between its characters (``DisplayWidth/breakablePieces(_:)``);
    /// a word longer than a line (a hex value) is cut where the line ends.
    /// `text` split at its spaces, except a space that holds a reference together ("RFC 5246 §7.4.1"):
    /// such a reference is one word.
    static func wordsKeepingReferences(_ text: String) -> [Substring] {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard text.contains("RFC") else { return words }
        let characters = Array(text)
        var out: [Substring] = []
        var offset = 0  // the character offset of the space after the current word
        for word in words {
            defer { offset += word.count + 1 }
            let spaceBefore = offset - 1
            if let last = out.last, !last.isEmpty, !word.isEmpty, DisplayWidth.joinsReference(characters, at: spaceBefore) {
                out[out.count - 1] = text[last.startIndex..<word.endIndex]
            } else {
                out.append(word)
            }
        }
        return out
    }

    static func wrapWords(_ text: String, width: Int, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let room = max(8, width - indent)
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        // Empty pieces are the extra spaces of a run ("server  TLS"): kept inside a line.
        for word in Self.wordsKeepingReferences(text) {
            if word.isEmpty {
                if !line.isEmpty, lineWidth + 1 < room { line += " "; lineWidth += 1 }
                continue
            }
            for (index, piece) in DisplayWidth.breakablePieces(word).enumerated() {
                var piece = piece
                var pieceWidth = DisplayWidth.columns(piece)
                // The first piece follows a space; the others join the previous piece directly.
                let gap = index == 0 ? 1 : 0
                if !line.isEmpty, lineWidth + gap + pieceWidth <= room {
                    line += (gap == 1 ? " " : "") + piece
                    lineWidth += gap + pieceWidth
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                while pieceWidth > room {
                    let cut = max(1, DisplayWidth.fittingCount(piece, room))
                    lines.append(String(piece.prefix(cut)))
                    piece = piece.dropFirst(cut)
                    pieceWidth = DisplayWidth.columns(piece)
                }
                line = String(piece)
                lineWidth = pieceWidth
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines.map { pad + $0 }
    }

    /// An explanation under a ladder entry (rails continue beside it).
    func explain(_ text: String) -> [LadderEntry] {
        guard !text.isEmpty else { return [] }
        return [detail(text, .explanation, indent: 2)]
    }

    /// An explanation in a full-width section (outcome, knowledge panel).
    func paragraph(_ text: String) -> [LadderEntry] {
        guard !text.isEmpty else { return [] }
        return [LadderEntry(.paragraph(text), .explanation)]
    }

    /// A full-width paragraph's lines.
    func paragraphLines(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        let indent = "            "
        return HexdumpRenderer(width: width).wrap(indent + text, continuationIndent: indent.count).map { style($0, .explanation) }
    }

    enum Style { case heading, tcp, tls, alert, explanation, plain }

    func style(_ text: String, _ s: Style) -> String {
        guard color else { return text }
        let code: String
        switch s {
        case .plain: return text
        case .heading: code = "1"
        case .tcp: code = "36"
        case .tls: code = "32"
        case .alert: code = "31"
        case .explanation: code = "2"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
