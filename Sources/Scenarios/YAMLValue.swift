import Foundation
import Yams

/// A YAML node with its place in the file and its key path, and typed readers that fail with a
/// located ``ScenarioError``. Scalars are read as the schema says — a quoted `"true"` is a
/// string, not a boolean; `~` or an empty value is null and only accepted where a key allows it.
struct YAMLValue {
    let node: Node
    let path: String
    let file: String

    var line: Int { node.mark?.line ?? 1 }
    var column: Int { node.mark?.column ?? 1 }

    func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, line: line, column: column, path: path, message: message)
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
        let oneLine = s.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
        return oneLine.count > 40 ? String(oneLine.prefix(37)) + "..." : oneLine
    }

    var isNull: Bool {
        guard case .scalar(let s) = node, s.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    private func scalar(_ expected: String) throws(ScenarioError) -> Node.Scalar {
        guard case .scalar(let s) = node, !isNull else { throw error("expected \(expected), got \(kindName)") }
        return s
    }

    func string() throws(ScenarioError) -> String {
        let s = try scalar("a string")
        return s.string
    }

    /// A string that was written as one: a plain scalar that YAML would read as a number, a bool or
    /// null is refused (quote it to mean the text).
    func text(_ expected: String) throws(ScenarioError) -> String {
        let s = try scalar(expected)
        if s.style == .plain, Int(s.string) != nil || Double(s.string) != nil || ["true", "false"].contains(s.string) {
            throw error("expected \(expected), got the \(Int(s.string) != nil || Double(s.string) != nil ? "number" : "bool") \(s.string) (quote it if you mean the text)")
        }
        return s.string
    }

    /// A non-empty single-line string of at most `limit` characters.
    func name(limit: Int = 253) throws(ScenarioError) -> String {
        let s = try string()
        guard !s.isEmpty, s.count <= limit, !s.contains("\n") else {
            throw error("expected a non-empty single-line string of at most \(limit) characters, got '\(Self.clip(s))'")
        }
        return s
    }

    func bool() throws(ScenarioError) -> Bool {
        let s = try scalar("true or false")
        guard s.style == .plain, s.string == "true" || s.string == "false" else {
            throw error("expected true or false, got \(kindName)")
        }
        return s.string == "true"
    }

    func int(_ range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        let s = try scalar("a whole number in \(range.lowerBound)...\(range.upperBound)")
        guard s.style == .plain, let v = Int(s.string), range.contains(v) else {
            throw error("expected a whole number in \(range.lowerBound)...\(range.upperBound), got \(kindName)")
        }
        return v
    }

    func uint64() throws(ScenarioError) -> UInt64 {
        let s = try scalar("a whole number ≥ 0")
        guard s.style == .plain, let v = UInt64(s.string) else { throw error("expected a whole number ≥ 0, got \(kindName)") }
        return v
    }

    func probability() throws(ScenarioError) -> Double {
        let s = try scalar("a probability between 0 and 1")
        guard s.style == .plain, let v = Double(s.string), v >= 0, v <= 1 else {
            throw error("expected a probability between 0 and 1, got \(kindName)")
        }
        return v
    }

    /// A time in seconds with at most six decimals (`0.25`, `1.000150`), as microseconds.
    func seconds() throws(ScenarioError) -> Int64 {
        let s = try scalar("a time in seconds like 0.250000")
        let parts = s.string.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard s.style == .plain, let whole = parts.first, !whole.isEmpty, whole.count <= 9, whole.allSatisfy(\.isASCII),
              let w = Int64(whole), w >= 0 else {
            throw error("expected a time in seconds like 0.250000, got \(kindName)")
        }
        var micros = w * 1_000_000
        if parts.count == 2 {
            let f = parts[1]
            guard !f.isEmpty, f.count <= 6, f.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int64(f + String(repeating: "0", count: 6 - f.count)) else {
                throw error("expected a time in seconds with at most six decimals, got \(kindName)")
            }
            micros += v
        }
        return micros
    }

    /// One of a fixed set of words; a near miss gets a suggestion.
    func oneOf(_ choices: [String]) throws(ScenarioError) -> String {
        let list = choices.joined(separator: ", ")
        let s = try scalar("one of: \(list)")
        guard choices.contains(s.string) else {
            throw error("expected one of: \(list), got \(kindName)" + Spelling.hint(for: s.string, among: choices))
        }
        return s.string
    }

    func list() throws(ScenarioError) -> [YAMLValue] {
        guard case .sequence(let seq) = node else { throw error("expected a list, got \(kindName)") }
        return seq.enumerated().map { YAMLValue(node: $0.element, path: "\(path)[\($0.offset)]", file: file) }
    }

    /// A scalar or a list of scalars, read as a list.
    func listOrOne() throws(ScenarioError) -> [YAMLValue] {
        if case .sequence = node { return try list() }
        return [self]
    }

    /// A mapping whose keys must all be in `allowed` (unknown keys fail, with a suggestion).
    func mapping(_ allowed: [String]) throws(ScenarioError) -> YAMLMapping {
        guard case .mapping(let map) = node else { throw error("expected a mapping with keys \(allowed.joined(separator: ", ")), got \(kindName)") }
        var entries: [(key: String, keyNode: Node, value: Node)] = []
        for (k, v) in map {
            let keyValue = YAMLValue(node: k, path: path, file: file)
            guard case .scalar(let ks) = k, !keyValue.isNull else {
                throw keyValue.error("expected a key name, got \(keyValue.kindName)")
            }
            let here = path.isEmpty ? ks.string : "\(path).\(ks.string)"
            guard allowed.contains(ks.string) else {
                throw ScenarioError(file: file, line: k.mark?.line ?? line, column: k.mark?.column ?? column, path: here,
                                    message: "unknown key '\(YAMLValue.clip(ks.string))'; expected one of: \(allowed.joined(separator: ", "))"
                                        + Spelling.hint(for: ks.string, among: allowed))
            }
            if entries.contains(where: { $0.key == ks.string }) {
                throw ScenarioError(file: file, line: k.mark?.line ?? line, column: k.mark?.column ?? column, path: here,
                                    message: "duplicate key '\(ks.string)'")
            }
            entries.append((ks.string, k, v))
        }
        return YAMLMapping(owner: self, entries: entries)
    }
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
        return YAMLValue(node: e.value, path: owner.path.isEmpty ? key : "\(owner.path).\(key)", file: owner.file)
    }

    /// The value of a key that must be there; when it is missing, the error names the key's full
    /// path and what it should hold (`expected`: "one of: none, simple, full", "a list of …").
    func required(_ key: String, _ expected: String) throws(ScenarioError) -> YAMLValue {
        guard let v = self[key] else {
            let here = owner.path.isEmpty ? key : "\(owner.path).\(key)"
            throw ScenarioError(file: owner.file, line: owner.line, column: owner.column, path: here,
                                message: "missing required key '\(key)': expected \(expected)")
        }
        return v
    }

    /// Where a key is written (for contradictions that involve it).
    func keyError(_ key: String, _ message: String) -> ScenarioError {
        let here = owner.path.isEmpty ? key : "\(owner.path).\(key)"
        guard let e = entries.first(where: { $0.key == key }) else {
            return ScenarioError(file: owner.file, line: owner.line, column: owner.column, path: here, message: message)
        }
        return ScenarioError(file: owner.file, line: e.keyNode.mark?.line ?? owner.line,
                             column: e.keyNode.mark?.column ?? owner.column, path: here, message: message)
    }
}

