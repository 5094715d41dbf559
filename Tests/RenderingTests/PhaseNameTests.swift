import HTTP2
import TCPSim
import Rendering
import Foundation
import Simulation
import Testing
import Trace

/// Phases are facts in the trace; the catalogue names them. Every phase has a heading from the
/// catalogue (never a bare key), the JSON contract's names are the words it always had, and the
/// renderers pick the explanation from the fact, not from the heading's words.
@Suite("Phase headings come from the catalogue")
struct PhaseNameTests {
    static let every: [Phase] = [
        .tcpOpen, .tcpSocketLevel, .tlsHandshake, .http(overTLS: true), .http(overTLS: false),
        .http2(.h2, allRequestsAtOnce: true), .http2(.h2c, allRequestsAtOnce: true), .http2(.h2, allRequestsAtOnce: false),
        .http2(.h2c, allRequestsAtOnce: false), .http2NotSelected(selected: "http/1.1"), .http2NotSelected(selected: nil),
        .unspokenApplicationProtocol("spdy/3", by: .client), .unspokenApplicationProtocol("spdy/3", by: .server),
        .closing(.closeNotifyAndTCPClose), .closing(.tcpClose), .closing(.closeNotifyAndSocketClose),
        .closing(.goAwayThenCloseNotify), .closing(.idleGoAway),
        .failed(.serverCouldNotListen, error: .portInUse(443)), .failed(.connectionNotOpened, error: .connectionDoesNotExist),
        .failed(.attackerCouldNotReachServer, error: .unknownHost(IPv4Address(10, 0, 0, 3))), .socket(.closed(written: 10, read: 20, reads: 2)),
        .closing(.userCanceledThenCloseNotify),
        .traceLimit(dropped: 3, events: 4096, mebibytes: 4),
    ]

    @Test(arguments: every)
    func namedFromTheCatalogue(phase: Phase) {
        let name = Explanations.english.phaseName(phase, connection: 0)
        #expect(!name.isEmpty && !name.contains("phaseName.") && !name.contains("{"), "\(phase): \(name)")
    }

    @Test func theJSONContractKeepsItsWords() {
        let english = Explanations.english
        #expect(english.phaseName(.tcpOpen) == "TCP three-way handshake")
        #expect(english.phaseName(.tcpOpen, connection: 2) == "TCP three-way handshake (connection 3)")
        #expect(english.phaseName(.tlsHandshake, connection: 1) == "TLS handshake (connection 2)")
        #expect(english.phaseName(.http(overTLS: false)) == "HTTP request in the clear (no TLS)")
        #expect(english.phaseName(.http2NotSelected(selected: "http/1.1"))
                == "ALPN selected \"http/1.1\", not \"h2\": this connection is not HTTP/2 (RFC 9113 §3.2), so the client sends no HTTP/2 preface")
        #expect(english.phaseName(.closing(.closeNotifyAndTCPClose)) == "closing: close_notify and the TCP four-way close")
    }

    @Test func theExplanationFollowsTheFact() {
        #expect(Explanations.explanationKey(.http(overTLS: false), plainHTTP: true) == "phase.httpPlain")
        #expect(Explanations.explanationKey(.http(overTLS: true), plainHTTP: false) == "phase.http")
        #expect(Explanations.explanationKey(.http2(.h2c, allRequestsAtOnce: true), plainHTTP: true) == "phase.h2c")
        #expect(Explanations.explanationKey(.tcpSocketLevel, plainHTTP: false) == "phase.tcp")
        for phase in Self.every {
            if let key = Explanations.explanationKey(phase, plainHTTP: false) { #expect(Explanations.english(key) != nil, "\(key)") }
        }
    }

    /// Each phase has its own stable identifier, spelt here (README's JSON contract lists the same).
    @Test func eachPhaseHasAStableIdentifier() {
        let expected = [
            "tcp_open", "tcp_socket_level", "tls_handshake", "http_over_tls", "http_in_the_clear",
            "http2_h2_all_at_once", "http2_h2c_all_at_once", "http2_h2", "http2_h2c", "http2_not_selected", "http2_not_selected",
            "unspoken_protocol_client_silent", "unspoken_protocol_server_closes",
            "closing_close_notify_and_tcp_close", "closing_tcp_close", "closing_close_notify_and_socket_close",
            "closing_goaway_then_close_notify", "closing_idle_goaway",
            "failed_server_could_not_listen", "failed_connection_not_opened", "failed_attacker_could_not_reach_server", "socket",
            "closing_user_canceled_then_close_notify", "trace_limit",
        ]
        #expect(Self.every.map(\.identifier) == expected)
        // The same identifier never stands for two headings' keys: only the values inside a heading share one.
        #expect(Set(expected).count == expected.count - 1)
    }

    /// The JSON `phase` object carries the identifier beside the English name.
    @Test func theJSONPhaseObjectHasItsIdentifier() throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let phases = try JSONLinesRenderer().render(trace).compactMap { line -> [String: Any]? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["event"] as? String == "phase" ? object : nil
        }
        #expect(phases.map { $0["id"] as? String } == ["tcp_open", "tls_handshake", "http_over_tls", "closing_close_notify_and_tcp_close"])
        #expect(phases.first?["name"] as? String == "TCP three-way handshake")
    }
}
