import Testing
import TLSCrypto
@testable import TLSEngine

/// RFC 5246 §7.4.8: a CertificateVerify must use a scheme the CertificateRequest listed; any other is
/// illegal_parameter, and the trace's alert cause names the scheme that arrived and those requested.
@Suite("CertificateVerify: the scheme that arrived against the schemes requested")
struct CertificateVerifySchemeTests {
    static func mutualRun(flipBit bit: Int) throws -> EngineRun {
        var client = try Harness.clientConfiguration(seed: 9)
        client.identity = try Harness.clientIdentity()
        var server = try Harness.serverConfiguration(seed: 9)
        server.clientAuthentication = .require
        // The client's messages: ClientHello 0, Certificate 1, ClientKeyExchange 2, CertificateVerify 3.
        return Harness.run(client: client, server: server, flip: BitFlip(flow: .clientToServer, index: 3, bit: bit))
    }

    @Test func anUnrequestedSchemeIsIllegalParameterAndTheTraceNamesBoth() throws {
        // The first body byte is the scheme's high byte (the TLS 1.2 hash): bit 3 of it turns 0x08 (RSA-PSS)
        // into 0x00 or 0x04 (PKCS#1) into 0x0c — either way a scheme the request did not list.
        let run = try Self.mutualRun(flipBit: 4 * 8 + 3)
        #expect(run.outcome == .failed(sender: .server, alert: .illegalParameter), "\(run.outcome)")
        let causes = run.serverEvents.compactMap { e -> AlertCause? in if case .alertSent(_, let cause) = e { return cause } else { return nil } }
        guard case .failure(.peerMisbehaved(.certificateVerifySchemeNotRequested(let arrived, let requested))) = causes.first else {
            Issue.record("\(causes)")
            return
        }
        #expect(requested == SignatureSchemes.certificateRequestDefault)
        let arrivedScheme = try #require(arrived)
        #expect(!requested.contains(arrivedScheme))
    }
}
