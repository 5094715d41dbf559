import HTTP2
import TCPSim
import Rendering
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
}
