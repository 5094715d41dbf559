/// Text width in terminal display columns (Unicode Standard Annex #11, East Asian Width): wide (W)
/// and fullwidth (F) characters — CJK ideographs, kana, Hangul, fullwidth punctuation such as
/// `，。：（）` — take two columns; combining and other zero-width characters none; everything else
/// one (ambiguous characters such as `─ │ ▶ …` count one, as terminals outside a CJK legacy locale
/// draw them). Every place that pads, wraps or cuts text for the terminal measures with this,
/// never with `String.count`.
public enum DisplayWidth {
    public static func columns(_ text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    public static func columns(_ c: Character) -> Int {
        c.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    public static func columns(_ characters: some Sequence<Character>) -> Int {
        characters.reduce(0) { $0 + columns($1) }
    }

    public static func columns(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        // ASCII has no mark or format character: one column each, NUL none (the rule below, without
        // looking up a general category for the commonest case).
        if v < 0x7F { return v == 0 ? 0 : 1 }
        if isZeroWidth(s) { return 0 }
        return isWide(v) ? 2 : 1
    }

    /// True for East Asian Width W or F.
    public static func isWide(_ v: UInt32) -> Bool {
        guard v >= 0x1100 else { return false }
        var low = 0, high = wide.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if v < wide[mid].lowerBound { high = mid - 1 } else if v > wide[mid].upperBound { low = mid + 1 } else { return true }
        }
        return false
    }

    static func isZeroWidth(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        case .format: return v != 0x00AD      // ZWSP, ZWJ, bidi marks, BOM; the soft hyphen shows
        default: break
        }
        return v == 0 || (0x1160...0x11FF).contains(v) || (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v)
    }

