/// Text from a peer made safe to print on a terminal or in a log line.
///
/// A real peer controls the bytes of an HTTP request target, header or body, a certificate's
/// subject, a GOAWAY's debug data… Printed raw, ESC and the C1 controls drive the terminal (move the
/// cursor, retitle the window, rewrite earlier lines), BEL rings, CR overwrites a log line, and a
/// newline forges a second one. Every such character is shown as a visible escape instead:
/// C0 controls and DEL as `\xNN`, C1 controls and the bidirectional controls (which reorder what
/// is shown) as `\u{NNNN}`, bytes that are not UTF-8 as `\xNN`. The bidirectional marks (U+200E,
/// U+200F) and the Unicode line and paragraph separators (U+2028, U+2029) count as controls too.
/// Printable text, including non-ASCII letters, is kept.
public enum TerminalText {
    private enum Piece {
        case scalar(Unicode.Scalar)
        case invalid(UInt8)
    }

    /// `text` with every control character escaped. With `keepingLineBreaks`, LF and CR LF stay
    /// line breaks (as LF) — for a multi-line body printed on its own — and a lone CR is escaped.
    public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        return render(text.unicodeScalars.map(Piece.scalar), keepingLineBreaks: keepingLineBreaks)
    }

    /// Bytes from the peer as text: valid UTF-8 decoded, every other byte shown as `\xNN`, then
    /// escaped as ``escaped(_:keepingLineBreaks:)`` does.
    public static func escaped(bytes: some Collection<UInt8>, keepingLineBreaks: Bool = false) -> String {
        var pieces: [Piece] = []
        var rest = Array(bytes)[...]
        while let first = rest.first {
            var iterator = rest.makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let s) = decoder.decode(&iterator) {
                pieces.append(.scalar(s))
                rest = rest.dropFirst(UTF8.width(s))
            } else {
                pieces.append(.invalid(first))
                rest = rest.dropFirst()
            }
        }
        return render(pieces, keepingLineBreaks: keepingLineBreaks)
    }

    private static func render(_ pieces: [Piece], keepingLineBreaks: Bool) -> String {
        var out = ""
        var i = 0
        while i < pieces.count {
            defer { i += 1 }
            switch pieces[i] {
            case .invalid(let b):
                out += "\\x" + hexDigits(b)
            case .scalar(let s):
                if keepingLineBreaks {
                    if s == "\n" { out.append("\n"); continue }
                    if s == "\r", i + 1 < pieces.count, case .scalar("\n") = pieces[i + 1] { out.append("\n"); i += 1; continue }
                }
                if needsEscape(s) {
                    out += s.value < 0x80 ? "\\x" + hexDigits(UInt8(s.value)) : "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out
    }

    /// The scalars shown escaped: C0, DEL, C1, the bidirectional controls and the line separators
    /// (the JSON writer escapes the same ones as `\uNNNN`).
    public static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F: return true
        case 0x202A ... 0x202E, 0x2066 ... 0x2069: return true  // bidirectional embeddings, overrides, isolates
        case 0x200E, 0x200F: return true  // left-to-right and right-to-left marks
        case 0x2028, 0x2029: return true  // line and paragraph separators
        default: return false
        }
    }

    static func hexDigits(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }
}
