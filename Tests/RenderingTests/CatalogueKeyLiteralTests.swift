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
