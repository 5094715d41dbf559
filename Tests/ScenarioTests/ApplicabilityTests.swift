import HTTP2
@testable import Scenarios
import Testing
import Trace
import Trust

/// Attacker settings and scripted faults that could never act are not silently ignored: an
/// impossible combination is a located error at parse time, and one that found nothing to act on
/// during the run fails the scenario with a "not applied" message.
@Suite("Never a silent default: attacks and faults that cannot apply")
struct ApplicabilityTests {
    func check(_ text: String) throws -> String {
        ScenarioCheck.check(try ScenarioParser.parse(text: text, file: "t.yaml")).line
    }

    @Test func aMessageTheSenderNeverSendsIsRefusedAtParseTime() {
        let e = validationError(minimal("attacker: { kind: tamper, message: ServerHello, sender: client, offset: 6 }\n"))
        #expect(e?.description == "t.yaml:3:49: attacker.sender: contradiction: the client never sends a ServerHello in TLS 1.2 (only the server does); expected sender: server")
        let c = validationError(minimal("attacker: { kind: tamper, message: ClientKeyExchange, sender: server, offset: 6 }\n"))
        #expect(c?.path == "attacker.sender" && c?.message.hasPrefix("contradiction: the server never sends a ClientKeyExchange") == true)
        // Both sides send Certificate and Finished.
        #expect(validationError(minimal("attacker: { kind: tamper, message: Certificate, sender: client, offset: 6 }\n")) == nil)
    }

    @Test func anOffsetPastTheMessageFailsTheRun() throws {
        let line = try check(minimal("attacker: { kind: tamper, message: ServerHello, sender: server, offset: 60000 }\n",
                                     expect: "expect:\n  handshake: success\n"))
        #expect(line.hasPrefix("FAIL t: not_applied: expected [], got [\"attacker: tamper never applied: the server's ServerHello is "))
        #expect(line.hasSuffix("bytes (4-byte header included), so it has no byte at offset 60000\"]"))
    }

    @Test func aMessageNeverSentInThisRunFailsTheRun() throws {
        // No client authentication: the server never sends CertificateRequest.
        let line = try check(minimal("attacker: { kind: tamper, message: CertificateRequest, sender: server, offset: 4 }\n"))
        #expect(line == "FAIL t: not_applied: expected [], got [attacker: tamper never applied: the server never sent a CertificateRequest in this run]")
    }

    @Test func aReplayOfARecordThatNeverCameFailsTheRun() throws {
        let line = try check(minimal("attacker: { kind: replay, record: 500 }\n"))
        #expect(line == "FAIL t: not_applied: expected [], got [attacker: replay never applied: the client never sent application-data record 500 (counting from 0)]")
        // Record 0 exists: the replay happens and the run goes on to its expectations.
        #expect(try check(minimal("attacker: { kind: replay, record: 0 }\n", expect: "expect:\n  alert: bad_record_mac\n")) == "PASS t")
    }

    @Test func strippingSuitesTheClientNeverOffersIsAContradiction() {
        let e = validationError(minimal("client: { suites: [TLS_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256] }\n"
                                        + "attacker: { kind: strip_suites, suites: [TLS_DHE_RSA_WITH_AES_128_GCM_SHA256] }\n"))
        #expect(e?.description == "t.yaml:4:42: attacker.suites[0]: contradiction: the client never offers TLS_DHE_RSA_WITH_AES_128_GCM_SHA256 (client.suites), so stripping it changes nothing")
        let all = validationError(minimal("client: { suites: [TLS_RSA_WITH_AES_128_GCM_SHA256] }\n"
                                          + "attacker: { kind: strip_suites, suites: [TLS_RSA_WITH_AES_128_GCM_SHA256] }\n"))
        #expect(all?.path == "attacker.suites" && all?.message.hasPrefix("contradiction: stripping every suite") == true)
    }

    @Test func aFaultOnASegmentThatNeverComesFailsTheRun() throws {
        let line = try check(minimal("network: { faults: [{ from: client, nth: 9999, action: drop }] }\n"))
        #expect(line.hasPrefix("FAIL t: not_applied: expected [], got [\"network.faults[0]: the client sent only "))
        #expect(line.hasSuffix("segment(s) to the server, so segment 9999 never came and the fault never applied\"]"))
        let tcp = "title: t\ndescription: a description long enough to teach\nkind: tcp\nnetwork: { faults: [{ from: server, nth: 50, action: drop }] }\n"
            + "actions:\n  - { do: connect }\nexpect: { accepted: true }\n"
        #expect(try check(tcp).hasPrefix("FAIL t: not_applied: expected [], got [\"network.faults[0]: the server sent only 1 segment(s) to the client"))
        // The same fault on a segment that exists applies, and the scenario passes.
        #expect(try check(minimal("network: { faults: [{ from: client, nth: 1, action: drop }] }\n")) == "PASS t")
    }

