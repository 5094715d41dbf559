import Foundation
@testable import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// The 1.2 attacker runs replayed on TLS 1.3: `tls13-mitm` (the attacker's own certificate is
/// refused by the client's trust, as in `mitm`) and `tls13-key-theft` (the server's RSA key stolen
/// after the run opens nothing: RFC 8446 §1.2, §E.1).
@Suite("The tls13-mitm and tls13-key-theft runs")
struct TLS13AttackRunTests {
    @Test(arguments: [1, 2] as [UInt64])
    func theClientRefusesTheAttackersCertificate(seed: UInt64) throws {
        let trace = Simulation(try BuiltInRun.tls13MITM.setup(seed: seed)).run()
        let decisions = trace.events.compactMap { e -> (Actor, Bool)? in
            guard case .tls(.certificateDecision(_, _, let accepted, _, _)) = e.kind else { return nil }
            return (e.actor, accepted)
        }
        // The real client refuses; the attacker's own client (trusting everything) accepts the real server.
        #expect(decisions.contains { $0 == (.client, false) })
        #expect(!decisions.contains { $0 == (.client, true) })
        let clientAlerts = trace.events.compactMap { e -> Alert? in
            guard e.actor == .client, case .tls(.alertSent(let a, _)) = e.kind, a.isFatal else { return nil }
            return a
        }
        #expect(clientAlerts.count == 1)
        // Nothing of the client's request reached anyone: no application data from the client.
        #expect(!trace.events.contains { e in
            if e.actor == .client, case .tls(.applicationDataSent) = e.kind { true } else { false }
        })
        #expect(trace.events.contains { e in if case .tls(.tls13) = e.kind { e.actor == .attacker } else { false } })
    }

    @Test(arguments: [1, 2] as [UInt64])
    func theStolenKeyOpensNothing(seed: UInt64) throws {
        let trace = Simulation(try BuiltInRun.tls13KeyTheft.setup(seed: seed)).run()
        #expect(trace.summary.clientCompleted && trace.summary.failure == nil && trace.summary.version == .tls13)
        let attacks = trace.events.compactMap { e -> AttackEvent? in if case .attack(let a) = e.kind { a } else { nil } }
        #expect(attacks.contains { if case .keyStolen = $0 { true } else { false } })
        #expect(!attacks.contains { if case .learned = $0 { true } else { false } })
        #expect(attacks.contains { if case .failed(.tls13ForwardSecrecy) = $0 { true } else { false } })
        // The eavesdropper knows no 1.3 secret, before or after the theft.
        for row in trace.knowledge.rows where [.handshakeSecret, .tls13MasterSecret, .clientApplicationTrafficSecret].contains(row.secret) {
            #expect(!row.eavesdropper && row.eavesdropperAfterwards != true, "\(row.secret)")
        }
    }
}
