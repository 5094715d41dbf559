/// The typography rules of the Chinese text (docs/review-zh.md) that a program can check: the
/// catalogue's zh values and the lessons' title_zh / description_zh / try_next_zh follow them.
///
/// - a Chinese sentence uses full-width punctuation: no `,` `.` `;` `:` `!` `?` right after a Han
///   character (formulas such as `Hash(握手消息, {bytes} 字节)` keep their ASCII argument lists);
/// - one space between Chinese and Latin letters or digits (`使用 RSA 密钥`, `48 字节`), as the README does;
/// - no space before a full-width mark (`，。：；、！？）`) or after `（`;
/// - a Chinese dash —— takes no space on either side;
/// - no straight quote `"` beside a Han character: Chinese text quotes with “ ”.
public enum ChineseTypography {
    public struct Problem: CustomStringConvertible, Sendable, Equatable {
        public var rule: String
        public var excerpt: String
        public var description: String { "\(rule): «\(excerpt)»" }
    }

    public static func isHan(_ c: Character) -> Bool {
        guard let s = c.unicodeScalars.first else { return false }
        switch s.value {
        case 0x3400 ... 0x4DBF, 0x4E00 ... 0x9FFF, 0xF900 ... 0xFAFF, 0x20000 ... 0x3FFFF: return true
        default: return false
        }
    }

    static func isLatinOrDigit(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber) }

    static let halfWidthStops: Set<Character> = [",", ".", ";", ":", "!", "?"]
    static let fullWidthClosers: Set<Character> = ["，", "。", "：", "；", "、", "！", "？", "）"]

    /// `text` with the argument lists of formulas (`Name(…)`, nested) emptied: `PRF(master, "x", Hash(…))` → `PRF()`.
    public static func withoutFormulas(_ text: String) -> String {
        let chars = Array(text)
        var out: [Character] = []
        var i = 0
        while i < chars.count {
            if chars[i] == "(", i > 0, isLatinOrDigit(chars[i - 1]) {
                var depth = 0
                var j = i
                while j < chars.count {
                    if chars[j] == "(" { depth += 1 }
                    if chars[j] == ")" { depth -= 1; if depth == 0 { break } }
                    j += 1
                }
                out += ["(", ")"]
                i = j + 1
                continue
            }
            out.append(chars[i])
            i += 1
        }
        return String(out)
    }

    /// Every place `text` breaks a rule.
    public static func problems(in text: String) -> [Problem] {
        let chars = Array(withoutFormulas(text))
        var found: [Problem] = []
        func excerpt(_ at: Int) -> String { String(chars[max(0, at - 8) ..< min(chars.count, at + 9)]) }
        for i in chars.indices.dropLast() {
            let a = chars[i], b = chars[i + 1]
            if isHan(a), halfWidthStops.contains(b) {
                found.append(Problem(rule: "half-width '\(b)' after a Chinese character", excerpt: excerpt(i)))
            }
            if (isHan(a) && isLatinOrDigit(b)) || (isLatinOrDigit(a) && isHan(b)) {
                found.append(Problem(rule: "no space between Chinese and Latin/digits", excerpt: excerpt(i)))
            }
            if a == " ", fullWidthClosers.contains(b) {
                found.append(Problem(rule: "space before '\(b)'", excerpt: excerpt(i)))
            }
            if a == " ", b == "—", i + 2 < chars.count, chars[i + 2] == "—" {
                found.append(Problem(rule: "space before a Chinese dash '——'", excerpt: excerpt(i)))
            }
            if a == "—", b == " ", i > 0, chars[i - 1] == "—" {
                found.append(Problem(rule: "space after a Chinese dash '——'", excerpt: excerpt(i)))
            }
            if a == "（", b == " " {
                found.append(Problem(rule: "space after '（'", excerpt: excerpt(i)))
            }
            if (a == "\"" && isHan(b)) || (isHan(a) && b == "\"") {
                found.append(Problem(rule: "straight quote beside Chinese (use “ ”)", excerpt: excerpt(i)))
            }
        }
        return found
    }
}
