import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The ladder canvas: column headers, rails, arrows, indented detail, wrapping and styles (the
/// walkthrough prints its ladder with it too).
extension LadderPrinter {
    /// The heading of the time column: "time", or in the walkthrough the unit its times are in.
    var timeHeading: String { ladderStyle == .walkthrough ? say("walk.timeUnit") : say("ladder.time") }

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

    /// A line under an entry: blank time, plain rails, then the text.
    func detailLine(_ text: String, _ s: LadderEntry.Style = .plain, indent: Int = 0) -> String {
        // The walkthrough shows detail below the ladder and wraps it to the screen itself.
        if ladderStyle == .walkthrough { return style(String(repeating: " ", count: indent) + text, s) }
        let first = String(repeating: " ", count: layout.timeWidth) + "  " + rails() + "  "
        return lay(first: first, text, indent: indent, s)
    }

    func lay(first: String, _ text: String, indent: Int, _ s: LadderEntry.Style) -> String {
        let continuation = String(repeating: " ", count: layout.timeWidth) + "  " + rails() + "  "
        let textWidth = max(20, width - DisplayWidth.columns(first))
        let pieces = Self.wrapWords(text, width: textWidth, indent: indent)
        return pieces.enumerated().map { i, piece in
            style(((i == 0 ? first : continuation) + piece).trimmingTrailingSpaces(), s)
        }.joined(separator: "\n")
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
                    let cut = DisplayWidth.cutAvoidingPunctuation(piece, at: max(1, DisplayWidth.fittingCount(piece, room)))
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

    /// A full-width paragraph's lines.
    func paragraphLines(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        let indent = "            "
        return HexdumpRenderer(width: width).wrap(indent + text, continuationIndent: indent.count).map { style($0, .explanation) }
    }

    func style(_ text: String, _ s: LadderEntry.Style) -> String {
        guard color else { return text }
        let code: String
        switch s {
        case .plain: return text
        case .heading: code = "1"
        case .tcp: code = "36"
        case .tls: code = "32"
        case .alert: code = "31"
        case .attacker: code = "35"
        case .explanation: code = "2"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
