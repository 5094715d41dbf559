import Foundation
import PKI
import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import Trace
import TestSupport

/// Ed25519 certificates and handshake signatures (RFC 8422 §5.1.3, scheme ed25519) on real connections:
/// our server with an Ed25519 leaf (under the P-384 EC root) and an Ed25519 client certificate (under
/// the RSA root), against OpenSSL and GnuTLS in both roles.
@Suite("RealPeer: Ed25519 against OpenSSL and GnuTLS", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct Ed25519InteropTests {
    static func server(pki: TestPKI) throws -> ServerThread {
        let identity = try PeerFiles.identity(certificate: pki.path("ed25519-chain.pem"), key: pki.path("ed25519.key"))
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: 5_000,
                              handshakeTimeoutMilliseconds: 30_000, requestTimeoutMilliseconds: 30_000, page: englishPage) {
            TLSServerConfiguration(identity: identity, random: SystemRandom())
        }
        return ServerThread(real)
    }

    static func skeScheme(_ trace: Trace) -> SignatureScheme? {
        trace.events.compactMap { e -> SignatureTrace? in
            if case .tls(.signature(let s)) = e.kind, s.purpose == .serverKeyExchange { return s } else { return nil }
        }.first.flatMap { $0.valid ? $0.scheme : nil }
    }

    @Test("s_client against our Ed25519 server: it verifies the chain and our ed25519 ServerKeyExchange")
    func sClientAgainstOurServer() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let r = try runTool(Tools.openssl ?? "openssl",
                            ["s_client", "-connect", "127.0.0.1:\(thread.port)", "-tls1_2", "-CAfile", "ecroot.pem", "-verify_return_error",
                             "-servername", "localhost", "-ign_eof"],
                            in: pki.dir, stdin: "GET / HTTP/1.0\r\n\r\n", timeout: 20)
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        #expect(r.output.contains("Peer signature type: ed25519"), "\(r.output)")
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.facts.suite?.parameters?.keyExchange == .ecdheECDSA)
    }

    @Test("our client against s_server with the Ed25519 certificate")
    func ourClientAgainstSServer() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "ed25519-chain.pem", "-key", "ed25519.key", "-www"], pki: pki)
        defer { server.stop() }
        let result = try P521InteropTests.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.response?.hasPrefix("HTTP/1.0 200 ok") == true, "\(result.response ?? "no response")")
        #expect(Self.skeScheme(result.trace) == .ed25519)
    }

    @Test("gnutls-cli against our Ed25519 server (skipped without gnutls-cli, failed under CI)")
    func gnutlsClientAgainstOurServer() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let output = try GnuTLS.client(port: thread.port, pki: pki, priority: "NORMAL:-VERS-ALL:+VERS-TLS1.2",
                                       caFile: "ecroot.pem", until: "client certificate:")
        #expect(output.contains("- Handshake was completed"), "\(output.prefix(2500))")
        #expect(output.contains("EdDSA"), "GnuTLS names the signature: \(output.prefix(2500))")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first.map { Self.skeScheme($0.trace) } == .ed25519)
    }

    @Test("our client against gnutls-serv with the Ed25519 certificate (skipped without gnutls-serv, failed under CI)")
    func ourClientAgainstGnuTLSServer() throws {
        let pki = try TestPKI.require()
        let (server, port) = try GnuTLS.server(pki: pki, priority: "NORMAL:-VERS-ALL:+VERS-TLS1.2",
                                               certificate: "ed25519-chain.pem", key: "ed25519.key")
        defer { server.stop() }
        let result = try P521InteropTests.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.response?.hasPrefix("HTTP/1.0 200") == true, "\(result.response ?? "no response")")
        #expect(Self.skeScheme(result.trace) == .ed25519)
    }

    @Test("serve --client-auth require: s_client with an Ed25519 client certificate (CertificateVerify ed25519)")
    func ed25519ClientCertificateAgainstServe() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--client-auth", "require", "--client-ca", "root.pem", "--max-connections", "1"], pki: pki)
        defer { serve.stop() }
        let r = try ServerRoleTests.sClient(port, pki: pki, ["-cert", "edclient.pem", "-key", "edclient.key"])
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        #expect(r.output.contains("Requested Signature Algorithms: ECDSA+SHA256:ECDSA+SHA384:ECDSA+SHA512:ed25519:"), "\(r.output)")
        #expect(r.output.contains("client certificate: CN=TLSLab Test Ed25519 Client"), "our page names the client: \(r.output)")
    }

    @Test("tlslab connect with the Ed25519 client certificate against s_server -Verify 1")
    func connectWithEd25519ClientCertificate() throws {
        try connectWithClientCertificateAgainstSServer(certificate: "edclient.pem", key: "edclient.key", scheme: "ed25519", subject: "TLSLab Test Ed25519 Client")
    }
}
