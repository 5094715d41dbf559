import Foundation
import HTTP2
@testable import Scenarios
import Testing
import Trace
import Trust

/// A lesson proves its point only if it fails without the setting that makes the point: each case
/// removes or flips that one setting of a library file and expects `tlslab check` to report FAIL.
@Suite("Lessons are not vacuous: without their key setting they fail")
struct VacuityTests {
    struct Mutation: CustomTestStringConvertible, Sendable {
        var file: String
        var remove: String
        var insert: String = ""
        var testDescription: String { "\(file) without \(remove.debugDescription)" }
    }

    static let mutations: [Mutation] = [
        // ATS is what refuses SHA-1 and RSA-1024 here (the system check alone answers differently).
        Mutation(file: "certs/sha1-signature.yaml", remove: "client:\n  ats: {}\n"),
        Mutation(file: "certs/rsa-1024.yaml", remove: "client:\n  ats: {}\n"),
        Mutation(file: "certs/self-signed-leaf.yaml", remove: ", defect: self-signed-leaf"),
        // The attacker.
        Mutation(file: "attacks/replay.yaml", remove: "attacker: { kind: replay, record: 0 }\n"),
        Mutation(file: "attacks/tamper-server-hello.yaml", remove: "attacker: { kind: tamper, message: ServerHello, sender: server, offset: 10 }\n"),
        Mutation(file: "attacks/mitm-trust-everything.yaml", remove: "attacker: { kind: mitm, certificate: attacker }\n"),
        Mutation(file: "attacks/mitm-pinned-client.yaml", remove: "attacker: { kind: mitm, certificate: attacker }\n"),
        Mutation(file: "attacks/forward-secrecy-rsa.yaml", remove: "attacker: { kind: steal_server_key }\n"),
        Mutation(file: "attacks/http-plain-cookie.yaml", remove: "  tls: false\n"),
        // The policy or the flag the lesson is about.
        Mutation(file: "afnetworking/no-domain-check.yaml", remove: ", validates_domain: false"),
        Mutation(file: "afnetworking/must-use-pinning.yaml", remove: "allow_invalid: true, "),
        Mutation(file: "mtls/unknown-client-ca.yaml", remove: "client_cas: [root]", insert: "client_cas: [client-root]"),
        Mutation(file: "tls/ems-on.yaml", remove: "client:\n  ems: true\n", insert: "client:\n  ems: false\n"),
        Mutation(file: "tls/ems-off.yaml", remove: "client:\n  ems: false\n", insert: "client:\n  ems: true\n"),
        // Without the server's ALPN list nothing is negotiated (alpn: none).
        Mutation(file: "tls/alpn.yaml", remove: "  alpn: [h2, http/1.1]      # the server's preference order\n"),
        Mutation(file: "tls/small-dh-group-refused.yaml", remove: "client:\n  min_dh_bits: 3072\n"),
        Mutation(file: "tls/toy-dh-group.yaml", remove: "client_private: 2", insert: "client_private: 3"),
        // ATS dictionaries.
        Mutation(file: "ats/web-content-disables-arbitrary-loads.yaml", remove: "  NSAllowsArbitraryLoadsInWebContent: true\n"),
        Mutation(file: "ats/http-exception.yaml", remove: "NSExceptionAllowsInsecureHTTPLoads: true", insert: "NSIncludesSubdomains: true"),
        Mutation(file: "ats/pinned-leaf-mismatch.yaml", remove: "NSPinnedLeafIdentities: [demo-root]", insert: "NSPinnedLeafIdentities: [demo-leaf]"),
        Mutation(file: "attacks/mitm-own-domain-no-domain-check.yaml", remove: ", validates_domain: false"),
        Mutation(file: "attacks/mitm-own-domain-default.yaml", remove: "attacker: { kind: mitm, certificate: demo-leaf }\n"),
        Mutation(file: "certs/bundled-anchor-other-ca.yaml", remove: "  policy: { bundled_anchor: { certificates: [demo-root] } }   # … but only the bundled certificate counts\n"),
        Mutation(file: "certs/bundled-anchor.yaml", remove: "  policy: { bundled_anchor: { certificates: [demo-root] } }\n"),
        Mutation(file: "certs/bundled-anchor-plus-system.yaml", remove: ", anchors_only: false"),
        // The quiz pair: the mode decides, not the pin.
        Mutation(file: "afnetworking/renewal-public-key-pinning.yaml", remove: "mode: publicKey", insert: "mode: certificate"),
        Mutation(file: "afnetworking/renewal-certificate-pinning.yaml", remove: "mode: certificate", insert: "mode: publicKey"),
        Mutation(file: "attacks/http-plain-tamper.yaml", remove: "attacker: { kind: tamper, message: HTTPResponse, sender: server, offset: 79, value: 57 }   # 57 is \"9\"\n"),
        Mutation(file: "attacks/http-plain-tamper.yaml", remove: "  tls: false\n"),
        Mutation(file: "attacks/https-tamper-detected.yaml", remove: "attacker: { kind: tamper, message: HTTPResponse, sender: server, offset: 79, value: 57 }\n"),
        Mutation(file: "http/http09.yaml", remove: "  mode: http/0.9\n  requests: [\"GET /index.html\\r\\n\", \"GET /logo.txt\\r\\n\"]\n  response: \"<html>hello</html>\\n\"\n",
                 insert: "  mode: http/1.0\n  requests: [\"GET /index.html HTTP/1.0\\r\\n\\r\\n\", \"GET /logo.txt HTTP/1.0\\r\\n\\r\\n\"]\n  response: \"HTTP/1.0 200 OK\\r\\nContent-Length: 19\\r\\n\\r\\n<html>hello</html>\\n\"\n"),
        Mutation(file: "ats/default-blocks-http.yaml", remove: "scheme: http }", insert: "scheme: https }"),
        Mutation(file: "ats/tls10-blocked.yaml", remove: ", tls_version: TLSv1.0"),
        Mutation(file: "attacks/strip-suites.yaml", remove: "attacker:\n  kind: strip_suites\n  suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, TLS_DHE_RSA_WITH_AES_128_CBC_SHA256]\n"),
        Mutation(file: "attacks/weak-client-random.yaml", remove: "attacker: { kind: weak_client_random, process_id_space: 64, clock_window_ms: 10 }\n"),
        // HTTP/2: the mode, the push list, TLS.
        Mutation(file: "http/http2-multiplexing.yaml", remove: "  mode: h2\n", insert: "  mode: keep-alive\n"),
        Mutation(file: "http/http2-header-compression.yaml", remove: "  mode: h2\n", insert: "  mode: pipelining\n"),
        Mutation(file: "http/http2-server-push.yaml", remove: "  push: [/style.css]\n"),
        Mutation(file: "http/http2-stream-limit.yaml", remove: "  max_concurrent_streams: 2\n"),
        Mutation(file: "http/http2-needs-alpn.yaml", remove: "server:\n  alpn: [http/1.1]\n"),
        Mutation(file: "http/http2-prohibited-suite.yaml", remove: "  suites: [TLS_RSA_WITH_AES_128_GCM_SHA256]\n",
                 insert: "  suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]\n"),
        Mutation(file: "attacks/h2c-eavesdropper.yaml", remove: "  tls: false\n"),
        // TCP: the scripted loss.
        Mutation(file: "tcp/lost-syn.yaml", remove: "    - { from: client, nth: 1, action: drop }\n", insert: "    []\n"),
        // TLS 1.3: the version, the wrong key-share guess, resumption, the certificate request, the attackers.
        Mutation(file: "tls13/one-round-trip.yaml", remove: "version: \"1.3\"\n"),
        Mutation(file: "tls13/hello-retry-request.yaml", remove: "server:\n  groups: [x25519]\n"),
        Mutation(file: "tls13/resumption-psk.yaml", remove: "  resumption: true\n"),
        Mutation(file: "tls13/client-certificate.yaml", remove: "version: \"1.3\"\n"),
        Mutation(file: "tls13/mitm-refused.yaml", remove: "attacker: { kind: mitm, certificate: attacker }\n"),
        Mutation(file: "tls13/key-theft-opens-nothing.yaml", remove: "version: \"1.3\"\n"),
        // The downgrade and 0-RTT lessons: the attacker, the client's early data, the server's anti-replay.
        Mutation(file: "tls13/downgrade-sentinel.yaml", remove: "attacker: { kind: strip_tls13 }\n"),
        Mutation(file: "tls13/zero-rtt.yaml", remove: "client:\n  early_data: true\n"),
        Mutation(file: "tls13/zero-rtt-replayed.yaml", remove: "attacker: { kind: replay_early_data }\n"),
        Mutation(file: "tls13/zero-rtt-replay-single-use.yaml", remove: ", anti_replay: single_use_tickets"),
        Mutation(file: "tls13/zero-rtt-replay-recorded.yaml", remove: ", anti_replay: client_hello_recording, window_ms: 10000"),
    ]

    @Test(arguments: mutations)
    func withoutItsKeySettingTheLessonFails(_ m: Mutation) throws {
        let path = Library.root + "/" + m.file
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(m.remove), "the setting to remove is no longer in \(m.file)")
        guard text.contains(m.remove) else { return }
        // The unchanged file passes …
        if case .pass = ScenarioCheck.check(try ScenarioParser.parse(text: text, file: m.file)) {} else {
            Issue.record("\(m.file) does not pass as it is")
        }
        // … and fails (a valid file whose expectations no longer hold) without its key setting.
        let mutated = text.replacingOccurrences(of: m.remove, with: m.insert)
        let scenario = try ScenarioParser.parse(text: mutated, file: m.file)
        let result = ScenarioCheck.check(scenario)
        guard case .fail = result else {
            Issue.record("\(m.file) still passes without \(m.remove.debugDescription): the lesson does not prove its point")
            return
        }
    }
}