/// Parses YAML text into a located root value; any YAML-level error becomes a located ``ScenarioError``.
enum YAMLDocument {
    static func root(text: String, file: String) throws(ScenarioError) -> YAMLValue {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let e as YamlError {
            throw located(e, file: file, text: text)
        } catch {
            throw ScenarioError(file: file, line: 1, column: 1, path: "", message: "not valid YAML: \(error)")
        }
        guard let node else {
            throw ScenarioError(file: file, line: 1, column: 1, path: "", message: "expected a mapping with the scenario's keys, got an empty document")
        }
        // Aliases share nodes, so a small file can stand for a huge tree ("billion laughs"):
        // count the logical nodes and stop early.
        var budget = maximumNodes
        guard fits(node, &budget) else {
            throw ScenarioError(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, path: "",
                                message: "expected a scenario of at most \(maximumNodes) YAML nodes (aliases expanded)")
        }
        return YAMLValue(node: node, path: "", file: file)
    }

    static let maximumNodes = 50_000

    static func fits(_ node: Node, _ budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .mapping(let m):
            for (k, v) in m where !fits(k, &budget) || !fits(v, &budget) { return false }
        case .sequence(let s):
            for n in s where !fits(n, &budget) { return false }
        case .scalar, .alias:
            break
        }
        return true
    }

    static func located(_ e: YamlError, file: String, text: String) -> ScenarioError {
        func make(_ mark: Mark?, _ problem: String) -> ScenarioError {
            ScenarioError(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, path: "", message: "YAML syntax: \(problem)")
        }
        switch e {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return make(mark, problem)
        case .reader(let problem, let offset, _, _):
            // Locate the byte offset as line:column.
            var line = 1, column = 1
            if let offset {
                for (i, b) in text.utf8.enumerated() {
                    if i >= offset { break }
                    if b == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
                }
            }
            return ScenarioError(file: file, line: line, column: column, path: "", message: "YAML syntax: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            let place = DuplicateKeyLocator(text: text).locate(key: key, firstLine: context.mark.line, firstColumn: context.mark.column)
            let here = place.parents.isEmpty ? key : "\(place.parents).\(key)"
            return ScenarioError(file: file, line: place.line, column: place.column, path: here,
                                 message: "duplicate key '\(YAMLValue.clip(key))' (first written at line \(context.mark.line), column \(context.mark.column)); a key may appear once in a mapping")
        default:
            return make(nil, "\(e)")
        }
    }
}

