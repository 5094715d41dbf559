import Testing
@testable import Scenarios

/// Locations follow the YAML parser's own marks for every line ending (CR LF, CR, LF) and for the
/// characters libyaml also treats as line breaks (NEL, U+2028, U+2029), shown as an editor counts lines.
@Suite("Validation: locations with CRLF, CR, NEL, U+2028 and U+2029")
struct LineEndingTests {
    static func converted(_ text: String, to ending: String) -> String {
        text.replacingOccurrences(of: "\n", with: ending)
    }

    /// The crash of issue #22: a duplicated key in a CRLF file trapped in the text-searching locator.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func duplicateKeyWithEveryLineEnding(_ ending: String) {
        let e = validationError(Self.converted("a: 1\nb: 2\nc:\nc:\n", to: ending))
        #expect(e?.description == "t.yaml:4:1: c: duplicate key 'c' (first written at line 3, column 1); a key may appear once in a mapping")
        let title = validationError(Self.converted("title: x\ntitle: y\n", to: ending))
        #expect(title?.line == 2 && title?.column == 1 && title?.path == "title")
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func nestedDuplicateNamesItsPath(_ ending: String) {
        let e = validationError(Self.converted("x: 0\na:\n  b: 1\n  b: 2\n", to: ending))
        #expect(e?.line == 4 && e?.column == 3 && e?.path == "a.b", "\(e.map { "\($0)" } ?? "valid")")
        let deep = validationError(Self.converted(minimal("client:\n  policy:\n    afnetworking:\n      mode: none\n      allow_invalid: true\n      mode: certificate\n"), to: ending))
        #expect(deep?.line == 8 && deep?.column == 7 && deep?.path == "client.policy.afnetworking.mode")
    }

    @Test func thirdOccurrenceAndQuotedKeys() {
        let three = validationError(minimal("seed: 1\nseed: 2\nseed: 3\n"))
        #expect(three?.line == 4 && three?.column == 1 && three?.path == "seed")
        let quoted = validationError(minimal("\"seed\": 1\nnow: 0\n'seed': 2\n"))
        #expect(quoted?.line == 5 && quoted?.column == 1 && quoted?.path == "seed", "\(quoted.map { "\($0)" } ?? "valid")")
        let flow = validationError(minimal("server: { ems: true, alpn: [h2], ems: false }\n"))
        #expect(flow?.line == 3 && flow?.column == 34 && flow?.path == "server.ems")
        let listed = validationError("a:\n  - { k: 1 }\n  - k: 2\n    k: 3\n")
        #expect(listed?.line == 4 && listed?.column == 5 && listed?.path == "a[1].k", "\(listed.map { "\($0)" } ?? "valid")")
    }

    /// libyaml ends a line at NEL/LS/PS; an editor does not. The error is placed where the editor shows it.
    @Test(arguments: ["\u{2028}", "\u{2029}", "\u{85}"])
    func separatorsEarlierInTheFileDoNotMoveLocations(_ separator: String) {
        let prefix = "title: t\ndescription: \"a description\(separator)long enough\(separator)to teach\"\n"
        let unknown = validationError(prefix + "sead: 3\nexpect:\n  handshake: success\n")
        #expect(unknown?.line == 3 && unknown?.column == 1 && unknown?.path == "sead", "\(unknown.map { "\($0)" } ?? "valid")")
        let duplicate = validationError(prefix + "seed: 1\nseed: 2\nexpect:\n  handshake: success\n")
        #expect(duplicate?.description == "t.yaml:4:1: seed: duplicate key 'seed' (first written at line 3, column 1); a key may appear once in a mapping",
                "\(duplicate.map { "\($0)" } ?? "valid")")
        let typed = validationError(prefix + "seed: x\nexpect:\n  handshake: success\n")
        #expect(typed?.line == 3 && typed?.column == 7)
    }

    @Test func syntaxErrorsAreLocatedWithCRLineEnds() {
        let e = validationError("title: t\rdescription: [\r")
        #expect(e != nil && e!.line >= 2, "\(e.map { "\($0)" } ?? "valid")")
    }

    /// libyaml's own message names a C function; the author sees what is wrong instead.
    @Test func deepNestingIsExplainedWithoutLibyamlsFunctionName() {
        let e = validationError(String(repeating: "[", count: 1100))
        #expect(e != nil)
        #expect(e?.message.contains("yaml_set_max_nest_level") == false)
        #expect(e?.message.contains("more than 1000 levels") == true, "\(e.map { "\($0)" } ?? "valid")")
    }
}