    @Test func anHTTPTamperPastTheResponseFailsTheRun() throws {
        let line = try check(minimal("http: { tls: false }\nattacker: { kind: tamper, message: HTTPResponse, sender: server, offset: 5000 }\n",
                                     expect: "expect:\n  handshake: none\n"))
        #expect(line == "FAIL t: not_applied: expected [], got [attacker: tamper never applied: the server sent no HTTPResponse with a byte at offset 5000]")
        let wrongSide = validationError(minimal("attacker: { kind: tamper, message: HTTPRequest, sender: server, offset: 3 }\n"))
        #expect(wrongSide?.path == "attacker.sender")
    }

    @Test func http09RulesAreChecked() {
        let tls = validationError(minimal("http: { mode: http/0.9 }\n"))
        #expect(tls?.path == "http.mode" && tls?.message == "contradiction: HTTP/0.9 (1991) predates TLS; set tls: false")
        let header = validationError(minimal("http: { tls: false, mode: http/0.9, request: \"GET /a HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n\" }\n"))
        #expect(header?.path == "http.request" && header?.message.hasPrefix("expected an HTTP/0.9 request") == true)
        let post = validationError(minimal("http: { tls: false, mode: http/0.9, requests: [\"POST /a\\r\\n\"] }\n"))
        #expect(post?.path == "http.requests[0]")
        let status = validationError(minimal("http: { tls: false, mode: http/0.9, response: \"HTTP/1.0 200 OK\\r\\n\\r\\nhi\" }\n"))
        #expect(status?.path == "http.response" && status?.message.hasPrefix("contradiction: an HTTP/0.9 response") == true)
        #expect(validationError(minimal("http: { tls: false, mode: http/0.9 }\n", expect: "expect: { responses: 1 }\n")) == nil)
    }

    @Test func afnetworkingModeNoneWithPinsIsAContradiction() {
        let e = validationError(minimal("client:\n  policy:\n    afnetworking: { mode: none, pinned: [demo-leaf] }\n"))
        #expect(e?.path == "client.policy.afnetworking.pinned")
        #expect(e?.line == 5 && e?.column == 33)
        #expect(e?.message.hasPrefix("contradiction: AFNetworking ignores pinnedCertificates in mode none") == true)
    }

    @Test func bundledAnchorNeedsKnownCertificates() {
        let empty = validationError(minimal("client:\n  policy:\n    bundled_anchor: { certificates: [] }\n"))
        #expect(empty?.path == "client.policy.bundled_anchor.certificates")
        #expect(empty?.message.hasPrefix("contradiction: an empty anchor list") == true)
        let both = validationError(minimal("client:\n  anchors: [demo-root]\n  policy:\n    bundled_anchor: { certificates: [demo-root] }\n"))
        #expect(both?.path == "client.anchors" && both?.message.contains("would play no part") == true, "\(String(describing: both))")
        let typo = validationError(minimal("client:\n  policy:\n    bundled_anchor: { certificates: [demo-rot] }\n"))
        #expect(typo?.message.contains("did you mean 'demo-root'") == true, "\(String(describing: typo))")
        let missing = validationError(minimal("client:\n  policy:\n    bundled_anchor: { anchors_only: false }\n"))
        #expect(missing?.message.contains("certificates") == true, "\(String(describing: missing))")
    }

    @Test func alpnAndHTTP2SettingsThatCannotActAreRefused() {
        let plain = validationError(minimal("client: { alpn: [h2] }\nhttp: { tls: false }\n"))
        #expect(plain?.path == "client.alpn" && plain?.message.hasPrefix("contradiction: ALPN is a TLS extension") == true, "\(String(describing: plain))")
        let h1 = validationError(minimal("client: { alpn: [http/1.1] }\nhttp: { mode: h2 }\n"))
        #expect(h1?.path == "client.alpn" && h1?.message.contains("speaks only HTTP/2") == true, "\(String(describing: h1))")
        let number = validationError(minimal("server: { alpn: [1] }\n"))
        #expect(number?.path == "server.alpn[0]" && number?.message.contains("got the number 1") == true, "\(String(describing: number))")
        let twice = validationError(minimal("http: { mode: h2, push: [/a.css, /a.css] }\n"))
        #expect(twice?.path == "http.push[1]" && twice?.message.contains("already pushed") == true, "\(String(describing: twice))")
        let garbage = validationError(minimal("http: { mode: h2, request: garbage }\n"))
        #expect(garbage?.path == "http.request" && garbage?.message.contains("HTTP/1.1 messages") == true, "\(String(describing: garbage))")
        let response = validationError(minimal("http: { mode: h2, response: garbage }\n"))
        #expect(response?.path == "http.response", "\(String(describing: response))")
        // Still fine: h2 with the defaults, and an explicit server that ignores ALPN.
        #expect(validationError(minimal("http: { mode: h2 }\n")) == nil)
        #expect(validationError(minimal("server: { alpn: [] }\nhttp: { mode: h2 }\n")) == nil)
    }

    @Test func toyGroupsCannotCarryAHandshake() {
        let e = validationError(minimal("server: { suites: [TLS_DHE_RSA_WITH_AES_128_GCM_SHA256], dh_group: toy-p5-g7 }\n"))
        #expect(e?.path == "server.dh_group" && e?.message.contains("show its arithmetic with kind: dh") == true)
    }
}