/// Finds where a duplicated key is written again, and the key path of its mapping, from the text
/// (Yams reports only the first occurrence). Block mappings are followed by indentation; a flow
/// mapping on the same line is searched after the first occurrence. When the second occurrence
/// cannot be found, the first one is reported.
struct DuplicateKeyLocator {
    let lines: [Substring]

    init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    }

    static func indent(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }

    static func isContent(_ line: Substring) -> Bool {
        let t = line.drop { $0 == " " }
        return !t.isEmpty && !t.hasPrefix("#")
    }

    /// The key a line starts with at `column` (0-based), if any: `name:` followed by a space or the end.
    static func key(in line: Substring, at column: Int) -> String? {
        guard column <= line.count else { return nil }
        let rest = line.dropFirst(column)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let name = rest[..<colon].trimmingCharacters(in: .whitespaces)
        let after = rest[rest.index(after: colon)...]
        guard !name.isEmpty, after.isEmpty || after.first == " ", !name.contains(" ") || name.hasPrefix("\"") else { return nil }
        return name.hasPrefix("\"") && name.hasSuffix("\"") && name.count >= 2 ? String(name.dropFirst().dropLast()) : name
    }

    func locate(key: String, firstLine: Int, firstColumn: Int) -> (line: Int, column: Int, parents: String) {
        let l = firstLine - 1, c = firstColumn - 1
        var found = (line: firstLine, column: firstColumn)
        if l >= 0, l < lines.count {
            // A flow mapping: `{a: 1, a: 2}` on one line.
            let line = lines[l]
            var search = line.index(line.startIndex, offsetBy: min(c + key.count, line.count))
            var flowHit = false
            while let r = line[search...].range(of: key) {
                let before = line[line.startIndex..<r.lowerBound].last { $0 != " " }
                let after = line[r.upperBound...].drop { $0 == " " }
                if (before == "," || before == "{"), after.first == ":" {
                    found = (firstLine, line.distance(from: line.startIndex, to: r.lowerBound) + 1)
                    flowHit = true
                    break
                }
                search = r.upperBound
            }
            // A block mapping: the same key again at the same indentation, before the mapping ends.
            if !flowHit {
                for i in (l + 1)..<lines.count where Self.isContent(lines[i]) {
                    let indent = Self.indent(lines[i])
                    if indent < c { break }
                    if indent == c, Self.key(in: lines[i], at: c) == key { found = (i + 1, c + 1); break }
                }
            }
        }
        return (found.line, found.column, parents(line: l, column: c))
    }

    /// The key path of the mapping whose key starts at (`line`, `column`), 0-based.
    func parents(line: Int, column: Int) -> String {
        var path: [String] = []
        var col = column
        var j = line - 1
        // Flow mappings opened earlier on the same line (`server: { ems: true, ems: false }`).
        if line >= 0, line < lines.count, column > Self.indent(lines[line]) {
            let before = Array(lines[line].prefix(column))
            var stack: [String] = [], lastKey = "", word = ""
            for ch in before {
                switch ch {
                case ":": if !word.isEmpty { lastKey = word }; word = ""
                case "{": stack.append(lastKey); word = ""
                case "}": _ = stack.popLast(); word = ""
                case ",", " ", "[", "]": word = ""
                default: word.append(ch)
                }
            }
            path = stack.filter { !$0.isEmpty }
            col = Self.indent(lines[line])
        }
        // A key on a list item's line (`- a: 1`) belongs to that item.
        if line >= 0, line < lines.count, column >= 2 {
            let own = lines[line]
            if Self.indent(own) == column - 2, own.dropFirst(column - 2).hasPrefix("- ") {
                path.insert("[\(index(ofItemAt: line, indent: column - 2))]", at: 0)
                col = column - 2
            }
        }
        while j >= 0 {
            defer { j -= 1 }
            let text = lines[j]
            guard Self.isContent(text) else { continue }
            let indent = Self.indent(text)
            guard indent < col else { continue }
            if text.dropFirst(indent).hasPrefix("- ") {
                path.insert("[\(index(ofItemAt: j, indent: indent))]", at: 0)
                if let k = Self.key(in: text, at: indent + 2), indent + 2 < col { path.insert(k, at: 1) }
                col = indent
            } else if let k = Self.key(in: text, at: indent) {
                path.insert(k, at: 0)
                col = indent
            }
            if col == 0 { break }
        }
        var out = ""
        for p in path { out += p.hasPrefix("[") || out.isEmpty ? p : ".\(p)" }
        return out
    }

    /// Which item of its list the `- ` line `line` is (0-based), counting earlier items at the same indentation.
    func index(ofItemAt line: Int, indent: Int) -> Int {
        var n = 0
        var j = line - 1
        while j >= 0 {
            let text = lines[j]
            if Self.isContent(text) {
                let i = Self.indent(text)
                if i < indent { break }
                if i == indent {
                    if text.dropFirst(i).hasPrefix("- ") { n += 1 } else { break }
                }
            }
            j -= 1
        }
        return n
    }
}
