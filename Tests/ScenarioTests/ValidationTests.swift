import HTTP2
@testable import Scenarios
import Testing
import Trace
import Trust

@Suite("Validation: every error is located, typed and suggests near misses")
struct ValidationTests {
    @Test func unknownKeyWithSuggestion() {
        let e = validationError(minimal("server:\n  sutes: [TLS_RSA_WITH_AES_128_GCM_SHA256]\n"))
        #expect(e?.description == "t.yaml:4:3: server.sutes: unknown key 'sutes'; expected one of: chain, suites, min_version, max_version, dh_group, ems, client_auth, client_cas, subject_whitelist, alpn, groups, versions, early_data; did you mean 'suites'?")
    }

    @Test func alpnNames() {
        let empty = validationError(minimal("client:\n  alpn: [h2, \"\"]\n"))
        #expect(empty?.path == "client.alpn[1]" && empty?.message.contains("1…255 bytes") == true, "\(empty.map { "\($0)" } ?? "valid")")
        let long = validationError(minimal("server:\n  alpn: [\(String(repeating: "a", count: 256))]\n"))
        #expect(long?.path == "server.alpn[0]", "\(long.map { "\($0)" } ?? "valid")")
        let scalar = validationError(minimal("server:\n  alpn: h2\n"))
        #expect(scalar?.path == "server.alpn", "a list, not a string: \(scalar.map { "\($0)" } ?? "valid")")
        #expect(validationError(minimal("server:\n  alpn: [h2]\nclient:\n  alpn: [h2, http/1.1]\n")) == nil)
    }

    @Test func unknownTopLevelKey() {
        let e = validationError(minimal("sead: 3\n"))
        #expect(e?.line == 3 && e?.column == 1 && e?.path == "sead")
        #expect(e?.message.hasSuffix("did you mean 'seed'?") == true)
    }

    @Test func wrongType() {
        let e = validationError(minimal("seed: seven\n"))
        #expect(e?.description == "t.yaml:3:7: seed: expected a whole number ≥ 0, got the string 'seven'")
        let b = validationError(minimal("client: { ems: \"yes\" }\n"))
        #expect(b?.description == "t.yaml:3:16: client.ems: expected true or false, got the string 'yes'")
    }

    @Test func badEnumValueWithSuggestion() {
        let e = validationError(minimal("client:\n  policy:\n    afnetworking: { mode: publickey }\n"))
        #expect(e?.description == "t.yaml:5:27: client.policy.afnetworking.mode: expected one of: none, publicKey, certificate, got the string 'publickey'; did you mean 'publicKey'?")
        let x = validationError(minimal("", expect: "expect:\n  alert: certificate_expird\n"))
        #expect(x?.description.hasPrefix("t.yaml:4:10: expect.alert: expected one of:") == true)
        #expect(x?.description.hasSuffix("did you mean 'certificate_expired'?") == true)
    }

    @Test func missingRequiredKey() {
        let e = validationError("description: a description long enough to teach\nexpect: { handshake: success }\n")
        #expect(e?.description == "t.yaml:1:1: title: missing required key 'title': expected a one-line string: the lesson's name")
        let f = validationError(minimal("network:\n  faults:\n    - { from: client, action: drop }\n"))
        #expect(f?.description == "t.yaml:5:7: network.faults[0].nth: missing required key 'nth': expected a whole number ≥ 1")
        let m = validationError(minimal("client:\n  policy:\n    afnetworking: { pinned: [demo-leaf] }\n"))
        #expect(m?.description == "t.yaml:5:19: client.policy.afnetworking.mode: missing required key 'mode': expected one of: none, publicKey, certificate")
    }

    @Test func contradictions() {
        let pin = validationError(minimal("client:\n  policy:\n    afnetworking: { mode: certificate, pinned: [demo-lef] }\n"))
        #expect(pin?.description == "t.yaml:5:49: client.policy.afnetworking.pinned[0]: expected the name of a certificate of the PKI (attacker, demo-leaf, demo-root), got 'demo-lef'; did you mean 'demo-leaf'?")
        let empty = validationError(minimal("client:\n  policy:\n    afnetworking: { mode: certificate, pinned: [] }\n"))
        #expect(empty?.path == "client.policy.afnetworking.pinned" && empty?.message.hasPrefix("contradiction") == true)
        let versions = validationError(minimal("server: { min_version: TLS1.2, max_version: TLS1.0 }\n"))
        #expect(versions?.description == "t.yaml:3:11: server.min_version: contradiction: min_version is above max_version")
        let cas = validationError(minimal("server: { client_cas: [demo-root] }\n"))
        #expect(cas?.message.hasPrefix("contradiction: client_auth is none") == true)
        let kind = validationError("title: t\ndescription: a description long enough to teach\nkind: tcp\nserver: {}\nactions: []\nexpect: { accepted: false }\n")
        #expect(kind?.description.hasPrefix("t.yaml:4:1: server: key 'server' does not apply to a scenario of kind tcp") == true)
    }

