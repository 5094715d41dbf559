import Foundation
import PKI
import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import Trace
import TestSupport

/// secp521r1 on real connections (issue #39): ECDHE over P-521 and ECDSA P-521 certificates
/// (ecdsa_secp521r1_sha512) for the server and the client, against OpenSSL and GnuTLS in both roles.
/// The P-521 leaf is under the P-384 EC root; the P-521 client certificate under the RSA root.
@Suite("RealPeer: P-521 ECDHE and ECDSA against OpenSSL and GnuTLS", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct P521InteropTests {
    static func tlsEvents(_ trace: Trace) -> [TLSEvent] {
        trace.events.compactMap { if case .tls(let e) = $0.kind { return e } else { return nil } }
    }

    static func curves(_ trace: Trace) -> [NamedGroup] {
        tlsEvents(trace).compactMap { if case .derived(.ecdhAgreement(let curve, _, _, _, _)) = $0 { return curve } else { return nil } }
    }

    static func client(port: UInt16, pki: TestPKI) throws -> RealClient {
        var client = try ECDSAInteropTests.client(port: port, pki: pki, suites: CipherSuite.openSSLOrder,
                                                  groups: [.x25519, .secp256r1, .secp384r1, .secp521r1])
        // As `tlslab connect`: the ECDSA schemes with P-521's.
        client.configuration.signatureAlgorithms = RealClient.openSSLSignatureOrder
        return client
    }

    @Test("s_client against our P-521 server, ECDHE over P-521: it verifies our chain and our ecdsa_secp521r1_sha512 signature")
    func sClientAgainstOurP521Server() throws {
        let pki = try TestPKI.require()
        let thread = try ECDSAInteropTests.server(pki: pki, curve: "521")
        defer { thread.stop() }
        let r = try runTool(Tools.openssl ?? "openssl",
                            ["s_client", "-connect", "127.0.0.1:\(thread.port)", "-tls1_2", "-CAfile", "ecroot.pem", "-verify_return_error",
                             "-servername", "localhost", "-ign_eof", "-groups", "P-521"],
                            in: pki.dir, stdin: "GET / HTTP/1.0\r\n\r\n", timeout: 20)
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        #expect(r.output.contains("Peer signature type: ECDSA"), "\(r.output)")
        #expect(r.output.contains("Peer signing digest: SHA512"), "\(r.output)")
        #expect(r.output.contains("Server Temp Key: ECDH, secp521r1, 521 bits"), "\(r.output)")
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.facts.suite?.parameters?.keyExchange == .ecdheECDSA)
        #expect(Self.curves(served.trace) == [.secp521r1])
    }

    @Test("our client against s_server with the P-521 certificate and -groups P-521")
    func ourClientAgainstSServer() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "ec521-chain.pem", "-key", "ec521.key", "-www", "-groups", "P-521"], pki: pki)
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.suite?.parameters?.keyExchange == .ecdheECDSA, "\(String(describing: result.suite))")
        #expect(result.response?.hasPrefix("HTTP/1.0 200 ok") == true, "\(result.response ?? "no response")")
        #expect(Self.curves(result.trace) == [.secp521r1])
        let ske = try #require(Self.tlsEvents(result.trace).compactMap { e -> SignatureTrace? in
            if case .signature(let s) = e, s.purpose == .serverKeyExchange { return s } else { return nil }
        }.first)
        #expect(ske.valid, "our client verified OpenSSL's P-521 signature (\(String(describing: ske.scheme)))")
    }

    @Test("gnutls-cli against our P-521 server (skipped without gnutls-cli, failed under CI)")
    func gnutlsClientAgainstOurP521Server() throws {
        let pki = try TestPKI.require()
        let thread = try ECDSAInteropTests.server(pki: pki, curve: "521")
        defer { thread.stop() }
        let output = try GnuTLS.client(port: thread.port, pki: pki, priority: "NORMAL:-VERS-ALL:+VERS-TLS1.2:-GROUP-ALL:+GROUP-SECP521R1",
                                       caFile: "ecroot.pem", until: "client certificate:")
        #expect(output.contains("- Handshake was completed"), "\(output.prefix(2500))")
        #expect(output.contains("(ECDHE-SECP521R1)-(ECDSA-SHA512)"), "GnuTLS names curve and signature: \(output.prefix(2500))")
        #expect(thread.waitFor(1))
        #expect(Self.curves(try #require(thread.connections.first).trace) == [.secp521r1])
    }

    @Test("our client against gnutls-serv with the P-521 certificate (skipped without gnutls-serv, failed under CI)")
    func ourClientAgainstGnuTLSServer() throws {
        let pki = try TestPKI.require()
        let (server, port) = try GnuTLS.server(pki: pki, priority: "NORMAL:-VERS-ALL:+VERS-TLS1.2:-GROUP-ALL:+GROUP-SECP521R1",
                                               certificate: "ec521-chain.pem", key: "ec521.key")
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.suite?.parameters?.keyExchange == .ecdheECDSA)
        #expect(result.response?.hasPrefix("HTTP/1.0 200") == true, "\(result.response ?? "no response")")
        #expect(Self.curves(result.trace) == [.secp521r1])
    }

    @Test("serve --client-auth require: s_client with a P-521 client certificate signs CertificateVerify with ecdsa_secp521r1_sha512, which serve asks for")
    func p521ClientCertificateAgainstServe() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--client-auth", "require", "--client-ca", "root.pem", "--max-connections", "1"], pki: pki)
        defer { serve.stop() }
        let r = try ServerRoleTests.sClient(port, pki: pki, ["-cert", "ecclient521.pem", "-key", "ecclient521.key"])
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        #expect(r.output.contains("Requested Signature Algorithms: ECDSA+SHA256:ECDSA+SHA384:ECDSA+SHA512:"), "\(r.output)")
        #expect(r.output.contains("client certificate: CN=TLSLab Test P-521 Client"), "our page names the client: \(r.output)")
        #expect(serve.wait(for: "stopped", seconds: 5), "\(serve.output)")
    }

    @Test("tlslab connect with the P-521 client certificate against s_server -Verify 1: s_server verifies our P-521 CertificateVerify")
    func connectWithP521ClientCertificate() throws {
        try connectWithClientCertificateAgainstSServer(certificate: "ecclient521.pem", key: "ecclient521.key", scheme: "ecdsa_secp521r1_sha512", subject: "TLSLab Test P-521 Client")
    }

    @Test("gnutls-cli with the P-521 client certificate against serve --client-auth require (skipped without gnutls-cli)")
    func gnutlsP521ClientCertificate() throws {
        let pki = try TestPKI.require()
        let gnutls = try Tools.need(Tools.find("gnutls-cli"), "gnutls-cli is not on the PATH (Debian: gnutls-bin)")
        let (serve, port) = try startServe(["--client-auth", "require", "--client-ca", "root.pem", "--max-connections", "1"], pki: pki)
        defer { serve.stop() }
        let child = try Child(gnutls, ["--port", "\(port)", "--x509cafile", "root.pem", "--sni-hostname", "localhost",
                                       "--verify-hostname", "localhost", "--x509certfile", "ecclient521.pem", "--x509keyfile", "ecclient521.key",
                                       "--priority", "NORMAL:-VERS-ALL:+VERS-TLS1.2", "127.0.0.1"], in: pki.dir)
        defer { child.stop() }
        #expect(child.wait(for: "- Handshake was completed", seconds: GnuTLS.patience), "\(child.output.prefix(2500))")
        child.send("GET / HTTP/1.0\r\n\r\n")
        #expect(child.wait(for: "client certificate: CN=TLSLab Test P-521 Client", seconds: GnuTLS.patience), "\(child.output.suffix(1500))")
    }
}
