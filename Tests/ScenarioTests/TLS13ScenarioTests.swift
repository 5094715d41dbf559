import Foundation
@testable import Scenarios
import Simulation
import Testing
import TLSEngine
import Trace

/// `version: "1.3"` in a lesson file (issue #36): the 1.3 keys reach the simulation, the 1.2 keys
/// that TLS 1.3 removed are refused with the rule, and the facts that tell the versions apart
/// (group, HelloRetryRequest, PSK, what the eavesdropper reads) are read from the trace.
@Suite("Scenario files with version 1.3")
struct TLS13ScenarioTests {
    static func facts(_ text: String) throws -> [String: FactValue] {
        try ScenarioParser.parse(text: minimal(text), file: "t.yaml").run().facts
    }

    static func lesson(_ name: String) throws -> [String: FactValue] {
        try ScenarioParser.parse(contentsOf: Library.root + "/" + name + ".yaml").run().facts
    }

    @Test func theOptionsReachTheSimulation() throws {
        let s = try ScenarioParser.parse(text: minimal("""
            version: "1.3"
            server:
              suites: [TLS_CHACHA20_POLY1305_SHA256, TLS_AES_256_GCM_SHA384]
              groups: [secp384r1, x25519]
            client:
              suites: [TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256]
              groups: [x25519, secp384r1]

            """), file: "t.yaml")
        let options = try #require(s.simulationSetup()?.tls13)
        #expect(options.suites == [.aes256GCMSHA384, .chacha20Poly1305SHA256])
        #expect(options.serverSuites == [.chacha20Poly1305SHA256, .aes256GCMSHA384])
        #expect(options.serverGroups == [.secp384r1, .x25519] && options.groups == [.x25519, .secp384r1])
        #expect(options.keyShareGroups == [.x25519], "without key_share the client shares its first group")
        let f = s.run().facts
        #expect(f["version"] == .string("TLS1.3") && f["handshake"] == .string("success"))
        // The server's own preference picks among the client's suites (RFC 8446 §4.1.1 leaves it to the server),
        // and a share the server accepts is used rather than asking for its first group.
        #expect(f["suite"] == .string("TLS_CHACHA20_POLY1305_SHA256") || f["suite"] == .string("TLS_AES_256_GCM_SHA384"))
        #expect(f["group"] == .string("x25519") && f["hello_retry_request"] == .bool(false))
    }

    @Test func noCommonSuiteEndsTheHandshake() throws {
        let f = try Self.facts("version: \"1.3\"\nserver: { suites: [TLS_AES_256_GCM_SHA384] }\nclient: { suites: [TLS_AES_128_GCM_SHA256] }\n")
        #expect(f["handshake"] == .string("failure") && f["alert"] == .string("handshake_failure"))
    }

    @Test func theVersionsReadDifferentlyOnTheWire() throws {
        // TLS 1.2: the certificates and the request for one cross in the clear; 1.3 keeps only the
        // server name and the ServerHello readable.
        let mtls12 = try Self.lesson("mtls/success")
        #expect(mtls12["eavesdropper_reads"] == .list(["certificate_request", "cipher_suite", "client_certificate", "server_certificate", "server_name"]))
        let mtls13 = try Self.lesson("tls13/client-certificate")
        #expect(mtls13["eavesdropper_reads"] == .list(["cipher_suite", "server_name"]))
        #expect(try Self.lesson("tls/ecdhe")["group"] == .string("x25519"))
        #expect(try Self.lesson("tls/rsa-one-way")["group"] == .string("none"))
        let retry = try Self.lesson("tls13/hello-retry-request")
        #expect(retry["hello_retry_request"] == .bool(true) && retry["group"] == .string("x25519"))
        let resumed = try Self.lesson("tls13/resumption-psk")
        #expect(resumed["psk_accepted"] == .bool(true) && resumed["abbreviated_handshakes"] == .int(1))
        #expect(try Self.lesson("http/resumption")["psk_accepted"] == .bool(false))
    }

