import Testing
import TLSCrypto
@testable import TLSEngine

/// RFC 5746 §3.6: the server answers either signal of a secure-renegotiation client — the empty
/// renegotiation_info extension or TLS_EMPTY_RENEGOTIATION_INFO_SCSV (which OpenSSL's clients send,
/// refusing a server that stays silent: "unsafe legacy renegotiation disabled") — with an empty
/// renegotiation_info in its ServerHello, and otherwise sends none.
@Suite("Engine: secure renegotiation signalling")
struct RenegotiationSignalTests {
    static func serverHello(suites: [CipherSuite], sendExtension: Bool) throws -> ServerHello? {
        var clientConfig = try Harness.clientConfiguration(seed: 5, suites: suites)
        clientConfig.sendRenegotiationInfo = sendExtension
        var client = TLSClient(configuration: clientConfig)
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: 5))
        let step = server.receive(client.start().output)
        return step.events.compactMap { e -> ServerHello? in
            if case .handshakeSent(.serverHello(let sh), _) = e { return sh } else { return nil }
        }.first
    }

    @Test("the SCSV alone, the extension alone, neither")
    func signals() throws {
        let scsv = try #require(try Self.serverHello(suites: [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_EMPTY_RENEGOTIATION_INFO_SCSV],
                                                     sendExtension: false))
        #expect((scsv.extensions ?? []).contains(.renegotiationInfo([])))
        let ext = try #require(try Self.serverHello(suites: [.TLS_RSA_WITH_AES_128_GCM_SHA256], sendExtension: true))
        #expect((ext.extensions ?? []).contains(.renegotiationInfo([])))
        let neither = try #require(try Self.serverHello(suites: [.TLS_RSA_WITH_AES_128_GCM_SHA256], sendExtension: false))
        #expect(!(neither.extensions ?? []).contains { $0.type == .renegotiationInfo })
    }
}