    /// The W and F ranges of EastAsianWidth.txt (Unicode 15), merged where adjacent.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x303E, 0x3041...0x3096, 0x3099...0x30FF,
        0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E3, 0x31EF...0x321E, 0x3220...0x3247, 0x3250...0x4DBF,
        0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08,
        0x1AFF0...0x1AFFE, 0x1B000...0x1B122, 0x1B132...0x1B132, 0x1B150...0x1B152, 0x1B155...0x1B155,
        0x1B164...0x1B167, 0x1B170...0x1B2FB, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393,
        0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E,
        0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567,
        0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5,
        0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC,
        0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945,
        0x1F947...0x1F9FF, 0x1FA70...0x1FA7C, 0x1FA80...0x1FA88, 0x1FA90...0x1FABD, 0x1FABF...0x1FAC5,
        0x1FACE...0x1FADB, 0x1FAE0...0x1FAE8, 0x1FAF0...0x1FAF8, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// `text` followed by spaces up to `width` display columns (nothing cut).
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }

    /// Spaces up to `width` display columns, then `text` (right-aligned; nothing cut).
    public static func leftPadded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - columns(text))) + text
    }

    /// How many of `characters`, from the start, fit in `width` columns.
    public static func fittingCount(_ characters: some Collection<Character>, _ width: Int) -> Int {
        var used = 0, count = 0
        for c in characters {
            used += columns(c)
            if used > width { break }
            count += 1
        }
        return count
    }

    /// The longest start of `text` that fits in `width` columns.
    public static func prefix(_ text: String, columns width: Int) -> String {
        String(text.prefix(fittingCount(text, width)))
    }

    /// `text` cut to `width` columns with `…` when it is wider.
    public static func truncated(_ text: String, to width: Int) -> String {
        columns(text) <= width ? text : prefix(text, columns: max(0, width - 1)) + "…"
    }

    /// `text` wrapped to `width` columns, every line indented by `indent`: the wrapper every surface
    /// uses (spaces, CJK break opportunities, references such as "RFC 5246 §7.4.1" kept whole, and
    /// the Chinese line-breaking rules of ``canBreak(between:and:)``).
    public static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
        LadderPrinter.wrapWords(text, width: width, indent: indent)
    }

    // MARK: Line breaks between CJK characters

    /// True when a line may break between `before` and `after` although no space separates them:
    /// next to a wide character (Chinese has no spaces between words), except before closing
    /// punctuation (`，。、；：）」` and ASCII `,.;:!?)`) and after opening punctuation (`（「“`) —
    /// the line-breaking rules of Chinese typesetting (W3C clreq §3.1.7).
    public static func canBreak(between before: Character, and after: Character) -> Bool {
        guard let b = before.unicodeScalars.first, let a = after.unicodeScalars.first else { return false }
        guard isWide(b.value) || isWide(a.value) else { return false }
        if noBreakBefore.contains(after) || noBreakAfter.contains(before) { return false }
        return true
    }

    static let noBreakBefore: Set<Character> = [
        "，", "。", "、", "；", "：", "！", "？", "）", "」", "』", "】", "》", "〉", "”", "’", "…", "—", "·", "］", "｝", "〕", "〗",
        ",", ".", ";", ":", "!", "?", ")", "]", "}", "%", "\"", "'", "”", "’",
    ]
    static let noBreakAfter: Set<Character> = ["（", "「", "『", "【", "《", "〈", "“", "‘", "［", "〔", "〖", "(", "[", "{", "\"", "'"]

    /// Chinese punctuation no line may start with (W3C clreq §3.1.7, 行首禁则).
    public static let closingPunctuation: Set<Character> = ["，", "。", "、", "；", "：", "？", "！", "）", "》", "」", "』", "］", "】", "〉", "”", "’", "…"]
    /// Chinese punctuation no line may end with (行尾禁则).
    public static let openingPunctuation: Set<Character> = ["（", "《", "「", "『", "［", "【", "〈", "“", "‘"]

    /// Where a word too long for its line (a 64-digit hex value followed by "，选定：") is cut: at `cut`,
    /// or a few characters earlier so that the next line does not start with closing punctuation and
    /// this one does not end with opening punctuation. `characters[..<cut]` fits; the result is ≥ 1.
    public static func cutAvoidingPunctuation(_ characters: some Collection<Character>, at cut: Int) -> Int {
        let c = Array(characters)
        guard cut > 0, cut < c.count else { return cut }
        var at = cut
        while at > 1, closingPunctuation.contains(c[at]) || openingPunctuation.contains(c[at - 1]) { at -= 1 }
        return at > 1 || !(closingPunctuation.contains(c[at]) || openingPunctuation.contains(c[at - 1])) ? at : cut
    }

    /// Whether the space at `index` of `text` holds a reference together, so that no line breaks
    /// there: "RFC" and its number ("RFC 5246"), and that number and the section after it
    /// ("RFC 5246 §7.4.1"), in either language.
    public static func joinsReference(_ text: [Character], at index: Int) -> Bool {
        guard text.indices.contains(index), text[index] == " ", index + 1 < text.count else { return false }
        /// The run of non-space characters that ends just before `end`.
        func token(before end: Int) -> ArraySlice<Character> {
            var start = end
            while start > 0, text[start - 1] != " " { start -= 1 }
            return text[start..<end]
        }
        func isRFC(_ t: ArraySlice<Character>) -> Bool {
            guard t.count >= 3, String(t.suffix(3)) == "RFC" else { return false }
            let before = t.dropLast(3).last
            return before.map { !($0.isASCII && ($0.isLetter || $0.isNumber)) } ?? true
        }
        let previous = token(before: index), next = text[index + 1]
        if next.isASCII, next.isNumber { return isRFC(previous) }
        if next == "§", !previous.isEmpty, previous.allSatisfy({ $0.isASCII && $0.isNumber }) {
            let start = index - previous.count
            return start >= 2 && text[start - 1] == " " && isRFC(token(before: start - 1))
        }
        return false
    }

    /// `word` (no spaces) in pieces that may each start a new line: split where
    /// ``canBreak(between:and:)`` allows. An ASCII word is one piece.
    public static func breakablePieces(_ word: Substring) -> [Substring] {
        var pieces: [Substring] = []
        var start = word.startIndex
        var previous: Character?
        var i = word.startIndex
        while i < word.endIndex {
            let c = word[i]
            if let p = previous, canBreak(between: p, and: c) {
                pieces.append(word[start..<i])
                start = i
            }
            previous = c
            i = word.index(after: i)
        }
        if start < word.endIndex || pieces.isEmpty { pieces.append(word[start..<word.endIndex]) }
        return pieces
    }
}
