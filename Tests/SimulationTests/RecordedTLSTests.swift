import Foundation
@testable import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// A recorded connection is opened with the protection the engine builds (`ConnectionProtection`):
/// the same keys as the engine's own key block, and the same record format — encrypt-then-MAC
/// included, which a key schedule of the observer's own once left out.
@Suite("A recorded connection opens with the engine's record protection")
struct RecordedTLSTests {
    @Test(arguments: [(CipherSuite.TLS_RSA_WITH_AES_128_CBC_SHA, true), (.TLS_RSA_WITH_AES_128_CBC_SHA, false),
                      (.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, true)])
    func theRecordingOpensWithTheMasterSecret(suite: CipherSuite, encryptThenMAC: Bool) throws {
        var setup = try makeSetup(seed: 5, suites: [suite])
        setup.client.offerEncryptThenMAC = encryptThenMAC
        let trace = Simulation(setup).run()
        let negotiated = trace.events.contains {
            if $0.actor == .client, case .tls(.negotiated(let n)) = $0.kind { n.encryptThenMAC } else { false }
        }
        #expect(negotiated == (encryptThenMAC && suite != .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256))
        let flow = try #require(trace.recordedFlows.first)
        let master = try #require(trace.summary.masterSecret)
        let recorded = RecordedTLS(clientToServer: flow.clientToServer, serverToClient: flow.serverToClient)
        let opened = try #require(recorded.open(master: master))
        #expect(opened.finishedVerified, "the client's first protected record is its Finished")
        #expect(opened.clientRecords.count == recorded.clientProtected.count, "every client record opens")
        #expect(opened.serverRecords.count == recorded.serverProtected.count, "every server record opens")
        #expect(opened.clientRecords.contains { $0.0 == .applicationData }, "the request is among them")
        // The keys are the ones the engine derived and announced.
        let engineKeys = trace.events.compactMap { e -> KeyBlock? in
            if e.actor == .client, case .tls(.derived(.keyBlock(_, _, _, let keys))) = e.kind { return keys } else { return nil }
        }.first
        #expect(engineKeys == opened.keys)
    }
}
