import Foundation
@testable import Scenarios
import Simulation
import Testing
import TLSEngine
import Trace

/// `version: "1.3"` lessons with sides that also speak TLS 1.2, the attacker that strips TLS 1.3,
/// 0-RTT early data, its replay and the server's anti-replay (issue #36): the keys reach the
/// simulation, every mistake names its file, line and key in both languages, and the facts come
/// from the trace.
@Suite("Scenario files: TLS 1.2 beside 1.3, the downgrade, 0-RTT and its replay")
struct TLS13NegotiationScenarioTests {
    static let zeroRTT = """
        version: "1.3"
        server:
          early_data: { max_size: 4096, anti_replay: client_hello_recording, window_ms: 2500 }
        client:
          early_data: true
        http:
          mode: http/1.0
          resumption: true
          requests: ["GET /a HTTP/1.0\\r\\n\\r\\n", "GET /b HTTP/1.0\\r\\n\\r\\n"]

        """

    @Test func theKeysReachTheSimulation() throws {
        let dual = try ScenarioParser.parse(text: minimal("version: \"1.3\"\nserver: { versions: [\"1.3\", \"1.2\"] }\nclient: { versions: [\"1.3\", \"1.2\"] }\nattacker: { kind: strip_tls13 }\n"), file: "t.yaml")
        let options = try #require(dual.simulationSetup()?.tls13)
        #expect(options.clientOffersTLS12 && options.serverVersions == .tls13AndTLS12)
        guard case .stripTLS13? = dual.simulationSetup()?.attack else { Issue.record("no strip_tls13"); return }
        let twelve = try #require(try ScenarioParser.parse(text: minimal("version: \"1.3\"\nserver: { versions: [\"1.2\"] }\nclient: { versions: [\"1.2\", \"1.3\"] }\n"), file: "t.yaml").simulationSetup()?.tls13)
        #expect(twelve.serverVersions == .tls12Only)
        let early = try #require(try ScenarioParser.parse(text: minimal(Self.zeroRTT), file: "t.yaml").simulationSetup()?.tls13?.earlyData)
        #expect(early.maxEarlyDataSize == 4096 && early.clientSends && early.recordingWindowMilliseconds == 2500 && !early.singleUseTickets)
    }

    @Test func aDualClientAgainstA12OnlyServerSpeaks12WithoutTheSentinel() throws {
        let f = try ScenarioParser.parse(text: minimal("version: \"1.3\"\nserver: { versions: [\"1.2\"] }\nclient: { versions: [\"1.3\", \"1.2\"] }\n"), file: "t.yaml").run().facts
        #expect(f["handshake"] == .string("success") && f["version"] == .string("TLS1.2"))
        #expect(f["downgrade_sentinel"] == .bool(false) && f["downgrade_detected"] == .bool(false))
    }

    @Test func mistakesAreLocatedAndWorded() {
        let cases: [(String, String, String)] = [
            ("server:\n  versions: [\"1.3\"]\n", "server.versions", "scenario.tls13.negotiationOnlyFor13"),
            ("client:\n  early_data: true\n", "client.early_data", "scenario.tls13.negotiationOnlyFor13"),
            ("attacker: { kind: replay_early_data }\n", "attacker.kind", "scenario.tls13.attackOnlyFor13"),
            ("version: \"1.3\"\nclient:\n  versions: [\"1.2\"]\n", "client.versions", "scenario.tls13.clientWithout13"),
            ("version: \"1.3\"\nclient:\n  versions: [\"1.3\", \"1.3\"]\n", "client.versions[1]", "scenario.tls13.listedTwice"),
            ("version: \"1.3\"\nclient:\n  versions: [\"1.4\"]\n", "client.versions[0]", "scenario.expectedOneOf"),
            ("version: \"1.3\"\nserver:\n  versions: [\"1.2\"]\n", "server.versions", "scenario.tls13.noCommonVersion"),
            ("version: \"1.3\"\nattacker: { kind: strip_tls13 }\n", "attacker.kind", "scenario.tls13.stripNeedsTLS12"),
            ("version: \"1.3\"\nattacker: { kind: replay_early_data }\n", "attacker.kind", "scenario.tls13.replayNeedsEarlyData"),
            ("version: \"1.3\"\nclient:\n  early_data: true\n", "client.early_data", "scenario.tls13.earlyDataNeedsServer"),
            ("version: \"1.3\"\nserver:\n  early_data: {}\n", "server.early_data", "scenario.tls13.earlyDataNeedsResumption"),
            ("version: \"1.3\"\nserver:\n  early_data: { window_ms: 5 }\nhttp: { mode: http/1.0, resumption: true }\n", "server.early_data.window_ms", "scenario.tls13.windowWithoutRecording"),
            ("version: \"1.3\"\nserver:\n  early_data: { anti_replay: bloom }\nhttp: { mode: http/1.0, resumption: true }\n", "server.early_data.anti_replay", "scenario.expectedOneOf"),
            ("version: \"1.3\"\nserver:\n  early_data: { max_sizes: 5 }\nhttp: { mode: http/1.0, resumption: true }\n", "server.early_data.max_sizes", "scenario.unknownKey"),
            ("version: \"1.3\"\nserver:\n  versions: [\"1.3\", \"1.2\"]\nhttp: { mode: http/1.0, resumption: true }\n", "http.resumption", "scenario.tls13.notWithTLS12"),
            ("version: \"1.3\"\nclient:\n  versions: [\"1.3\", \"1.2\"]\nserver:\n  client_auth: require\n  client_cas: [demo-root]\n", "server.client_auth", "scenario.tls13.notWithTLS12"),
        ]
        for (text, path, key) in cases {
            let e = validationError(minimal(text))
            #expect(e?.path == path && e?.words?.key.hasPrefix(key) == true, "\(text): \(e.map { "\($0)" } ?? "valid")")
        }
        // Each names the RFC rule, and its line.
        let strip = validationError(minimal(cases[7].0))
        #expect(strip?.message.contains("RFC 8446 §4.1.3") == true && strip?.line == 4)
    }

    /// The facts read from a 0-RTT run: each connection's verdict on early data, the ClientHello
    /// recording at work, and what the replaying attacker got.
    @Test func earlyDataFactsComeFromTheTrace() throws {
        let plain = try ScenarioParser.parse(text: minimal(Self.zeroRTT), file: "t.yaml").run().facts
        #expect(plain["early_data_accepted"] == .int(1) && plain["early_data_refused"] == .list([]))
        let replayed = try ScenarioParser.parse(text: minimal(Self.zeroRTT + "attacker: { kind: replay_early_data }\n"), file: "t.yaml").run()
        #expect(replayed.facts["early_data_refused"] == .list(["replayed_client_hello"]) && replayed.facts["requests_served"] == .int(2))
        // The server recorded the client's binder once, and the copy arrived inside the window.
        let trace = try #require(replayed.trace)
        let checks = trace.events.compactMap { e -> TLS13FreshnessCheck? in
            if e.actor == .server, case .tls(.tls13(.freshnessChecked(let c))) = e.kind { c } else { nil }
        }
        #expect(checks.count == 2 && checks.allSatisfy(\.fresh))
        let recorded = trace.events.filter { if case .tls(.tls13(.clientHelloRecorded)) = $0.kind { true } else { false } }
        #expect(recorded.count == 1)
    }
}
