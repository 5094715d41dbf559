import Foundation
import Trace
import Yams

/// A YAML node with its place in the file and its key path, and typed readers that fail with a
/// located ``ScenarioError``. Scalars are read as the schema says — a quoted `"true"` is a
/// string, not a boolean; `~` or an empty value is null and only accepted where a key allows it.
struct YAMLValue {
    let node: Node
    let path: String
    let file: String
    /// Set when the parser's lines differ from an editor's (the text has NEL, U+2028 or U+2029).
    var positions: YAMLPositions? = nil

    var line: Int { place(of: node).line }
    var column: Int { place(of: node).column }

    /// Where a node of this file starts, as an editor shows it (from the parser's mark).
    func place(of node: Node) -> (line: Int, column: Int) {
        guard let mark = node.mark else { return (1, 1) }
        return positions?.editorPlace(mark) ?? (mark.line, mark.column)
    }

    /// A value of the same file.
    func child(_ node: Node, path: String) -> YAMLValue {
        YAMLValue(node: node, path: path, file: file, positions: positions)
    }

    func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, line: line, column: column, path: path, message: message)
    }

    /// A located error worded by the catalogue: `key` with its values (and the English `message`).
    func error(_ message: String, _ key: String, _ values: [String: String] = [:],
               got: ScenarioError.Words.Got? = nil, parts: [String: ScenarioError.Words.Part] = [:]) -> ScenarioError {
        ScenarioError(file: file, line: line, column: column, path: path, message: message,
                      words: .init(key: key, values: values, got: got, parts: parts))
    }

    /// "expected X, got Y": what was expected and what the node is, both worded.
    func expectedError(_ expected: ScenarioError.Expected) -> ScenarioError {
        error("expected \(expected.english), got \(kindName)", "scenario.expected", got: kindWords, parts: ["expected": expected.words])
    }

    /// What the node is, as a catalogue key and value (the words of ``kindName``).
    var kindWords: ScenarioError.Words.Got {
        switch node {
        case .mapping: return .init(key: "scenario.got.mapping", value: "")
        case .sequence: return .init(key: "scenario.got.list", value: "")
        case .alias: return .init(key: "scenario.got.alias", value: "")
        case .scalar(let s):
            if isNull { return .init(key: "scenario.got.null", value: "") }
            if s.style == .plain {
                if s.string == "true" || s.string == "false" { return .init(key: "scenario.got.boolean", value: s.string) }
                if Int(s.string) != nil || Double(s.string) != nil { return .init(key: "scenario.got.number", value: s.string) }
            }
            return .init(key: "scenario.got.string", value: Self.clip(s.string))
        }
    }

    /// What the node is, for "expected X, got Y".
    var kindName: String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let s):
            if isNull { return "null" }
            if s.style == .plain {
                if s.string == "true" || s.string == "false" { return "the boolean \(s.string)" }
                if Int(s.string) != nil { return "the number \(s.string)" }
                if Double(s.string) != nil { return "the number \(s.string)" }
            }
            return "the string '\(Self.clip(s.string))'"
        }
    }

    static func clip(_ s: String) -> String {
        let oneLine = TerminalText.escaped(s)
        return oneLine.count > 40 ? String(oneLine.prefix(37)) + "..." : oneLine
    }

    /// The first character a lesson's text may not hold, with its position (1-based, in
    /// characters): a C0 control other than tab, line feed and carriage return, DEL, a C1 control,
    /// or a bidirectional embedding, override or isolate. Printed, the controls drive a terminal
    /// (ESC clears the screen, OSC 52 writes the clipboard, OSC 0 retitles the window) and the bidi
    /// ones reorder what a page shows ("gnp.exe" shown as "exe.png"): a lesson says what it means
    /// in words, so every surface can show its text as written (issue #38 defect 9).
    static func forbiddenCharacter(in s: String) -> (scalar: Unicode.Scalar, position: Int)? {
        for (index, scalar) in s.unicodeScalars.enumerated() {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: continue
            case 0x00 ... 0x1F, 0x7F ... 0x9F, 0x200E, 0x200F, 0x061C, 0x202A ... 0x202E, 0x2066 ... 0x2069:
                return (scalar, index + 1)
            default: continue
            }
        }
        return nil
    }

    var isNull: Bool {
        guard case .scalar(let s) = node, s.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    /// An explicit tag (`!!str 7`, `!!bool`, `!custom`) is refused: a lesson's values are typed as
    /// they are written — `7` a number, `"7"` text, `true` a boolean — and a tag that said
    /// otherwise would be silently ignored (issue #38 defect 15).
    func refuseExplicitTag() throws(ScenarioError) {
        let name: String
        switch node {
        case .scalar(let s):
            // Yams names every quoted or block scalar !!str itself (libyaml's quoted_implicit), so
            // only a tag other than that is explicit there; a plain scalar has none unless written.
            // A plain one's tag may be its own resolution (Yams resolves a tag it hashes): only a
            // tag that differs from what the text says (`!!str 7`, `!!str true`, `!custom`) is refused.
            name = "\(s.tag)"
            if s.style != .plain, name == Tag.Name.str.rawValue { return }
            if s.style == .plain, name == Resolver.default.resolveTag(of: .scalar(.init(s.string))).rawValue { return }
        case .mapping(let m): name = "\(m.tag)"; if name == Tag.Name.map.rawValue { return }
        case .sequence(let q): name = "\(q.tag)"; if name == Tag.Name.seq.rawValue { return }
        case .alias: return
        }
        guard !name.isEmpty else { return }
        let shown = name.hasPrefix("tag:yaml.org,2002:") ? "!!" + name.dropFirst("tag:yaml.org,2002:".count) : name
        throw error("the explicit YAML tag \(TerminalText.escaped(String(shown))) is not read: a lesson's values are typed as written (7 is a number, \"7\" is text, true is a boolean); remove the tag",
                    "scenario.explicitTag", ["tag": TerminalText.escaped(String(shown))])
    }

    private func scalar(_ expected: ScenarioError.Expected) throws(ScenarioError) -> Node.Scalar {
        try refuseExplicitTag()
        guard case .scalar(let s) = node, !isNull else { throw expectedError(expected) }
        if let (bad, position) = Self.forbiddenCharacter(in: s.string) {
            let code = "U+" + String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)
            throw error("the text holds the control character \(code) (\(TerminalText.escaped(String(Character(bad))))) at character \(position): a lesson's text may not hold terminal controls or bidirectional overrides (tab, line feed and carriage return are fine); write what you mean in words",
                        "scenario.controlCharacter", ["code": code, "shown": TerminalText.escaped(String(Character(bad))), "position": "\(position)"])
        }
        return s
    }

    func string() throws(ScenarioError) -> String {
        let s = try scalar(.init("a string", "scenario.expected.string"))
        return s.string
    }

    /// Teaching text (a description, a suggestion): a string without tab or carriage return either,
    /// which a terminal would obey (a CR returns to the line's start and overwrites it). HTTP
    /// messages and bytes sent keep their CR LF; the words around them have none.
    func prose() throws(ScenarioError) -> String {
        let s = try string()
        if let bad = s.unicodeScalars.firstIndex(where: { $0 == "\r" || $0 == "\t" }) {
            let position = s.unicodeScalars.distance(from: s.unicodeScalars.startIndex, to: bad) + 1
            let code = s.unicodeScalars[bad] == "\r" ? "U+000D (\\r)" : "U+0009 (\\t)"
            throw error("the text holds the control character \(code) at character \(position): a lesson's words hold no tab or carriage return (only an HTTP message or bytes sent may)",
                        "scenario.tabOrReturn", ["code": code, "position": "\(position)"])
        }
        return s
    }

    /// A string that was written as one: a plain scalar that YAML would read as a number, a bool or
    /// null is refused (quote it to mean the text).
    func text(_ expected: ScenarioError.Expected) throws(ScenarioError) -> String {
        let s = try scalar(expected)
        if s.style == .plain, Int(s.string) != nil || Double(s.string) != nil || ["true", "false"].contains(s.string) {
            let number = Int(s.string) != nil || Double(s.string) != nil
            throw error("expected \(expected.english), got the \(number ? "number" : "bool") \(s.string) (quote it if you mean the text)",
                        number ? "scenario.expectedText.number" : "scenario.expectedText.boolean", ["value": s.string],
                        parts: ["expected": expected.words])
        }
        return s.string
    }

    /// A non-empty single-line string of at most `limit` characters.
    func name(limit: Int = 253) throws(ScenarioError) -> String {
        let s = try prose()
        guard !s.isEmpty, s.count <= limit, !s.contains("\n") else {
            throw error("expected a non-empty single-line string of at most \(limit) characters, got '\(Self.clip(s))'",
                        "scenario.expectedName", ["limit": "\(limit)", "value": Self.clip(s)])
        }
        return s
    }

    /// A host a client connects to: a DNS name (labels of letters, digits, '-' and '_', 1…63
    /// characters, not starting or ending with '-'; the last label not all digits, RFC 3696 §2), an
    /// IPv4 address in dotted decimal, or an IPv6 address. With `wildcard`, `*.` may lead (a
    /// certificate's name). `999.1.1.1` is neither name nor address; a NUL or any control is refused.
    func hostName(wildcard: Bool = false) throws(ScenarioError) -> String {
        let s = try name()
        guard Self.isHost(s, wildcard: wildcard) else {
            throw error("expected a DNS name or an IP address, got '\(TerminalText.escaped(Self.clip(s)))'",
                        "scenario.expectedHost", ["value": TerminalText.escaped(Self.clip(s))])
        }
        return s
    }

    static func isHost(_ s: String, wildcard: Bool) -> Bool {
        guard s.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else { return false }
        if s.contains(":") { return isIPv6(s) }
        let labels = s.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count == 4, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            return labels.allSatisfy { $0.count <= 3 && (Int($0) ?? 256) <= 255 }
        }
        var rest = labels[...]
        if wildcard, rest.first == "*", rest.count > 2 { rest = rest.dropFirst() }
        guard s.count <= 253, let last = rest.last, !last.allSatisfy(\.isNumber) else { return false }
        return rest.allSatisfy { label in
            (1 ... 63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        }
    }

    /// RFC 4291 §2.2 text forms: eight groups of 1…4 hex digits, one `::` for a run of zeros, an
    /// IPv4 tail allowed.
    static func isIPv6(_ s: String) -> Bool {
        let halves = s.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        var groups = 0
        for (h, half) in halves.enumerated() where !half.isEmpty {
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (i, p) in parts.enumerated() {
                if h == halves.count - 1, i == parts.count - 1, p.contains(".") {
                    guard isHost(String(p), wildcard: false), p.split(separator: ".").count == 4,
                          p.allSatisfy({ $0.isNumber || $0 == "." }) else { return false }
                    groups += 2
                    continue
                }
                guard (1 ... 4).contains(p.count), p.allSatisfy(\.isHexDigit) else { return false }
                groups += 1
            }
        }
        return halves.count == 2 ? groups < 8 : groups == 8
    }

    func bool() throws(ScenarioError) -> Bool {
        let s = try scalar(.init("true or false", "scenario.expected.trueOrFalse"))
        guard s.style == .plain, s.string == "true" || s.string == "false" else {
            var e = error("expected true or false, got \(kindName)")
            e.words = .init(key: "scenario.expectedBool", values: [:], got: kindWords)
            throw e
        }
        return s.string == "true"
    }

    func int(_ range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        let s = try scalar(.wholeNumber(range))
        guard s.style == .plain, let v = Int(s.string), range.contains(v) else { throw expectedError(.wholeNumber(range)) }
        return v
    }

    func uint64() throws(ScenarioError) -> UInt64 {
        let expected = ScenarioError.Expected("a whole number ≥ 0", "scenario.expected.wholeNumberFromZero")
        let s = try scalar(expected)
        guard s.style == .plain, let v = UInt64(s.string) else { throw expectedError(expected) }
        return v
    }

    func probability() throws(ScenarioError) -> Double {
        let expected = ScenarioError.Expected("a probability between 0 and 1", "scenario.expected.probability")
        let s = try scalar(expected)
        guard s.style == .plain, let v = Double(s.string), v >= 0, v <= 1 else { throw expectedError(expected) }
        return v
    }

    /// A time in seconds with at most six decimals (`0.25`, `1.000150`), as microseconds.
    func seconds() throws(ScenarioError) -> Int64 {
        let expected = ScenarioError.Expected("a time in seconds like 0.250000", "scenario.expected.seconds")
        let s = try scalar(expected)
        let parts = s.string.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard s.style == .plain, let whole = parts.first, !whole.isEmpty, whole.count <= 9, whole.allSatisfy(\.isASCII),
              let w = Int64(whole), w >= 0 else {
            throw expectedError(expected)
        }
        var micros = w * 1_000_000
        if parts.count == 2 {
            let f = parts[1]
            guard !f.isEmpty, f.count <= 6, f.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int64(f + String(repeating: "0", count: 6 - f.count)) else {
                throw expectedError(.init("a time in seconds with at most six decimals", "scenario.expected.sixDecimals"))
            }
            micros += v
        }
        return micros
    }

    /// One of a fixed set of words; a near miss gets a suggestion.
    func oneOf(_ choices: [String]) throws(ScenarioError) -> String {
        let list = choices.joined(separator: ", ")
        let s = try scalar(.oneOf(choices))
        guard choices.contains(s.string) else {
            var e = error("expected one of: \(list), got \(kindName)" + Spelling.hint(for: s.string, among: choices))
            let suggestion = Spelling.suggestion(for: s.string, among: choices)
            e.words = .init(key: suggestion == nil ? "scenario.expectedOneOf" : "scenario.expectedOneOf.suggested",
                            values: ["list": list, "suggestion": suggestion ?? ""], got: kindWords)
            throw e
        }
        return s.string
    }

    func list() throws(ScenarioError) -> [YAMLValue] {
        try refuseExplicitTag()
        guard case .sequence(let seq) = node else { throw expectedError(.init("a list", "scenario.expected.list")) }
        return seq.enumerated().map { child($0.element, path: "\(path)[\($0.offset)]") }
    }

    /// A scalar or a list of scalars, read as a list.
    func listOrOne() throws(ScenarioError) -> [YAMLValue] {
        if case .sequence = node { return try list() }
        return [self]
    }

    /// A mapping whose keys must all be in `allowed` (unknown keys fail, with a suggestion).
    func mapping(_ allowed: [String]) throws(ScenarioError) -> YAMLMapping {
        try refuseExplicitTag()
        guard case .mapping(let map) = node else {
            throw expectedError(.init("a mapping with keys \(allowed.joined(separator: ", "))", "scenario.expected.mappingWithKeys",
                                      ["list": allowed.joined(separator: ", ")]))
        }
        var entries: [(key: String, keyNode: Node, value: Node)] = []
        for (k, v) in map {
            let keyValue = child(k, path: path)
            guard case .scalar(let ks) = k, !keyValue.isNull else {
                throw keyValue.expectedError(.init("a key name", "scenario.expected.keyName"))
            }
            let shownKey = TerminalText.escaped(ks.string)
            let here = path.isEmpty ? shownKey : "\(path).\(shownKey)"
            let at = place(of: k)
            guard allowed.contains(ks.string) else {
                let suggestion = Spelling.suggestion(for: ks.string, among: allowed)
                throw ScenarioError(file: file, line: at.line, column: at.column, path: here,
                                    message: "unknown key '\(YAMLValue.clip(ks.string))'; expected one of: \(allowed.joined(separator: ", "))"
                                        + Spelling.hint(for: ks.string, among: allowed),
                                    words: .init(key: suggestion == nil ? "scenario.unknownKey" : "scenario.unknownKey.suggested",
                                                 values: ["key": YAMLValue.clip(ks.string), "list": allowed.joined(separator: ", "), "suggestion": suggestion ?? ""]))
            }
            if entries.contains(where: { $0.key == ks.string }) {
                throw ScenarioError(file: file, line: at.line, column: at.column, path: here,
                                    "duplicate key '\(ks.string)'", "scenario.duplicateKey", ["key": YAMLValue.clip(ks.string)])
            }
            entries.append((ks.string, k, v))
        }
        return YAMLMapping(owner: self, entries: entries)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

/// The checked keys of one mapping.
struct YAMLMapping {
    let owner: YAMLValue
    let entries: [(key: String, keyNode: Node, value: Node)]

    var keys: [String] { entries.map(\.key) }

    func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

    /// The value of `key`, or nil when absent. An explicit null counts as absent only when `nullable`.
    subscript(_ key: String) -> YAMLValue? {
        guard let e = entries.first(where: { $0.key == key }) else { return nil }
        return owner.child(e.value, path: owner.path.isEmpty ? key : "\(owner.path).\(key)")
    }

    /// The value of a key that must be there; when it is missing, the error names the key's full
    /// path and what it should hold (`expected`: "one of: none, simple, full", "a list of …").
    func required(_ key: String, _ expected: ScenarioError.Expected) throws(ScenarioError) -> YAMLValue {
        guard let v = self[key] else {
            let here = owner.path.isEmpty ? key : "\(owner.path).\(key)"
            throw ScenarioError(file: owner.file, line: owner.line, column: owner.column, path: here,
                                "missing required key '\(key)': expected \(expected.english)", "scenario.missingKey", ["key": key],
                                parts: ["expected": expected.words])
        }
        return v
    }

    /// Where a key is written (for contradictions that involve it).
    func keyError(_ key: String, _ message: String) -> ScenarioError {
        let here = owner.path.isEmpty ? key : "\(owner.path).\(key)"
        guard let e = entries.first(where: { $0.key == key }) else {
            return ScenarioError(file: owner.file, line: owner.line, column: owner.column, path: here, message: message)
        }
        let at = owner.place(of: e.keyNode)
        return ScenarioError(file: owner.file, line: at.line, column: at.column, path: here, message: message)
    }

    /// Where a key is written, worded by the catalogue: `words` (a literal key and its values).
    func keyError(_ key: String, _ message: String, _ wordsKey: String, _ values: [String: String] = [:],
                  parts: [String: ScenarioError.Words.Part] = [:]) -> ScenarioError {
        var e = keyError(key, message)
        e.words = .init(key: wordsKey, values: values, parts: parts)
        return e
    }
}
