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
    static let dheOnly = "NORMAL:-VERS-ALL:+VERS-TLS1.2:-KX-ALL:+DHE-RSA:-GROUP-ALL"

    @Test("gnutls-cli offering only ffdhe3072 (or only ffdhe4096) gets DHE in that group", arguments: [("FFDHE3072", 3072), ("FFDHE4096", 4096)])
    func namedGroup(_ group: String, _ bits: Int) throws {
        let pki = try TestPKI.require()
        // Under a loaded CPU a 4096-bit group's arithmetic on both sides takes seconds: the server's
        // per-read timeout is generous, and every wait below ends when its event happens (the
        // handshake completing, the page arriving, the connection being recorded), not on a clock.
        let thread = try ServerRoleTests.server(pki: pki, suites: [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256],
                                                timeout: 60_000, handshakeTimeout: 90_000, requestTimeout: 90_000)
        defer { thread.stop() }
        let output = try GnuTLS.client(port: thread.port, pki: pki, priority: Self.dheOnly + ":+GROUP-\(group)",
                                       until: "client certificate:")
        #expect(output.contains("TLSLab serve: this connection"), "\(output.suffix(1500))")
        #expect(output.contains("FFDHE\(bits)") || output.contains("\(bits) bits"), "\(output.prefix(2000))")
        #expect(thread.waitFor(1, seconds: GnuTLS.patience))
        #expect(thread.connections.first?.failureText == nil, "\(thread.connections.first?.englishLogLine ?? "")")
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
        let output = try GnuTLS.client(port: thread.port, pki: pki, priority: Self.dheOnly + ":+GROUP-FFDHE8192",
                                       until: "client certificate:")
        #expect(!output.contains("TLSLab serve: this connection"))
        #expect(thread.waitFor(1, seconds: GnuTLS.patience))
        #expect(thread.connections.first?.failureText?.contains("insufficient_security") == true, "\(thread.connections.first?.englishLogLine ?? "")")
    }
}
