import Foundation
import HTTP2
import Rendering
import Simulation
import Testing
import Trace
import Trust

/// The protocol facts of every built-in run stay byte-identical across refactors: TLS message bytes, TCP
/// segment fields, derived secrets, alerts, HTTP and HTTP/2 frames, and the summary's values, for seeds 1 and 2.
/// Sentences and layout are left out on purpose (they change when the teaching text does); the fixtures
/// were recorded from the JSON Lines contract before the engine→driver refactor. A difference here is a
/// change in what goes on the wire or what is computed, never a wording change. To record a deliberate
/// protocol change: `TLSLAB_UPDATE_FACTS=1 swift test --filter ProtocolFactsTests` (only differing files are
/// rewritten), then read the diff.
@Suite("Protocol facts of recorded runs")
struct ProtocolFactsTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ProtocolFacts")
    static let update = ProcessInfo.processInfo.environment["TLSLAB_UPDATE_FACTS"] == "1"

    /// Per JSON event kind, the keys that are protocol facts (nil: every key).
    static let factKeys: [String: [String]?] = [
        "tcp_segment": ["t", "actor", "direction", "seq", "ack", "flags", "len", "action"],
        "tcp_retransmit": nil,
        "tls_message": ["t", "actor", "direction", "message", "bytes", "action"],
        "tls_derived": nil,
        "tls_negotiated": nil,
        "tls_handshake_complete": nil,
        "tls_application_data": nil,
        "tls_alert": ["t", "actor", "direction", "level", "description", "action"],
        "http": nil,
        "http2": nil,
        "summary": nil,
        // TLS 1.3 (RFC 8446): the key schedule, the traffic keys and the records as computed.
        "tls13_secret": nil,
        "tls13_traffic_keys": nil,
        "tls13_shared_secret": nil,
        "tls13_key_share": nil,
        "tls13_record": nil,
        // TLS 1.3 resumption (RFC 8446 §4.2.11, §4.6.1): the ticket, the offered PSK and its binder, the check.
        "tls13_new_session_ticket": nil,
        "tls13_psk_offered": nil,
        "tls13_psk_binder": nil,
        "tls13_psk_accepted": nil,
        // Version negotiation between TLS 1.2 and 1.3 (RFC 8446 §4.1.3, §4.2.1).
        "tls_version_chosen": nil,
        "tls_downgrade_sentinel": nil,
        // 0-RTT anti-replay (RFC 8446 §8.2, §8.3): the freshness check's inputs and the recorded ClientHello.
        "tls13_freshness_check": nil,
        "tls13_client_hello_recorded": nil,
    ]

    /// The facts of a JSON Lines trace, one canonical (sorted-key) JSON object a line.
    static func facts(_ lines: [String]) throws -> [String] {
        try lines.compactMap { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let event = object["event"] as? String, let keys = factKeys[event] else { return nil }
            let kept = keys.map { names in object.filter { names.contains($0.key) } } ?? object
            let data = try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// `line` with only the keys `reference` has (canonical form).
    static func restricted(_ line: String, toKeysOf reference: String) throws -> String {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let keys = (try JSONSerialization.jsonObject(with: Data(reference.utf8)) as? [String: Any])?.keys else { return line }
        let kept = object.filter { keys.contains($0.key) }
        return String(decoding: try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    static let cases: [(BuiltInRun, UInt64)] = BuiltInRun.allCases.flatMap { run -> [(BuiltInRun, UInt64)] in [(run, 1), (run, 2)] }

    @Test(arguments: cases)
    func factsMatchTheRecording(run: BuiltInRun, seed: UInt64) throws {
        let trace = Simulation(try run.setup(seed: seed)).run()
        let current = try Self.facts(JSONLinesRenderer().render(trace))
        let file = Self.directory.appendingPathComponent("\(run.rawValue)-seed\(seed).jsonl")
        let recorded = (try? String(contentsOf: file, encoding: .utf8)).map { $0.split(separator: "\n").map(String.init) }
        if Self.update, recorded != current {
            try (current.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let recorded else {
            Issue.record("no recording \(file.lastPathComponent): run with TLSLAB_UPDATE_FACTS=1 to make it")
            return
        }
        #expect(current.count == recorded.count, "\(run.rawValue) seed \(seed): \(current.count) fact lines, recorded \(recorded.count)")
        // The summary may gain keys (new statistics), and HTTP lines their direction; the keys a line was
        // recorded with must keep their values.
        let now = try zip(current.indices, current).map { i, line in
            guard i < recorded.count, line.hasPrefix("{"),
                  line.contains(#""event":"summary""#) || line.contains(#""event":"http""#) || line.contains(#""event":"http2""#) else { return line }
            return try Self.restricted(line, toKeysOf: recorded[i])
        }
        if let i = (0..<min(now.count, recorded.count)).first(where: { now[$0] != recorded[$0] }) {
            Issue.record("""
                \(run.rawValue) seed \(seed): fact \(i + 1) differs from the recording
                  recorded: \(recorded[i])
                  now:      \(now[i])
                """)
        }
    }
}

/// The JSON summary says how many round trips the client waited for its first response byte
/// (RFC 9293's handshake, TLS 1.2's two round trips, then the request), apart from the whole exchange.
@Suite("Round trips to the first byte in the JSON summary")
struct FirstByteSummaryTests {
    static func summary(_ run: BuiltInRun) throws -> [String: Any] {
        let line = JSONLinesRenderer().render(Simulation(try run.setup(seed: 1)).run()).last ?? ""
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }

    @Test func plainHTTPFullHandshakeAndHTTP2() throws {
        // Plain HTTP: SYN/SYN-ACK, then request/response = 2; HTTPS adds the two handshake round trips.
        #expect(try Self.summary(.httpPlain)["round_trips_to_first_byte"] as? Int == 2)
        #expect(try Self.summary(.rsa)["round_trips_to_first_byte"] as? Int == 4)
        #expect(try Self.summary(.h2c)["round_trips_to_first_byte"] as? Int == 2)
        // TLS 1.3 (RFC 8446 §2): the handshake takes one round trip, so the request goes one earlier than 1.2's.
        #expect(try Self.summary(.tls13)["round_trips_to_first_byte"] as? Int == 3)
        let plain = try Self.summary(.httpPlain)
        #expect((plain["round_trips"] as? Int ?? 0) > (plain["round_trips_to_first_byte"] as? Int ?? 0))
    }
}
