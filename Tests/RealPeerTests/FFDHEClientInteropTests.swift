import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport
import Trace

/// RFC 7919 §3 with real servers: our client names ffdhe2048 and ffdhe3072 in supported_groups.
/// gnutls-serv (RFC 7919 on its side) answers in a named group it shares; `openssl s_server`
/// does not negotiate FFDHE for TLS 1.2 and sends its own group — RFC 3526 MODP 2048 by default,
/// ffdhe2048 with `-dhparam` — which the client recognises by dh_p and dh_g and, when it is none of
/// the named groups, accepts or refuses by its policy.
@Suite("RealPeer: FFDHE groups offered by our client, against OpenSSL and GnuTLS", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct FFDHEClientInteropTests {
    static let suite = CipherSuite.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256

    static func client(port: UInt16, pki: TestPKI, offer: [NamedGroup] = [.ffdhe2048, .ffdhe3072],
                       policy: UnofferedDHGroupPolicy) throws -> RealClient {
        var client = try ClientRoleTests.client(port: port, pki: pki, suites: [suite])
        client.configuration.finiteFieldGroups = offer
        client.configuration.unofferedDHGroups = policy
        client.timeoutMilliseconds = 60_000
        return client
    }

    static func agreedGroup(_ trace: Trace) -> String? {
        ClientRoleTests.tlsEvents(trace).compactMap { e -> String? in
            if case .derived(.dhAgreement(_, _, let group, _, _, _, _)) = e { return group } else { return nil }
        }.first
    }

    static func offeredGroups(_ trace: Trace) -> [NamedGroup] {
        for case .handshakeSent(.clientHello(let hello), _) in ClientRoleTests.tlsEvents(trace) {
            for case .supportedGroups(let groups) in hello.extensions ?? [] { return groups }
        }
        return []
    }

    @Test("gnutls-serv answers in the named group both sides accept", arguments: [("FFDHE2048", "ffdhe2048"), ("FFDHE3072", "ffdhe3072")])
    func gnutlsServer(group: String, name: String) throws {
        let pki = try TestPKI.require()
        let (server, port) = try GnuTLS.server(pki: pki, priority: "NORMAL:-VERS-ALL:+VERS-TLS1.2:-KX-ALL:+DHE-RSA:-GROUP-ALL:+GROUP-\(group)")
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki, policy: .refuse).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")\n\(server.output.suffix(800))")
        #expect(Self.offeredGroups(result.trace) == [.ffdhe2048, .ffdhe3072])
        #expect(Self.agreedGroup(result.trace) == name)
        #expect(result.response?.hasPrefix("HTTP/1.0 200") == true, "\(result.response ?? "no response")")
    }

    @Test("gnutls-serv with only a group the client did not name: no DHE, and the handshake fails")
    func gnutlsServerWithoutCommonGroup() throws {
        let pki = try TestPKI.require()
        let (server, port) = try GnuTLS.server(pki: pki, priority: "NORMAL:-VERS-ALL:+VERS-TLS1.2:-KX-ALL:+DHE-RSA:-GROUP-ALL:+GROUP-FFDHE4096")
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki, policy: .acceptIfLargeEnough).run()
        #expect(result.failureText != nil)
        #expect(Self.agreedGroup(result.trace) == nil, "\(result.failureText ?? "")")
    }

    @Test("openssl s_server -dhparam ffdhe2048: the client recognises the named group it offered")
    func openSSLNamedGroup() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-cipher", "DHE-RSA-AES128-GCM-SHA256",
                                               "-www", "-dhparam", "ffdhe2048.pem"], pki: pki)
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki, policy: .refuse).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(Self.agreedGroup(result.trace) == "ffdhe2048")
    }

    @Test("openssl s_server's own MODP 2048 group: accepted by default, refused with insufficient_security by policy")
    func openSSLOwnGroup() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-cipher", "DHE-RSA-AES128-GCM-SHA256", "-www"], pki: pki)
        defer { server.stop() }
        let accepted = try Self.client(port: port, pki: pki, policy: .acceptIfLargeEnough).run()
        #expect(accepted.failureText == nil, "\(accepted.failureText ?? "")")
        #expect(Self.agreedGroup(accepted.trace) == "modp2048")
        let refused = try Self.client(port: port, pki: pki, policy: .refuse).run()
        #expect(refused.failureText?.contains("insufficient_security") == true, "\(refused.failureText ?? "no failure")")
        #expect(refused.failureText?.contains("RFC 7919 §3") == true, "\(refused.failureText ?? "")")
        #expect(Self.agreedGroup(refused.trace) == nil)
    }
}
