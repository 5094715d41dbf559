import Foundation
import RealPeer
import TLSEngine
import Testing
import Trace
import TestSupport

/// Encrypt-then-MAC (RFC 7366) with OpenSSL 3.0 in both roles, for CBC suites with each MAC:
/// OpenSSL offers and accepts it by default; `-no_etm` turns it off and the records are
/// MAC-then-encrypt again.
@Suite("RealPeer: encrypt-then-MAC with OpenSSL, both roles", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct EncryptThenMACInteropTests {
    static let suites: [(String, CipherSuite)] = [
        ("ECDHE-RSA-AES128-SHA", .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA),
        ("ECDHE-RSA-AES256-SHA384", .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384),
        ("DHE-RSA-AES128-SHA256", .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256),
        ("AES256-SHA", .TLS_RSA_WITH_AES_256_CBC_SHA),
    ]

    static func negotiatedETM(_ trace: Trace) -> Bool? {
        for case .tls(.negotiated(let n)) in trace.events.map(\.kind) { return n.encryptThenMAC }
        return nil
    }

    @Test("our client offers encrypt_then_mac; s_server answers it for a CBC suite; the request and page go through",
          arguments: [false, true], [0, 1, 2, 3])
    func clientRole(noETM: Bool, index: Int) throws {
        let pki = try TestPKI.require()
        let (name, suite) = Self.suites[index]
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-cipher", name, "-www"] + (noETM ? ["-no_etm"] : []),
                                              pki: pki)
        defer { server.stop() }
        var client = try ClientRoleTests.client(port: port, pki: pki, suites: [suite])
        client.configuration.offerEncryptThenMAC = true
        let result = client.run()
        #expect(result.failureText == nil, "\(name): \(result.failureText ?? "")")
        #expect(result.suite == suite)
        #expect(result.response?.hasPrefix("HTTP/1.0 200 ok") == true, "\(result.response ?? "no response")")
        #expect(Self.negotiatedETM(result.trace) == !noETM, "\(name) -no_etm \(noETM)")
    }

    @Test("s_client offers encrypt_then_mac by default; our server answers it for a CBC suite (and not with -no_etm)",
          arguments: [false, true], [0, 1, 2, 3])
    func serverRole(noETM: Bool, index: Int) throws {
        let pki = try TestPKI.require()
        let (name, suite) = Self.suites[index]
        let thread = try ServerRoleTests.server(pki: pki)
        defer { thread.stop() }
        let r = try ServerRoleTests.sClient(thread.port, pki: pki, ["-cipher", name] + (noETM ? ["-no_etm"] : []))
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output.suffix(1500))")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failureText == nil, "\(served.failureText ?? "")")
        #expect(served.facts.suite == suite)
        #expect(Self.negotiatedETM(served.trace) == !noETM, "\(name) -no_etm \(noETM)")
    }
}