    @Test func http2Contradictions() {
        let push = validationError(minimal("http: { mode: keep-alive, push: [/a.css] }\n"))
        #expect(push?.path == "http.push" && push?.message.hasPrefix("contradiction: server push is HTTP/2's") == true)
        let path = validationError(minimal("http: { mode: h2, push: [a.css] }\n"))
        #expect(path?.path == "http.push[0]" && path?.message.hasPrefix("expected a path starting with /") == true)
        let resume = validationError(minimal("http: { mode: h2, resumption: true }\n"))
        #expect(resume?.path == "http.resumption" && resume?.message.hasPrefix("contradiction") == true)
        let mitm = validationError(minimal("http: { mode: h2 }\nattacker: { kind: mitm }\n"))
        #expect(mitm?.path == "attacker" && mitm?.message.hasPrefix("contradiction: with http.mode h2") == true)
        #expect(validationError(minimal("http: { mode: h2, push: [/a.css] }\nattacker: { kind: eavesdropper }\n")) == nil)
        let limit = validationError(minimal("http: { mode: keep-alive, max_concurrent_streams: 2 }\n"))
        #expect(limit?.path == "http.max_concurrent_streams" && limit?.message.hasPrefix("contradiction: SETTINGS_MAX_CONCURRENT_STREAMS is HTTP/2's") == true)
        let zero = validationError(minimal("http: { mode: h2, max_concurrent_streams: 0 }\n"))
        #expect(zero?.path == "http.max_concurrent_streams", "\(String(describing: zero))")
        #expect(validationError(minimal("http: { mode: h2, max_concurrent_streams: 1 }\n")) == nil)
    }

    @Test func yamlSyntaxAndGarbage() {
        let e = validationError("title: [unclosed\n")
        #expect(e != nil && e?.message.hasPrefix("YAML syntax") == true && (e?.line ?? 0) >= 1)
        let nul = validationError("title: a\u{0}b\n")
        #expect(nul?.description == "t.yaml:1:9: expected YAML text, got the control character U+0")
        do {
            _ = try ScenarioParser.parse(data: [0x74, 0x3A, 0x20, 0xFF, 0xFE], file: "b.yaml")
            Issue.record("accepted bytes that are not UTF-8")
        } catch {
            #expect(error.file == "b.yaml" && error.message.contains("not UTF-8"))
        }
        #expect(validationError("")?.description == "t.yaml:1:1: expected a mapping with the scenario's keys, got an empty document")
        #expect(validationError("- a\n- b\n")?.message.hasPrefix("expected a mapping") == true)
    }

    @Test func aliasBombIsRefused() {
        var text = "title: t\ndescription: a description long enough to teach\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1 ..< 8 { text += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        text += "expect: { handshake: success }\n"
        let e = validationError(text)
        #expect(e?.message.hasPrefix("expected a scenario of at most 50000 YAML nodes") == true)
    }

    @Test func aTCPScriptStepThatCannotRunFails() throws {
        let text = "title: t\ndescription: a description long enough to teach\nkind: tcp\nactions:\n  - { do: connect }\n"
            + "  - { at_ms: 0, do: send, by: server, text: early }\nexpect: { accepted: true }\n"
        let s = try ScenarioParser.parse(text: text, file: "t.yaml")
        // The problem is typed (issue #34: the command line words it, RunProblemWordsTests); the
        // engine-level line shows its kind and values.
        #expect(ScenarioCheck.check(s).line == "FAIL t: actions: expected [], got [noConnection(send, server)]")
        #expect(s.run().facts["script_errors"] == .problems([.noConnection(action: "send", side: "server")]))
    }

