import Trace



/// Reads the hex a user pastes: `16 03 03`, `16:03:03`, `160303`, `0x16, 0x03`, several lines,
/// `#` comments. Anything else is an error naming the first offending character.
public enum HexInput {
    /// Why text is not hex; worded by ``Explanations/sentence(_:)-(HexInput.Failure)`` (`cli.hex.*`).
    public enum Failure: Error, Equatable {
        case invalidCharacter(Character, line: Int, column: Int)
        case oddDigitCount(Int)
        case empty
    }


    public static func parse(_ text: String) throws(Failure) -> [UInt8] {
        var digits: [UInt8] = []
        for (lineIndex, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var column = 0
            var previous: Character = " "
            for c in line {
                column += 1
                defer { previous = c }
                if c.isWhitespace || c == ":" || c == "," || c == "-" { continue }
                if (c == "x" || c == "X"), previous == "0", digits.last == 0 {
                    digits.removeLast()  // a 0x prefix
                    continue
                }
                guard let v = c.hexDigitValue, c.isASCII else {
                    throw .invalidCharacter(c, line: lineIndex + 1, column: column)
                }
                digits.append(UInt8(v))
            }
        }
        guard !digits.isEmpty else { throw .empty }
        guard digits.count % 2 == 0 else { throw .oddDigitCount(digits.count) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// True when the bytes of a file look like hex text rather than binary TLS.
    public static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }
    }
}

extension Explanations {
    /// Why the text given to `dissect` is not hex, naming the first offending character (escaped: it
    /// may be a terminal control).
    public func sentence(_ failure: HexInput.Failure) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? Explanations.english(key, values) ?? key }
        switch failure {
        case let .invalidCharacter(c, line, column):
            return say("cli.hex.invalidCharacter", ["character": TerminalText.escaped(String(c)), "line": "\(line)", "column": "\(column)"])
        case .oddDigitCount(let n): return say("cli.hex.oddDigitCount", ["count": "\(n)"])
        case .empty: return say("cli.hex.empty")
        }
    }
}
