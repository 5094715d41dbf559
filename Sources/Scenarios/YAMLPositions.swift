import Yams

/// Turns the YAML parser's marks into the line and column a text editor shows.
///
/// libyaml (YAML 1.1) ends a line at CR LF, CR, LF, and also at U+0085 (NEL), U+2028 (LINE
/// SEPARATOR) and U+2029 (PARAGRAPH SEPARATOR); it counts columns in Unicode scalars. Editors (and
/// YAML 1.2) end lines only at CR LF, CR and LF. A mark is first turned into the scalar offset the
/// parser meant, then into the editor's line and column at that offset, so no location is guessed
/// from the text.
struct YAMLPositions: Sendable {
    let scalars: [Unicode.Scalar]
    /// Scalar offset where each of the parser's lines begins.
    let parserLineStarts: [Int]
    /// Scalar offset where each of the editor's lines begins.
    let editorLineStarts: [Int]

    init(text: String) { self.init(scalars: Array(text.unicodeScalars)) }

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        var parser = [0], editor = [0]
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" {
                parser.append(i + 2); editor.append(i + 2); i += 2; continue
            }
            if s == "\r" || s == "\n" {
                parser.append(i + 1); editor.append(i + 1)
            } else if Self.isParserOnlyBreak(s) {
                parser.append(i + 1)
            }
            i += 1
        }
        parserLineStarts = parser
        editorLineStarts = editor
    }

    /// NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR: line breaks for libyaml, ordinary characters for an editor.
    static func isParserOnlyBreak(_ s: Unicode.Scalar) -> Bool {
        s.value == 0x85 || s.value == 0x2028 || s.value == 0x2029
    }

    /// Whether the parser's lines differ from the editor's in this text.
    static func needsTranslation(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isParserOnlyBreak)
    }

    /// The scalar offset a parser mark (1-based line and column) points at, clamped to the text.
    func offset(line: Int, column: Int) -> Int {
        let l = min(max(line, 1), parserLineStarts.count) - 1
        return min(parserLineStarts[l] + max(column, 1) - 1, scalars.count)
    }

    func offset(_ mark: Mark) -> Int { offset(line: mark.line, column: mark.column) }

    /// The editor's 1-based line and column (in scalars) at a scalar offset.
    func editorPlace(offset: Int) -> (line: Int, column: Int) {
        let o = min(max(offset, 0), scalars.count)
        // The last line start at or before the offset (binary search).
        var low = 0, high = editorLineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if editorLineStarts[mid] <= o { low = mid } else { high = mid - 1 }
        }
        return (low + 1, o - editorLineStarts[low] + 1)
    }

    func editorPlace(_ mark: Mark) -> (line: Int, column: Int) { editorPlace(offset: offset(mark)) }
}
