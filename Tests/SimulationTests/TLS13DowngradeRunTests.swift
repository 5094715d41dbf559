import Foundation
@testable import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// The built-in run `tls13-downgrade` (RFC 8446 §4.1.3): the client offers TLS 1.3 and 1.2, an
/// on-path attacker strips 1.3 from the ClientHello, the server (1.3 and 1.2) answers 1.2 with the
/// DOWNGRD sentinel and the client refuses. Without the attacker the same world negotiates 1.3; a
/// server of TLS 1.2 alone writes no sentinel and TLS 1.2 completes.
@Suite("The tls13-downgrade run and honest version negotiation")
struct TLS13DowngradeRunTests {
    static func tls(_ trace: Trace, _ actor: Actor) -> [TLSEvent] {
        trace.events.compactMap { e in if e.actor == actor, case .tls(let t) = e.kind { t } else { nil } }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theSentinelCatchesTheStrippedClientHello(seed: UInt64) throws {
        let trace = Simulation(try BuiltInRun.tls13Downgrade.setup(seed: seed)).run()
        let attacks = trace.events.compactMap { e -> AttackEvent? in if case .attack(let a) = e.kind { a } else { nil } }
        #expect(attacks.contains { if case .strippedTLS13(let removed, _) = $0 { Set(removed) == [.supportedVersions, .keyShare, .pskKeyExchangeModes] } else { false } })
        let server = Self.tls(trace, .server), client = Self.tls(trace, .client)
        #expect(server.contains { if case .versionChosen(let c) = $0 { c.version == .tls12 && c.reason == .noSupportedVersions(legacyVersion: .tls12) } else { false } })
        let sentinel = server.compactMap { if case .downgradeSentinelWritten(let s) = $0 { s } else { nil } }
        #expect(sentinel.map(\.bytes) == [[0x44, 0x4F, 0x57, 0x4E, 0x47, 0x52, 0x44, 0x01]])
        #expect(client.contains { if case .tls13(.downgradeDetected) = $0 { true } else { false } })
        let failure = try #require(trace.summary.failure)
        #expect(failure.alert == .illegalParameter && failure.sentBy == .client)
        guard case .tls13(.downgrade) = failure.cause else { Issue.record("cause \(failure.cause)"); return }
        #expect(!trace.summary.clientCompleted)
        #expect(!client.contains { if case .applicationDataSent = $0 { true } else { false } })
    }

    @Test("Without the attacker the same client and server negotiate TLS 1.3", arguments: [1, 2] as [UInt64])
    func honestDualNegotiatesTLS13(seed: UInt64) throws {
        var setup = try BuiltInRun.tls13Downgrade.setup(seed: seed)
        setup.attack = nil
        let trace = Simulation(setup).run()
        #expect(trace.summary.clientCompleted && trace.summary.failure == nil)
        #expect(trace.summary.version == .tls13)
        #expect(Self.tls(trace, .client).contains { if case .versionChosen(let c) = $0 { c.version == .tls13 } else { false } })
        #expect(!Self.tls(trace, .server).contains { if case .downgradeSentinelWritten = $0 { true } else { false } })
    }

    @Test("A dual-version client and a server of TLS 1.2 alone: no sentinel, TLS 1.2 completes", arguments: [1, 2] as [UInt64])
    func dualClientTLS12Server(seed: UInt64) throws {
        var setup = try BuiltInRun.tls13Downgrade.setup(seed: seed)
        setup.attack = nil
        setup.tls13?.serverVersions = .tls12Only
        let trace = Simulation(setup).run()
        #expect(trace.summary.clientCompleted && trace.summary.failure == nil, "\(String(describing: trace.summary.failure))")
        #expect(trace.summary.version == .tls12)
        #expect(!Self.tls(trace, .server).contains { if case .downgradeSentinelWritten = $0 { true } else { false } })
        #expect(trace.summary.responsesReceived >= 1 || Self.tls(trace, .client).contains { if case .applicationDataReceived = $0 { true } else { false } })
    }
}