    @Test func attackersThatNeedTLS() {
        let tamper = validationError(minimal("http: { tls: false }\nattacker: { kind: tamper, message: ServerHello, sender: server, offset: 6 }\n"))
        #expect(tamper?.description == "t.yaml:4:36: attacker.message: contradiction: over plain HTTP (http.tls: false) there is no ServerHello to tamper with; expected HTTPRequest or HTTPResponse")
        let replay = validationError(minimal("http: { tls: false }\nattacker: { kind: replay }\n"))
        #expect(replay?.description == "t.yaml:4:13: attacker.kind: contradiction: attacker replay needs TLS, but http.tls is false")
        // The HTTP bytes themselves can be changed on a plain connection.
        #expect(validationError(minimal("http: { tls: false }\nattacker: { kind: tamper, message: HTTPResponse, sender: server, offset: 70 }\n",
                                        expect: "expect: { handshake: none }\n")) == nil)
        let cert = validationError(minimal("http: { tls: false }\nattacker: { kind: mitm, certificate: attacker }\n"))
        #expect(cert?.path == "attacker.certificate" && cert?.message.hasPrefix("contradiction: over plain HTTP") == true)
        #expect(validationError(minimal("http: { tls: false }\nattacker: { kind: mitm }\n", expect: "expect: { handshake: none }\n")) == nil)
    }

    @Test func segmentLinesAreComparedInOrderAndQuotedInTheFailure() throws {
        let text = "title: t\ndescription: a description long enough to teach\nkind: tcp\nactions:\n  - { do: connect }\nrun_ms: 500\n"
            + "expect:\n  segments: [\"client [S] seq 0, length 0\", \"server [S.] seq 0, ack 2, length 0\"]\n"
        let s = try ScenarioParser.parse(text: text, file: "t.yaml")
        #expect(ScenarioCheck.check(s).line == "FAIL t: segments: expected [\"client [S] seq 0, length 0\", \"server [S.] seq 0, ack 2, length 0\"], "
                + "got [\"client [S] seq 0, length 0\", \"server [S.] seq 0, ack 1, length 0\", \"client [.] seq 1, ack 1, length 0\"]")
        let wrong = validationError(text.replacingOccurrences(of: "segments: [", with: "segments: [[1], "))
        #expect(wrong?.path == "expect.segments[0]" && wrong?.message == "expected a string, got a list")
    }

    @Test func duplicateKey() {
        let e = validationError(minimal("seed: 1\nseed: 2\n"))
        #expect(e?.description == "t.yaml:4:1: seed: duplicate key 'seed' (first written at line 3, column 1); a key may appear once in a mapping")
        // Nested: the error points at the second occurrence and names the full key path.
        let nested = validationError(minimal("client:\n  policy:\n    afnetworking:\n      mode: none\n      allow_invalid: true\n      mode: certificate\n"))
        #expect(nested?.line == 8 && nested?.column == 7 && nested?.path == "client.policy.afnetworking.mode")
        let inList = validationError(minimal("network:\n  faults:\n    - { from: client, nth: 1, action: drop }\n    - from: server\n      nth: 2\n      nth: 3\n      action: drop\n"))
        #expect(inList?.line == 8 && inList?.column == 7 && inList?.path == "network.faults[1].nth")
        let flow = validationError(minimal("server: { ems: true, ems: false }\n"))
        #expect(flow?.line == 3 && flow?.column == 22 && flow?.path == "server.ems")
    }

    @Test func aByteOrderMarkIsNotPartOfTheText() throws {
        let text = "\u{FEFF}" + minimal()
        #expect(validationError(text) == nil)
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(minimal("seed: x\n").utf8)
        do {
            _ = try ScenarioParser.parse(data: bytes, file: "b.yaml")
            Issue.record("accepted a bad seed")
        } catch {
            // Columns count from the first character after the mark.
            #expect(error.description == "b.yaml:3:7: seed: expected a whole number ≥ 0, got the string 'x'")
        }
    }

    @Test func lastResponseMinusOneMeansNoResponse() throws {
        // A handshake that fails: no response ever arrives, which the README writes as −1.
        let text = minimal("client: { host: mail.example.com }\n", expect: "expect:\n  handshake: failure\n  last_response_us: -1\n")
        #expect(ScenarioCheck.check(try ScenarioParser.parse(text: text, file: "t.yaml")).line == "PASS t")
        let ok = minimal("", expect: "expect:\n  last_response_us: -1\n")
        #expect(ScenarioCheck.check(try ScenarioParser.parse(text: ok, file: "t.yaml")).line.hasPrefix("FAIL t: last_response_us: expected -1, got "))
        #expect(validationError(minimal("", expect: "expect:\n  last_response_us: -2\n"))?.path == "expect.last_response_us")
    }

    @Test func expectNeedsAtLeastOneKeyAndKnownFacts() {
        #expect(validationError(minimal("", expect: "expect: {}\n"))?.message == "expected at least one expectation")
        let e = validationError(minimal("", expect: "expect:\n  handshak: success\n"))
        #expect(e?.message.hasSuffix("did you mean 'handshake'?") == true)
        let s = validationError(minimal("", expect: "expect:\n  summary: { outcom: success }\n"))
        #expect(s?.path == "expect.summary.outcom" && s?.message.hasSuffix("did you mean 'outcome'?") == true)
    }

    @Test func suggestionsOnlyForNearMisses() {
        #expect(Spelling.suggestion(for: "sutes", among: ["suites", "seed"]) == "suites")
        #expect(Spelling.suggestion(for: "zzzzzz", among: ["suites", "seed"]) == nil)
        #expect(Spelling.distance("kitten", "sitting") == 3)
        #expect(Spelling.distance("aplm", "alpn") == 2, "a swapped pair is one edit")
        #expect(Spelling.distance("ab", "ba") == 1 && Spelling.distance("abc", "abc") == 0)
        #expect(Spelling.suggestion(for: "aplm", among: ["alpn", "suites", "ems"]) == "alpn")
        #expect(Spelling.suggestion(for: "pushed", among: ["pushed_responses", "streams"]) == "pushed_responses")
        #expect(Spelling.suggestion(for: "s", among: ["streams", "suites"]) == nil)
    }
}
