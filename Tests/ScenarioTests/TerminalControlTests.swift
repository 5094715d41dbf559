@testable import Scenarios
import Testing

/// Issue #38 defect 9: no terminal control or bidirectional override from a lesson file reaches any
/// surface, because a lesson's text may not hold one: the file is refused with the field, line and
/// code point named (and the error itself shows it escaped).
@Suite("Lesson text holds no terminal controls or bidi overrides")
struct TerminalControlTests {
    /// OSC 52 (clipboard write), CSI 2J (clear screen), OSC 0 (window title), BEL, a C1 CSI,
    /// DEL, NUL, the right-to-left override and an isolate.
    static let controls: [(escape: String, code: String)] = [
        ("\\e]52;c;aGVsbG8=\\a", "U+001B"), ("\\e[2J", "U+001B"), ("\\e]0;owned\\a", "U+001B"), ("bell\\a", "U+0007"),
        ("\\u009B2J", "U+009B"), ("del\\x7F", "U+007F"), ("nul\\0", "U+0000"), ("\\u202Egnp.exe", "U+202E"), ("\\u2066x\\u2069", "U+2066"),
    ]

    @Test("refused in a title, a description, a Chinese title, a suggestion and an HTTP request", arguments: 0 ..< 9)
    func refusedEverywhere(_ index: Int) {
        let (escape, code) = Self.controls[index]
        let cases: [(text: String, path: String)] = [
            ("title: \"x\(escape)\"\ndescription: a description long enough to teach\nexpect:\n  handshake: success\n", "title"),
            ("title: t\ndescription: \"a description long enough to teach \(escape)\"\nexpect:\n  handshake: success\n", "description"),
            (minimal("title_zh: \"标题\(escape)\"\ndescription_zh: 一段足够长的说明，用来讲清楚一个要点。\n"), "title_zh"),
            (minimal("http:\n  request: \"GET /\(escape) HTTP/1.1\\r\\nHost: example.com\\r\\n\\r\\n\"\n"), "http.request"),
        ]
        for (text, path) in cases {
            let error = validationError(text)
            #expect(error?.path == path, "\(path) with \(escape): \(error.map { "\($0)" } ?? "accepted")")
            #expect(error?.message.contains("control character \(code)") == true, "\(error.map { "\($0)" } ?? "accepted")")
            let description = error.map { "\($0)" } ?? ""
            #expect(!description.unicodeScalars.contains { $0.value < 0x20 || (0x7F ... 0x9F).contains($0.value) || (0x202A ... 0x202E).contains($0.value) })
        }
    }

    @Test("an HTTP message keeps its CR LF; a lesson's words hold no tab or CR, only line feeds")
    func lineBreaks() {
        #expect(validationError(minimal("http:\n  request: \"GET / HTTP/1.1\\r\\nHost: example.com\\r\\n\\r\\n\"\n")) == nil)
        #expect(validationError("title: t\ndescription: \"two lines\\nof a description long enough\"\nexpect:\n  handshake: success\n") == nil)
        for (field, text) in [("title", "title: \"a\\tb\"\ndescription: a description long enough to teach\n"),
                              ("description", "title: t\ndescription: \"overwrite\\rthis description long enough\"\n")] {
            let error = validationError(text + "expect:\n  handshake: success\n")
            #expect(error?.path == field && error?.message.contains("no tab or carriage return") == true, "\(error.map { "\($0)" } ?? "accepted")")
        }
    }

    @Test("a control in a key is named escaped, never raw")
    func keyEscaped() {
        let error = validationError(minimal("\"sead\\e[2J\": 3\n"))
        #expect(error?.message.contains("\\x1B[2J") == true, "\(error.map { "\($0)" } ?? "accepted")")
        #expect(!(error.map { "\($0)" } ?? "").contains("\u{1B}"))
    }
}

/// Issue #38 defect 15: `seed: !!str 7` and `ems: !!str true` were accepted, the tag ignored.
@Suite("Explicit YAML tags are refused where they are written")
struct ExplicitTagTests {
    @Test(arguments: [("seed: !!str 7\n", "seed", "!!str"), ("client: { ems: !!str true }\n", "client.ems", "!!str"),
                      ("seed: !!float 7\n", "seed", "!!float"), ("client: !!set { ems: true }\n", "client", "!!set"),
                      ("server: { suites: !!omap [TLS_RSA_WITH_AES_128_GCM_SHA256] }\n", "server.suites", "!!omap"),
                      ("seed: !custom 7\n", "seed", "!custom"), ("client: { ems: !!bool \"true\" }\n", "client.ems", "!!bool")])
    func refused(_ yaml: String, _ path: String, _ tag: String) {
        let e = validationError(minimal(yaml))
        #expect(e?.path == path, "\(e.map { "\($0)" } ?? "accepted")")
        #expect(e?.message.contains("explicit YAML tag \(tag) is not read") == true, "\(e.map { "\($0)" } ?? "accepted")")
    }

    @Test func untaggedValuesStillRead() {
        #expect(validationError(minimal("seed: 7\nclient: { ems: true }\n")) == nil)
        // A tag that says what the text already says changes nothing, and is read as written.
        #expect(validationError(minimal("seed: !!int 7\nclient: !!map { ems: !!bool true }\n")) == nil)
        #expect(validationError(minimal("seed: \"7\"\n"))?.message.contains("got the string '7'") == true)
    }
}
