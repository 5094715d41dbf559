import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Issue #37: client authentication in TLS 1.3 when the client has no certificate (RFC 8446 §4.4.2,
/// §4.4.3): it answers the CertificateRequest with an empty Certificate and no CertificateVerify; a
/// server that only requested one goes on, and says so in its trace and its page; one that requires
/// it answers certificate_required (§4.4.2.4).
@Suite("RealPeer: TLS 1.3 client authentication without a client certificate", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct TLS13EmptyClientCertificateTests {
    static func empty(_ events: [TLS13Event]) -> Bool {
        events.contains { if case .emptyClientCertificate = $0 { true } else { false } }
    }

    @Test("serve --client-auth request: s_client -tls1_3 without -cert completes; the trace and the page say no client certificate was sent")
    func sClientWithoutCertificate() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--client-auth", "request", "--client-ca", "root.pem", "--max-connections", "1"], pki: pki, logOnly: false)
        defer { serve.stop() }
        let out = try TLS13ServeInteropTests.sClient(port, pki: pki, ["-tls1_3"])
        #expect(out.contains("New, TLSv1.3"), "\(out)")
        #expect(out.contains("client certificate: none"), "the page: \(out)")
        #expect(serve.wait(for: "stopped", seconds: 5), "\(serve.output)")
        #expect(serve.output.contains("CertificateRequest"), "\(serve.output)")
        // The ladder wraps its lines at 100 columns: the first line of the sentence.
        #expect(serve.output.contains("server: the client's Certificate is empty"), "\(serve.output)")
    }

    @Test("serve --client-auth request: connect without a certificate sends an empty Certificate; both traces say so, the page too")
    func connectWithoutCertificateAgainstServe() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--client-auth", "request", "--client-ca", "root.pem", "--max-connections", "1"], pki: pki, logOnly: false)
        defer { serve.stop() }
        let result = try TLS13ConnectInteropTests.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.version == .tls13)
        let events = TLS13ConnectInteropTests.tls13(result.trace)
        #expect(events.contains { if case .certificateRequested = $0 { true } else { false } })
        #expect(Self.empty(events))
        #expect(!events.contains { if case .certificateVerifySigned = $0 { true } else { false } })
        #expect(result.response?.contains("client certificate: none") == true, "\(result.response ?? "")")
        #expect(serve.wait(for: "stopped", seconds: 5), "\(serve.output)")
        // The ladder wraps its lines at 100 columns: the first line of the sentence.
        #expect(serve.output.contains("server: the client's Certificate is empty"), "\(serve.output)")
        // The command line: the client's own line in its trace.
        let (again, port2) = try startServe(["--client-auth", "request", "--client-ca", "root.pem"], pki: pki)
        defer { again.stop() }
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port2)", "--servername", "localhost", "--ca", "root.pem", "--timeout", "5"],
                            in: pki.dir, environment: ["NO_COLOR": "1", "COLUMNS": "400"], timeout: 30)
        #expect(r.status == 0, "\(r.output.suffix(1500))")
        #expect(r.output.contains("no certificate to answer the CertificateRequest with"), "\(r.output.suffix(3000))")
        #expect(r.output.contains("client certificate: none"), "\(r.output.suffix(1500))")
    }

    @Test("connect without a certificate against s_server -tls1_3 -verify 1 (requested): completes with an empty Certificate; -Verify 1 (required): certificate_required")
    func connectWithoutCertificateAgainstSServer() throws {
        let pki = try TestPKI.require()
        let (requesting, port) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-verify", "1", "-CAfile", "root.pem", "-www"], pki: pki)
        defer { requesting.stop() }
        let result = try TLS13ConnectInteropTests.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")\n\(requesting.output.suffix(800))")
        #expect(result.version == .tls13)
        #expect(Self.empty(TLS13ConnectInteropTests.tls13(result.trace)))
        #expect(result.response?.contains("New, TLSv1.3") == true, "\(result.response ?? "")")

        let (requiring, port2) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-Verify", "1", "-CAfile", "root.pem", "-www"], pki: pki)
        defer { requiring.stop() }
        let refused = try TLS13ConnectInteropTests.client(port: port2, pki: pki).run()
        #expect(Self.empty(TLS13ConnectInteropTests.tls13(refused.trace)))
        #expect(refused.failureText?.contains("certificate_required") == true, "\(refused.failureText ?? "success")")
    }
}