    @Test func tls12KeysAreRefusedWithTheRule() {
        let cases: [(String, String, String)] = [
            ("version: \"1.3\"\nserver:\n  suites: [TLS_RSA_WITH_AES_128_GCM_SHA256]\n", "server.suites[0]", "scenario.tls13.rsaSuite"),
            ("version: \"1.3\"\nserver:\n  suites: [TLS_RSA_WITH_AES_128_CBC_SHA]\n", "server.suites[0]", "scenario.tls13.rsaSuite"),
            ("version: \"1.3\"\nserver:\n  suites: [TLS_DHE_RSA_WITH_AES_128_CBC_SHA256]\n", "server.suites[0]", "scenario.tls13.cbcSuite"),
            ("version: \"1.3\"\nclient:\n  suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]\n", "client.suites[0]", "scenario.tls13.tls12Suite"),
            ("version: \"1.3\"\nclient:\n  suites: [TLS_AES_128_GCM_SHA256, TLS_AES_128_GCM_SHA256]\n", "client.suites[1]", "scenario.tls13.listedTwice"),
            ("version: \"1.3\"\nserver:\n  min_version: TLS1.2\n", "server.min_version", "scenario.tls13.versionRange"),
            ("version: \"1.3\"\nclient:\n  ems: true\n", "client.ems", "scenario.tls13.ems"),
            ("version: \"1.3\"\nserver:\n  dh_group: ffdhe2048\n", "server.dh_group", "scenario.tls13.dhGroup"),
            ("version: \"1.3\"\nclient:\n  min_dh_bits: 2048\n", "client.min_dh_bits", "scenario.tls13.minDHBits"),
            ("version: \"1.3\"\nserver:\n  alpn: [h2]\n", "server.alpn", "scenario.tls13.alpn"),
            ("version: \"1.3\"\nhttp:\n  mode: h2\n", "http.mode", "scenario.tls13.h2"),
            ("version: \"1.3\"\nhttp:\n  resumption: ticket\n", "http.resumption", "scenario.tls13.resumptionTicket"),
            ("version: \"1.3\"\nhttp:\n  tls: false\n", "http.tls", "scenario.tls13.withoutTLS"),
            ("version: \"1.3\"\nattacker: { kind: early_ccs }\n", "attacker.kind", "scenario.tls13.earlyCCS"),
            ("version: \"1.3\"\nattacker: { kind: replay }\n", "attacker.kind", "scenario.tls13.attack"),
            ("version: \"1.3\"\nclient:\n  groups: [secp256r1]\n  key_share: [x25519]\n", "client.key_share[0]", "scenario.tls13.shareNotOffered"),
            ("version: \"1.3\"\nclient:\n  groups: [x448]\n", "client.groups[0]", "scenario.expectedOneOf"),
            ("client:\n  key_share: [x25519]\n", "client.key_share", "scenario.tls13.keyOnlyFor13"),
            ("server:\n  groups: [x25519]\n", "server.groups", "scenario.tls13.keyOnlyFor13"),
            ("version: \"1.4\"\n", "version", "scenario.expectedOneOf"),
        ]
        for (text, path, key) in cases {
            let e = validationError(minimal(text))
            #expect(e?.path == path && e?.words?.key.hasPrefix(key) == true, "\(text): \(e.map { "\($0)" } ?? "valid")")
        }
        // The reason names the RFC rule.
        #expect(validationError(minimal(cases[0].0))?.message.contains("RFC 8446 §1.2") == true)
        #expect(validationError(minimal(cases[6].0))?.message.contains("§4.2") == true)
    }

    @Test func aTLS13FileWithoutTLS12KeysIsValid() {
        #expect(validationError(minimal("version: \"1.2\"\n")) == nil)
        #expect(validationError(minimal("version: \"1.3\"\nserver: { chain: [demo-leaf], client_auth: require, client_cas: [demo-root] }\nclient: { host: example.com, trust: [demo-root] }\nhttp: { mode: http/1.0, resumption: true }\nattacker: { kind: steal_server_key }\n")) == nil)
    }
}
