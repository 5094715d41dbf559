import Foundation
import Yams

/// Parses YAML text into a located root value; any YAML-level error becomes a located ``ScenarioError``.
/// Every line and column comes from the parser's own marks (translated to an editor's lines by
/// ``YAMLPositions``), never from searching the text.
enum YAMLDocument {
    static func root(text: String, file: String) throws(ScenarioError) -> YAMLValue {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let e as YamlError {
            throw located(e, file: file, text: text)
        } catch {
            throw ScenarioError(file: file, line: 1, column: 1, path: "", "not valid YAML: \(error)", "scenario.notYAML", ["error": "\(error)"])
        }
        guard let node else {
            throw ScenarioError(file: file, line: 1, column: 1, path: "", "expected a mapping with the scenario's keys, got an empty document", "scenario.emptyDocument")
        }
        let positions = YAMLPositions.needsTranslation(text) ? YAMLPositions(text: text) : nil
        let root = YAMLValue(node: node, path: "", file: file, positions: positions)
        // Aliases share nodes, so a small file can stand for a huge tree ("billion laughs"):
        // count the logical nodes and stop early.
        var budget = maximumNodes
        guard fits(node, &budget) else {
            throw root.error("expected a scenario of at most \(maximumNodes) YAML nodes (aliases expanded)", "scenario.tooManyNodes", ["limit": "\(maximumNodes)"])
        }
        return root
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

    /// libyaml's nesting limit (its message names a C function a scenario author cannot call).
    static let parserNestingLimit = 1000

    static func located(_ e: YamlError, file: String, text: String) -> ScenarioError {
        let positions = YAMLPositions(text: text)
        func make(_ mark: Mark?, _ problem: String) -> ScenarioError {
            let at: (line: Int, column: Int) = mark.map { positions.editorPlace($0) } ?? (1, 1)
            return ScenarioError(file: file, line: at.line, column: at.column, path: "", "YAML syntax: \(reworded(problem))", "scenario.yamlSyntax", ["problem": reworded(problem)],
                                 parts: LibYAMLProblem.part(problem).map { ["problem": $0] } ?? [:])
        }
        switch e {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return make(mark, problem)
        case .reader(let problem, let offset, _, _):
            // Yams gives the offset in Characters; the editor's place is counted in scalars.
            var scalarOffset = 0
            if let offset, let index = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) {
                scalarOffset = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: index)
            }
            let at = positions.editorPlace(offset: scalarOffset)
            return ScenarioError(file: file, line: at.line, column: at.column, path: "", "YAML syntax: \(reworded(problem))", "scenario.yamlSyntax", ["problem": reworded(problem)],
                                 parts: LibYAMLProblem.part(problem).map { ["problem": $0] } ?? [:])
        case .duplicatedKeysInMapping(let duplicates, let context):
            return DuplicateKey.locate(key: duplicates.first ?? "", first: context.mark, text: text, file: file)
        default:
            return make(nil, "\(e)")
        }
    }

    /// libyaml's wording, without the names of its C functions.
    static func reworded(_ problem: String) -> String {
        if LibYAMLProblem.isNestingLimit(problem) {
            return "the document nests more than \(parserNestingLimit) levels of mappings and lists"
        }
        return problem
    }
}

/// Where a duplicated key is written again, and the key path of its mapping.
///
/// Yams refuses the whole document at a duplicate and names only its first occurrence. To learn the
/// second one from the parser itself, the first occurrence is made unique by putting a private-use
/// character in front of it, and the text is parsed again (as often as the parser names another
/// duplicate, within a bound, each time with another character so the marked keys stay distinct). In the tree that then parses, the mapping holding the marked key
/// gives the path, and the next key with the same name gives the place; both places are the
/// parser's marks, translated back to the original text.
enum DuplicateKey {
    static let maximumReparses = 16

