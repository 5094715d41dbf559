import Foundation
import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Yams

/// Reads scenario files: YAML text → a validated ``Scenario``, or a located ``ScenarioError``.
public enum ScenarioParser {
    /// Files larger than this are refused before parsing.
    public static let maximumFileSize = 256 * 1024

    public static func parse(contentsOf path: String) throws(ScenarioError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(file: path, line: 1, column: 1, path: "", "cannot read the file", "scenario.cannotRead")
        }
        return try parse(data: [UInt8](data), file: path)
    }

    public static func parse(data: [UInt8], file: String) throws(ScenarioError) -> Scenario {
        guard data.count <= maximumFileSize else {
            throw ScenarioError(file: file, line: 1, column: 1, path: "", "expected a scenario of at most \(maximumFileSize) bytes, got \(data.count)",
                                "scenario.tooLarge", ["limit": "\(maximumFileSize)", "count": "\(data.count)"])
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            let (line, column) = firstInvalidUTF8(data)
            throw ScenarioError(file: file, line: line, column: column, path: "", "expected UTF-8 text, got a byte sequence that is not UTF-8", "scenario.notUTF8")
        }
        return try parse(text: text, file: file)
    }

    /// Line and column (1-based, in characters) of the first byte that breaks UTF-8.
    static func firstInvalidUTF8(_ data: [UInt8]) -> (Int, Int) {
        var line = 1, column = 1, i = 0
        while i < data.count {
            let b = data[i]
            let length: Int
            switch b {
            case 0x00 ... 0x7F: length = 1
            case 0xC2 ... 0xDF: length = 2
            case 0xE0 ... 0xEF: length = 3
            case 0xF0 ... 0xF4: length = 4
            default: return (line, column)
            }
            guard i + length <= data.count,
                  String(validating: data[i ..< i + length], as: UTF8.self) != nil else { return (line, column) }
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            i += length
        }
        return (line, column)
    }

    public static func parse(text original: String, file: String) throws(ScenarioError) -> Scenario {
        // A UTF-8 byte order mark (editors on Windows write one) is not part of the YAML text.
        let text = original.unicodeScalars.first == "\u{FEFF}" ? String(String.UnicodeScalarView(original.unicodeScalars.dropFirst())) : original
        if let i = text.unicodeScalars.firstIndex(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) {
            let before = text.unicodeScalars[..<i]
            let line = before.filter { $0 == "\n" }.count + 1
            let column = before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
            throw ScenarioError(file: file, line: line, column: column, path: "",
                                "expected YAML text, got the control character U+\(String(text.unicodeScalars[i].value, radix: 16, uppercase: true))",
                                "scenario.yamlControlCharacter", ["code": "U+\(String(text.unicodeScalars[i].value, radix: 16, uppercase: true))"])
        }
        let root = try YAMLDocument.root(text: text, file: file)
        return try ScenarioReader(file: file).scenario(root)
    }
}

/// The schema, one function per section.
struct ScenarioReader {
    let file: String

    static let topKeys = ["title", "description", "kind", "seed", "now", "pki", "server", "client", "network", "tcp",
                          "http", "attacker", "actions", "run_ms", "ats", "connection", "dh", "expect", "handlers", "try_next",
                          "version", "title_zh", "description_zh", "try_next_zh"]
    static let versions: [String: ProtocolVersion] = ["TLS1.0": .tls10, "TLS1.1": .tls11, "TLS1.2": .tls12]
    static let versionNames = ["TLS1.0", "TLS1.1", "TLS1.2"]

    func scenario(_ root: YAMLValue) throws(ScenarioError) -> Scenario {
        let top = try root.mapping(Self.topKeys)
        let title = try top.required("title", .init("a one-line string: the lesson's name", "scenario.expected.title")).name(limit: 200)
        let description = try top.required("description", .init("a string of at least 20 characters that teaches the point", "scenario.expected.description")).prose()
        guard description.count >= 20 else {
            throw top.keyError("description", "expected a description that teaches the point (at least 20 characters), got \(description.count)", "scenario.descriptionTooShort", ["count": "\(description.count)"])
        }
        guard description.count <= LessonWorkLimits.maximumDescriptionCharacters else {
            throw top.keyError("description", "expected a description of at most \(LessonWorkLimits.maximumDescriptionCharacters) characters, got \(description.count)", "scenario.descriptionTooLong", ["limit": "\(LessonWorkLimits.maximumDescriptionCharacters)", "count": "\(description.count)"])
        }
        let kind = try top["kind"]?.oneOf(["tls", "tcp", "ats", "dh"]) ?? "tls"
        let seed = try top["seed"]?.uint64() ?? 1
        var allowed: [String]
        switch kind {
        case "tcp": allowed = ["title", "description", "kind", "seed", "network", "tcp", "actions", "run_ms", "expect"]
        case "ats": allowed = ["title", "description", "kind", "seed", "now", "pki", "client", "ats", "connection", "expect"]
        case "dh": allowed = ["title", "description", "kind", "seed", "dh", "expect"]
        default: allowed = ["title", "description", "kind", "seed", "version", "now", "pki", "server", "client", "network", "tcp", "http", "attacker", "expect", "handlers"]
        }
        allowed += ["try_next"] + Self.chineseKeys
        for key in top.keys where !allowed.contains(key) {
            throw top.keyError(key, "key '\(key)' does not apply to a scenario of kind \(kind); expected one of: \(allowed.joined(separator: ", "))", "scenario.keyNotForKind", ["key": key, "kind": kind, "list": allowed.joined(separator: ", ")])
        }
        let world: Scenario.World
        var handlers: [HandlerVariant] = []
        switch kind {
        case "tcp": world = .tcp(try tcpWorld(top))
        case "ats": world = .ats(try atsWorld(top))
        case "dh": world = .dh(try dhWorld(top))
        default:
            let w = try tlsWorld(top)
            world = .tls(w)
            handlers = try self.handlers(top, w.certificates)
        }
        // Without `expect` the file is a demo: run and walkthrough show it, check refuses it.
        var expectations: [Expectation] = []
        if let expect = top["expect"] { expectations = try ExpectationReader.read(expect, kind: kind) }
        var tryNext: [String] = []
        if let next = top["try_next"] { tryNext = try Self.tryNext(next) }
        let chinese = try Self.chinese(top, tryNext: tryNext)
        return Scenario(file: file, title: title, description: description, seed: seed, world: world, expectations: expectations,
                        tryNext: tryNext, chinese: chinese, handlers: handlers)
    }

    /// `try_next`: one or two suggestions, each one line of 10 to 300 characters (a folded string's
    /// final line break is dropped).
    static func tryNext(_ value: YAMLValue) throws(ScenarioError) -> [String] {
        let items = try value.list()
        guard (1...2).contains(items.count) else {
            throw value.error("expected a list of one or two suggestions (a setting to change and what will happen), got \(items.count)", "scenario.tryNextCount", ["count": "\(items.count)"])
        }
        var out: [String] = []
        for item in items {
            var text = try item.prose()
            while text.last?.isWhitespace == true { text.removeLast() }
            guard text.count >= 10, text.count <= 300, !text.contains("\n") else {
                throw item.error("expected one line of 10 to 300 characters saying what to change and what will happen, got '\(YAMLValue.clip(text))'", "scenario.tryNextLine", ["value": YAMLValue.clip(text)])
            }
            out.append(text)
        }
        return out
    }
}
