import Foundation
@testable import Rendering
import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// The built-in runs `tls13-0rtt`, `tls13-0rtt-replay` and `tls13-0rtt-single-use` (RFC 8446 §2.3,
/// §8): the second connection's request as 0-RTT data, answered one round trip sooner; an on-path
/// attacker's copy of that flight read a second time by a server without anti-replay, refused by one
/// with single-use tickets.
@Suite("The tls13-0rtt runs")
struct TLS13EarlyDataRunTests {
    static func trace(_ run: BuiltInRun, seed: UInt64 = 1) throws -> Trace { Simulation(try run.setup(seed: seed)).run() }

    static func requestsReceived(_ trace: Trace) -> [(connection: Int, text: String)] {
        trace.events.compactMap { e in
            guard e.actor == .server, case .http(.requestReceived(let text)) = e.kind else { return nil }
            return (e.connection, text)
        }
    }

    static func has(_ trace: Trace, _ actor: Actor, connection: Int, _ test: (TLS13Event) -> Bool) -> Bool {
        trace.events.contains { e in
            guard e.actor == actor, e.connection == connection, case .tls(.tls13(let fact)) = e.kind else { return false }
            return test(fact)
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theSecondRequestTravelsAsEarlyData(seed: UInt64) throws {
        let trace = try Self.trace(.tls13ZeroRTT, seed: seed)
        let summary = trace.summary
        #expect(summary.clientCompleted && summary.serverCompleted && summary.failure == nil)
        #expect(Self.has(trace, .client, connection: 1) { if case .earlyDataOffered(16_384) = $0 { true } else { false } })
        #expect(Self.has(trace, .server, connection: 1) { if case .earlyDataAccepted = $0 { true } else { false } })
        #expect(Self.has(trace, .server, connection: 1) { if case .earlyDataReceived = $0 { true } else { false } })
        #expect(!Self.has(trace, .client, connection: 0) { if case .earlyDataOffered = $0 { true } else { false } })
        #expect(Self.requestsReceived(trace).map(\.connection) == [0, 1])
        // The server read the request before its handshake completed.
        let second = trace.events.filter { $0.connection == 1 && $0.actor == .server }
        let read = try #require(second.firstIndex { if case .http(.requestReceived) = $0.kind { true } else { false } })
        let done = try #require(second.firstIndex { if case .tls(.handshakeCompleted) = $0.kind { true } else { false } })
        #expect(read < done)
        // Both sides derived client_early_traffic_secret the same way, with "c e traffic" over the ClientHello.
        let client = trace.tls13Steps(of: .client, connection: 1), server = trace.tls13Steps(of: .server, connection: 1)
        let early = try #require(client.first { $0.secret == .clientEarlyTrafficSecret })
        #expect(server.first { $0.secret == .clientEarlyTrafficSecret } == early)
        guard case .deriveSecret(.earlySecret, "c e traffic", .clientHello, _) = early.derivation else { Issue.record("\(early)"); return }
        // The key log has CLIENT_EARLY_TRAFFIC_SECRET for the second session.
        #expect(KeyLogWriter.keyLog(for: trace).text.contains("CLIENT_EARLY_TRAFFIC_SECRET"))
    }

    @Test func roundTripsAsRunCountsThem() throws {
        let zero = try Self.trace(.tls13ZeroRTT)
        #expect(zero.statistics.roundTripsToFirstByteByConnection == [3, 2], "full 1.3, then 0-RTT")
        let resumed = try Self.trace(.tls13Resumption)
        #expect(resumed.statistics.roundTripsToFirstByteByConnection == [3, 3], "1.3 resumption without early data saves none")
        let rsa = try Self.trace(.rsa)
        let one = RunComparison(("tls13-resumption", resumed), ("tls13-0rtt", zero))
        #expect(one.first.roundTripsToFirstByte == 3 && one.second.roundTripsToFirstByte == 2)
        let two = RunComparison(("rsa", rsa), ("tls13-0rtt", zero))
        #expect(two.first.roundTripsToFirstByte == 4 && two.second.roundTripsToFirstByte == 2)
        let three = RunComparison(("rsa", rsa), ("tls13", try Self.trace(.tls13)))
        #expect(three.first.roundTripsToFirstByte == 4 && three.second.roundTripsToFirstByte == 3)
    }

    @Test(arguments: [1, 2] as [UInt64])
    func aServerWithoutAntiReplayReadsTheRequestTwice(seed: UInt64) throws {
        let trace = try Self.trace(.tls13ZeroRTTReplay, seed: seed)
        let attacks = trace.events.compactMap { e -> AttackEvent? in if case .attack(let a) = e.kind { a } else { nil } }
        #expect(attacks.contains { if case .recordedEarlyFlight = $0 { true } else { false } })
        #expect(attacks.contains { if case .replayedEarlyFlight = $0 { true } else { false } })
        let requests = Self.requestsReceived(trace)
        try #require(requests.map(\.connection) == [0, 1, 2])
        #expect(requests[1].text == requests[2].text)
        // The copy arrived from the attacker's address and was accepted as early data; the handshake never completed.
        #expect(Self.has(trace, .server, connection: 2) { if case .earlyDataAccepted = $0 { true } else { false } })
        #expect(!Self.has(trace, .server, connection: 2) { if case .handshakeCompleted = $0 { true } else { false } })
        #expect(trace.events.contains { $0.connection == 2 && $0.actor == .server && $0.peer == .attacker })
        // The real client's two connections were not disturbed.
        #expect(trace.statistics.responses == 2 && trace.summary.failure == nil)
    }

    @Test(arguments: [1, 2] as [UInt64])
    func singleUseTicketsRefuseTheReplay(seed: UInt64) throws {
        let trace = try Self.trace(.tls13ZeroRTTSingleUse, seed: seed)
        #expect(Self.has(trace, .server, connection: 1) { if case .ticketRedeemed = $0 { true } else { false } })
        #expect(Self.has(trace, .server, connection: 1) { if case .earlyDataAccepted = $0 { true } else { false } })
        #expect(Self.requestsReceived(trace).map(\.connection) == [0, 1])
        #expect(Self.has(trace, .server, connection: 2) { if case .earlyDataRejected(.pskNotSelected) = $0 { true } else { false } })
        #expect(Self.has(trace, .server, connection: 2) { if case .earlyRecordSkipped = $0 { true } else { false } })
        // §8.1: the unknown ticket gives a full handshake — the server sends its certificate to the attacker.
        #expect(trace.events.contains { e in
            guard e.connection == 2, e.actor == .server, case .tls(.handshakeSent(let m, _)) = e.kind else { return false }
            return m.type == .certificate
        })
    }