    static func locate(key: String, first: Mark, text: String, file: String) -> ScenarioError {
        let original = YAMLPositions(text: text)
        let firstOffset = original.offset(first)
        let firstPlace = original.editorPlace(offset: firstOffset)
        let message = "duplicate key '\(YAMLValue.clip(key))' (first written at line \(firstPlace.line), column \(firstPlace.column)); a key may appear once in a mapping"
        let values = ["key": YAMLValue.clip(key), "line": "\(firstPlace.line)", "column": "\(firstPlace.column)"]
        let fallback = ScenarioError(file: file, line: firstPlace.line, column: firstPlace.column, path: key, message, "scenario.duplicateKey.located", values)
        let used = Set(original.scalars)
        let markers = Array((0xE000 ... 0xF8FF).lazy.compactMap(Unicode.Scalar.init).filter { !used.contains($0) }.prefix(maximumReparses + 1))
        guard markers.count == maximumReparses + 1 else { return fallback }
        let isMarker = Set(markers)
        var scalars = original.scalars
        var markedFirst = firstOffset
        scalars.insert(markers[0], at: markedFirst)
        for attempt in 1 ... maximumReparses {
            let current = YAMLPositions(scalars: scalars)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            do {
                guard let root = try Yams.compose(yaml: String(view)) else { return fallback }
                var budget = YAMLDocument.maximumNodes
                guard let found = find(in: root, path: "", key: key, markedAt: markedFirst, isMarker: isMarker,
                                       positions: current, budget: &budget) else {
                    return fallback
                }
                // Back to the original text: drop the markers inserted before the second occurrence.
                let originalOffset = found.offset - scalars[..<found.offset].filter { isMarker.contains($0) }.count
                let at = original.editorPlace(offset: originalOffset)
                return ScenarioError(file: file, line: at.line, column: at.column, path: found.path, message, "scenario.duplicateKey.located", values)
            } catch let YamlError.duplicatedKeysInMapping(_, context) {
                // Another duplicate (a third occurrence, or a key elsewhere) stands in the way: mark it too.
                let o = current.offset(context.mark)
                guard o < scalars.count, !isMarker.contains(scalars[o]) else { return fallback }
                scalars.insert(markers[attempt], at: o)
                if o <= markedFirst { markedFirst += 1 }
            } catch {
                return fallback
            }
        }
        return fallback
    }

    /// The key path and scalar offset of the key that repeats the marked key in its mapping.
    static func find(in node: Node, path: String, key: String, markedAt: Int, isMarker: Set<Unicode.Scalar>,
                     positions: YAMLPositions, budget: inout Int) -> (path: String, offset: Int)? {
        budget -= 1
        guard budget >= 0 else { return nil }
        func unmarked(_ s: String) -> String { String(String.UnicodeScalarView(s.unicodeScalars.filter { !isMarker.contains($0) })) }
        switch node {
        case .mapping(let map):
            let pairs = Array(map)
            if let i = pairs.firstIndex(where: { pair in pair.key.mark.map { positions.offset($0) } == markedAt }) {
                // Compared with the parser's reading of the key (a quoted key reads without its quotes).
                for pair in pairs[(i + 1)...] {
                    if let other = pair.key.string, unmarked(other) == key, let mark = pair.key.mark {
                        return (path.isEmpty ? key : "\(path).\(key)", positions.offset(mark))
                    }
                }
                return nil
            }
            for (k, v) in pairs {
                let name = k.string.map(unmarked) ?? "?"
                if let hit = find(in: v, path: path.isEmpty ? name : "\(path).\(name)", key: key, markedAt: markedAt,
                                  isMarker: isMarker, positions: positions, budget: &budget) {
                    return hit
                }
            }
        case .sequence(let seq):
            for (i, n) in seq.enumerated() {
                if let hit = find(in: n, path: "\(path)[\(i)]", key: key, markedAt: markedAt, isMarker: isMarker,
                                  positions: positions, budget: &budget) {
                    return hit
                }
            }
        case .scalar, .alias:
            break
        }
        return nil
    }
}
