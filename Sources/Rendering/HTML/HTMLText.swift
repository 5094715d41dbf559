/// Text made safe for an HTML document: every string that reaches the page (a peer's HTTP text, a
/// certificate subject, a lesson's description) goes through one of these.
enum HTMLText {
    /// Text content or a quoted attribute value: & < > " ' escaped; control characters other than
    /// tab and line feed shown as U+FFFD (HTML forbids them).
    static func escaped(_ text: String) -> String {
        // Printable ASCII with nothing to escape (most values and sentences) is returned as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x22 && $0 != 0x27 }) {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\r": out += "\n"
            default:
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE {
                    out += "\u{FFFD}"
                } else if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C {
                    // A bidirectional control would reorder what the page shows ("gnp.exe" as "exe.png"):
                    // shown as its code point instead.
                    out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Text inside a `<script type="application/…">` data block: every `<` written as the JSON
    /// escape `\u003c`, so no `</script>` or `<!--` inside a value can end or change the block
    /// (`<` only occurs inside JSON strings, where the escape means the same character).
    static func scriptData(_ text: String) -> String {
        text.replacing("<", with: "\\u003c")
    }

    /// An element with escaped text content and attributes (names are the renderer's own).
    static func element(_ name: String, _ attributes: [(String, String)] = [], text: String) -> String {
        "<\(name)\(attributeList(attributes))>\(escaped(text))</\(name)>"
    }

    static func attributeList(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined()
    }

    /// A number for SVG coordinates: whole numbers without a fraction, else one decimal.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