    @Test(arguments: [1, 2] as [UInt64])
    func clientHelloRecordingRefusesTheReplay(seed: UInt64) throws {
        let trace = try Self.trace(.tls13ZeroRTTRecorded, seed: seed)
        #expect(Self.has(trace, .server, connection: 1) { if case .clientHelloRecorded = $0 { true } else { false } })
        #expect(Self.has(trace, .server, connection: 1) { if case .earlyDataAccepted = $0 { true } else { false } })
        #expect(Self.requestsReceived(trace).map(\.connection) == [0, 1])
        // §8.2: the copy is fresh but recorded — the PSK is accepted (no certificate), the early data refused and skipped.
        #expect(Self.has(trace, .server, connection: 2) { if case .freshnessChecked(let c) = $0 { c.fresh } else { false } })
        #expect(Self.has(trace, .server, connection: 2) { if case .earlyDataRejected(.replayedClientHello) = $0 { true } else { false } })
        #expect(Self.has(trace, .server, connection: 2) { if case .pskAccepted = $0 { true } else { false } })
        #expect(Self.has(trace, .server, connection: 2) { if case .earlyRecordSkipped = $0 { true } else { false } })
        #expect(!trace.events.contains { e in
            guard e.connection == 2, e.actor == .server, case .tls(.handshakeSent(let m, _)) = e.kind else { return false }
            return m.type == .certificate
        })
        #expect(trace.statistics.responses == 2 && trace.summary.failure == nil)
    }

    @Test(arguments: [BuiltInRun.tls13ZeroRTT, .tls13ZeroRTTReplay, .tls13ZeroRTTSingleUse, .tls13ZeroRTTRecorded])
    func everyRunRendersInBothLanguages(run: BuiltInRun) throws {
        let trace = try Self.trace(run)
        for (language, word) in [(Explanations.english, "0-RTT data"), (Explanations.chinese, "0-RTT 数据")] {
            let text = TextRenderer(width: 120, explanations: language).render(trace).joined(separator: "\n")
            #expect(!text.contains("{actor}") && !text.contains("{bytes}"), "an unfilled placeholder")
            #expect(text.contains(word))
        }
    }
}
