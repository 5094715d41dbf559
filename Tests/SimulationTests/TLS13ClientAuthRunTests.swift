import Foundation
@testable import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// The built-in run `tls13-client-auth` (RFC 8446 §4.3.2): the server's CertificateRequest travels
/// encrypted, the client's certificate (from the demo CA, EKU clientAuth) is checked by the server's
/// client trust, its CertificateVerify carries the client context string.
@Suite("The tls13-client-auth run")
struct TLS13ClientAuthRunTests {
    @Test(arguments: [1, 2] as [UInt64])
    func theServerChecksTheClientsCertificate(seed: UInt64) throws {
        let trace = Simulation(try BuiltInRun.tls13ClientAuth.setup(seed: seed)).run()
        let s = trace.summary
        #expect(s.clientCompleted && s.serverCompleted && s.failure == nil && s.version == .tls13)
        let decisions = trace.events.compactMap { e -> (Actor, Bool)? in
            guard case .tls(.certificateDecision(_, _, let accepted, _, _)) = e.kind else { return nil }
            return (e.actor, accepted)
        }
        #expect(decisions.map(\.0) == [.client, .server] && decisions.allSatisfy(\.1))
        let contexts = trace.events.compactMap { e -> (Actor, String)? in
            guard case .tls(.tls13(.certificateVerifySigned(_, let content, _))) = e.kind else { return nil }
            return (e.actor, String(decoding: content[64..<(content.count - 33)], as: UTF8.self))
        }
        #expect(contexts.map(\.0) == [.server, .client])
        #expect(contexts.map(\.1) == ["TLS 1.3, server CertificateVerify", "TLS 1.3, client CertificateVerify"])
        #expect(trace.tls13Steps(of: .client) == trace.tls13Steps(of: .server))
        #expect(trace.statistics.roundTripsToFirstByte == 3)
    }
}
