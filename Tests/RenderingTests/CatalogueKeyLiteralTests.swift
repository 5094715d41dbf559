import Foundation
import PKI
@testable import Rendering
import Testing
import Trace

/// Issue #32 item 5: every catalogue key is written out where it is used (a literal, or one literal
/// per case of a switch), so "where does this sentence come from" is one search. Read from the
/// sources: no key is built by string interpolation, and every key-shaped literal in the modules
/// that word things is a key of the English and the Chinese catalogue.
@Suite("Catalogue keys are literals you can grep")
struct CatalogueKeyLiteralTests {
    static var root: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        return url
    }

    static func swiftFiles(under folder: String) throws -> [URL] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// Code without its `//` comments (a comment may name a key pattern such as `party.<name>`).
    static func code(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
        }
    }

    /// A dotted lowercase word followed by an interpolation: `"tcp.errorName.\(x)"`,
    /// `"exchange.requestTimedOut\(suffix)"`, `"afNetworking.release.\(r)"`.
    static var interpolatedKey: Regex<AnyRegexOutput> { try! Regex(#""[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9_]+)*\.[a-zA-Z0-9_]*\\\("#) }

    @Test func noSourceBuildsAKeyByInterpolation() throws {
        let files = try Self.swiftFiles(under: "Sources")
        #expect(files.count > 100)
        var offences: [String] = []
        for file in files {
            let lines = Self.code(try String(contentsOf: file, encoding: .utf8))
            for (i, line) in lines.enumerated() where line.contains(Self.interpolatedKey) {
                offences.append("\(file.path.replacing(Self.root.path + "/", with: "")):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offences.isEmpty, "write the key out (a literal, or a switch with one literal per case):\n\(offences.joined(separator: "\n"))")
    }

    /// The rule catches the interpolations it replaced.
    @Test(arguments: [
        #"return open(tls, master: master, how: Sentence("how.master.\(seed).\(from)"))"#,
        #"let kind = explanations("lesson.kind.\(page.kind)") ?? page.kind"#,
        #"return say("exchange.requestTimedOut\(http2 ? ".http2" : "")", ["ms": "\(ms)"])"#,
        #"say("afNetworking.release.\(release.rawValue)")"#,
        #"out.append(Expectation(key: "summary.\(k)", value: fact, line: sv.line, column: sv.column))"#,
    ])
    func theRuleCatchesTheOldKeys(line: String) {
        #expect(line.contains(Self.interpolatedKey))
    }

    /// Literals shaped like a key of a catalogue namespace that are not keys: once-a-run markers
    /// and a prefix the JSON finding drops.
    static let notKeys: Set<String> = ["chain.keyUsage", "check."]

    /// Every key-shaped literal (`"namespace.rest"` where some catalogue key starts with
    /// `namespace.`) in the modules that word things is a key of both catalogues. Scenarios' lesson
    /// key paths and fact names (`tcp.window`, `summary.master_secret`) and the engines' field
    /// names are not catalogue keys and are not read here.
    @Test func everyLiteralKeyIsInBothCatalogues() throws {
        let english = Explanations.english.text
        let chinese = Explanations.chineseText
        let namespaces = Set(english.keys.compactMap { $0.split(separator: ".").first.map(String.init) })
        let literal = try Regex(#""([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_-]*)+)""#)
        var files: [URL] = []
        for folder in ["Sources/Rendering", "Sources/Simulation", "Sources/Trace", "Sources/tlslab"] {
            files += try Self.swiftFiles(under: folder)
        }
        // The catalogue's own tables define the keys.
        files = files.filter { !$0.lastPathComponent.hasPrefix("Explanations") }
        var used = 0
        var missing: [String] = []
        for file in files {
            for (i, line) in Self.code(try String(contentsOf: file, encoding: .utf8)).enumerated() {
                for match in line.matches(of: literal) {
                    guard let key = match.output[1].substring.map(String.init),
                          let namespace = key.split(separator: ".").first, namespaces.contains(String(namespace)),
                          !Self.notKeys.contains(key) else { continue }
                    used += 1
                    if english[key] == nil || chinese[key] == nil {
                        missing.append("\(file.lastPathComponent):\(i + 1): \(key) (en \(english[key] != nil), zh \(chinese[key] != nil))")
                    }
                }
            }
        }
        #expect(used > 500, "\(used) keys found: the scan lost its way")
        #expect(missing.isEmpty, "keys used but not in the catalogues:\n\(missing.joined(separator: "\n"))")
    }

    /// Files another change of #32 is rewriting (the walkthrough's teacher, the TCP ladder lines):
    /// their last lookups with a fallback of their own go with that rewrite.
    static let fallbackPending: Set<String> = []

    /// Issue #32 §2.19: a lookup of a key written in the sources is never followed by words of the
    /// code's own (`explanations("lesson.nothing") ?? "nothing"`, `?? ""`): the key is in both
    /// catalogues (the test above), and `Explanations.phrase` says it. A fallback literal would be
    /// English in the Chinese text the day a key went missing, or silently nothing.
    @Test func noLookupFallsBackToWordsOfItsOwn() throws {
        var offences: [String] = []
        var lookups = 0
        for file in try Self.swiftFiles(under: "Sources") where !Self.fallbackPending.contains(file.lastPathComponent) {
            let text = Self.code(try String(contentsOf: file, encoding: .utf8)).joined(separator: "\n")
            for found in Self.literalFallbacks(in: text) {
                lookups += 1
                if let line = found { offences.append("\(file.lastPathComponent):\(line)") }
            }
        }
        #expect(lookups > 20, "\(lookups) lookups found: the scan lost its way")
        #expect(offences.isEmpty, "say the catalogue's text (Explanations.phrase), not a fallback of your own:\n\(offences.joined(separator: "\n"))")
    }

    /// Each lookup `explanations("a.key", …)` (or `words(…)`, `self(…)`) in `text`: nil when nothing
    /// follows it, its line number when a string literal follows after `??`.
    static func literalFallbacks(in text: String) -> [Int?] {
        let call = try! Regex(#"\b(?:explanations|words|self)\("[a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+""#)
        let chars = Array(text)
        // Where each call's "(" is, counted in characters.
        let opens = text.matches(of: call).compactMap { match in
            text[match.range].firstIndex(of: "(").map { text.distance(from: text.startIndex, to: $0) }
        }
        return opens.map { open in
            // The call's closing parenthesis, skipping string literals.
            var k = open + 1, depth = 1
            while k < chars.count, depth > 0 {
                switch chars[k] {
                case "\"":
                    k += 1
                    while k < chars.count, chars[k] != "\"" { k += chars[k] == "\\" ? 2 : 1 }
                case "(": depth += 1
                case ")": depth -= 1
                default: break
                }
                k += 1
            }
            var rest = chars[min(k, chars.count)...].drop { $0 == " " || $0 == "\n" }
            guard rest.starts(with: ["?", "?"]) else { return nil }
            rest = rest.dropFirst(2).drop { $0 == " " || $0 == "\n" }
            guard rest.first == "\"" else { return nil }
            return chars[..<open].filter { $0 == "\n" }.count + 1
        }
    }

    /// The scan finds the fallbacks it replaced, and passes a lookup said whole.
    @Test func theFallbackScanFindsTheOldLines() {
        #expect(Self.literalFallbacks(in: #"let a = explanations("lesson.nothing") ?? "nothing""#) == [1])
        #expect(Self.literalFallbacks(in: "x\n" + #"print(words("cli.serve.failed", ["error": "\(f(e))"])"# + "\n    ?? \"serving stopped\")") == [2])
        #expect(Self.literalFallbacks(in: #"(self("cli.file.replaced", ["path": p]) ?? "")"#) == [1])
        #expect(Self.literalFallbacks(in: #"explanations("a.b", ["n": x ?? "?"]) ?? result.line"#) == [nil])
        #expect(Self.literalFallbacks(in: #"explanations.phrase("lesson.nothing")"#).isEmpty)
    }

    /// The switches that name typed values cover the catalogue: each value's key exists.
    @Test func typedValuesHaveTheirKeys() {
        let english = Explanations.english.text
        for actor in Actor.allCases {
            #expect(english[CatalogueKey.party(actor)] != nil, "\(actor)")
            #expect(english[CatalogueKey.actor(actor)] != nil, "\(actor)")
        }
        for kind in ChainCheck.Kind.allCases {
            #expect(english[CatalogueKey.chainKind(kind)] != nil, "\(kind)")
            #expect(english[CatalogueKey.chainWhy(kind)] != nil, "\(kind)")
        }
        for result in TrustResult.allCases { #expect(english[CatalogueKey.trust(result)] != nil, "\(result)") }
        for secret in Secret.allCases { #expect(english[CatalogueKey.secret(secret)] != nil, "\(secret)") }
    }
}
