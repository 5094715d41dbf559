import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// RFC 7919 §4 against GnuTLS: a client that names finite-field groups in supported_groups gets
/// DHE in one of them (gnutls-cli's `+GROUP-FFDHE3072`), and one that names only groups the server
/// does not accept gets no DHE suite — with nothing else in common, insufficient_security.
@Suite("RealPeer: FFDHE negotiation with gnutls-cli", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH (it builds the test PKI)"))
struct FFDHEInteropTests {
    static func gnutls(_ port: UInt16, pki: TestPKI, priority: String) throws -> (status: Int32, output: String) {
        let tool = try Tools.need(Tools.find("gnutls-cli"), "gnutls-cli is not on the PATH (Debian: gnutls-bin)")
        return try runTool(tool, ["--port", "\(port)", "--x509cafile", "root.pem", "--sni-hostname", "localhost",
                                  "--verify-hostname", "localhost", "--priority", priority, "127.0.0.1"],
                           in: pki.dir, stdin: "GET / HTTP/1.0\r\n\r\n", timeout: 20)
    }

    static let dheOnly = "NORMAL:-VERS-ALL:+VERS-TLS1.2:-KX-ALL:+DHE-RSA:-GROUP-ALL"

    @Test("gnutls-cli offering only ffdhe3072 (or only ffdhe4096) gets DHE in that group", arguments: [("FFDHE3072", 3072), ("FFDHE4096", 4096)])
    func namedGroup(_ group: String, _ bits: Int) throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki, suites: [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256])
        defer { thread.stop() }
        let r = try Self.gnutls(thread.port, pki: pki, priority: Self.dheOnly + ":+GROUP-\(group)")
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output.suffix(1500))")
        #expect(r.output.contains("FFDHE\(bits)") || r.output.contains("\(bits) bits"), "\(r.output.prefix(2000))")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.failure == nil, "\(thread.connections.first?.logLine ?? "")")
        let groups = thread.connections.first?.trace.events.compactMap { e -> String? in
            if case .tls(.negotiated(let n)) = e.kind { return n.group } else { return nil }
        } ?? []
        #expect(groups == ["ffdhe\(bits)"], "\(groups)")
    }

    @Test("a client naming only a group the server does not accept: no DHE; nothing else in common → insufficient_security")
    func unacceptableGroup() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki, suites: [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256])
        defer { thread.stop() }
        let r = try Self.gnutls(thread.port, pki: pki, priority: Self.dheOnly + ":+GROUP-FFDHE8192")
        #expect(!r.output.contains("TLSLab serve: this connection"))
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.failure?.contains("insufficient_security") == true, "\(thread.connections.first?.logLine ?? "")")
    }
}
