import Foundation
import PKI
import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import TestSupport

/// The suites of issue #39 on real connections, each in both roles against OpenSSL and GnuTLS:
/// ChaCha20-Poly1305 (RFC 7905) with ECDHE_RSA, ECDHE_ECDSA and DHE_RSA, and AES-256-GCM with DHE_RSA
/// (RFC 5288, the SHA-384 PRF and Finished). Our server and client run in this process; the peers
/// are `openssl s_client`/`s_server`, `gnutls-cli`/`gnutls-serv` (skipped when not installed,
/// failed under CI).
@Suite("RealPeer: ChaCha20-Poly1305 and DHE AES-256-GCM against OpenSSL and GnuTLS, both roles", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct SuitesInteropTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let suite: CipherSuite
        let openSSL: String
        /// GnuTLS priority items: key exchange and cipher.
        let gnutlsKX: String, gnutlsCipher: String
        /// "rsa" (chain.pem, root.pem) or "256" (the EC P-256 chain, ecroot.pem).
        let certificate: String
        var testDescription: String { CipherSuite.names[suite.rawValue] ?? "\(suite)" }

        var gnutlsPriority: String {
            "NORMAL:-VERS-ALL:+VERS-TLS1.2:-KX-ALL:+\(gnutlsKX):-CIPHER-ALL:+\(gnutlsCipher)"
        }
        var serverFiles: (cert: String, key: String, ca: String) {
            certificate == "rsa" ? ("chain.pem", "leaf.key", "root.pem") : ("ec\(certificate)-chain.pem", "ec\(certificate).key", "ecroot.pem")
        }
    }

    static let cases: [Case] = [
        Case(suite: .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, openSSL: "ECDHE-RSA-CHACHA20-POLY1305",
             gnutlsKX: "ECDHE-RSA", gnutlsCipher: "CHACHA20-POLY1305", certificate: "rsa"),
        Case(suite: .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, openSSL: "ECDHE-ECDSA-CHACHA20-POLY1305",
             gnutlsKX: "ECDHE-ECDSA", gnutlsCipher: "CHACHA20-POLY1305", certificate: "256"),
        Case(suite: .TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256, openSSL: "DHE-RSA-CHACHA20-POLY1305",
             gnutlsKX: "DHE-RSA", gnutlsCipher: "CHACHA20-POLY1305", certificate: "rsa"),
        Case(suite: .TLS_DHE_RSA_WITH_AES_256_GCM_SHA384, openSSL: "DHE-RSA-AES256-GCM-SHA384",
             gnutlsKX: "DHE-RSA", gnutlsCipher: "AES-256-GCM", certificate: "rsa"),
    ]

    /// Our server with every suite it accepts by default, with the case's certificate.
    static func server(_ c: Case, pki: TestPKI) throws -> ServerThread {
        let files = c.serverFiles
        let identity = try PeerFiles.identity(certificate: pki.path(files.cert), key: pki.path(files.key))
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: 5_000,
                              handshakeTimeoutMilliseconds: 30_000, requestTimeoutMilliseconds: 30_000, page: englishPage) {
            TLSServerConfiguration(identity: identity, random: SystemRandom())
        }
        return ServerThread(real)
    }

    /// Our client offering only the case's suite, as `tlslab connect` configures itself (ECDSA and RSA
    /// schemes, the FFDHE groups named).
    static func client(_ c: Case, port: UInt16, pki: TestPKI) throws -> RealClient {
        let roots = try PeerFiles.certificates(at: pki.path(c.serverFiles.ca))
        var configuration = TLSClientConfiguration(certificateEvaluator: PeerFiles.chainEvaluator(anchors: roots, storeName: .file("test root")),
                                                   random: SystemRandom(), cipherSuites: [c.suite], serverName: "localhost",
                                                   signatureAlgorithms: RealClient.openSSLSignatureOrder,
                                                   supportedGroups: [.x25519, .secp256r1, .secp384r1])
        configuration.finiteFieldGroups = [.ffdhe2048, .ffdhe3072]
        return RealClient(host: "127.0.0.1", port: port, configuration: configuration,
                          request: "GET / HTTP/1.0\r\n\r\n", timeoutMilliseconds: 10_000)
    }

    @Test("openssl s_client against our server", arguments: cases)
    func sClientAgainstOurServer(_ c: Case) throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(c, pki: pki)
        defer { thread.stop() }
        let r = try runTool(Tools.openssl ?? "openssl",
                            ["s_client", "-connect", "127.0.0.1:\(thread.port)", "-tls1_2", "-CAfile", c.serverFiles.ca,
                             "-verify_return_error", "-servername", "localhost", "-ign_eof", "-cipher", c.openSSL],
                            in: pki.dir, stdin: "GET / HTTP/1.0\r\n\r\n", timeout: 20)
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        #expect(r.output.contains("Cipher is \(c.openSSL)"), "\(r.output)")
        #expect(r.output.contains("TLSLab serve: this connection"), "our page came through the records: \(r.output)")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.facts.suite == c.suite)
    }

    @Test("our client against openssl s_server", arguments: cases)
    func ourClientAgainstSServer(_ c: Case) throws {
        let pki = try TestPKI.require()
        let files = c.serverFiles
        let (server, port) = try startSServer(["-cert", files.cert, "-key", files.key, "-cipher", c.openSSL, "-www"], pki: pki)
        defer { server.stop() }
        let result = try Self.client(c, port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.suite == c.suite)
        // s_server -www answers with a page naming the suite: our client decrypted it.
        #expect(result.response?.hasPrefix("HTTP/1.0 200 ok") == true, "\(result.response ?? "no response")")
        #expect(result.response?.contains("Cipher is \(c.openSSL)") == true || result.response?.contains(c.openSSL) == true,
                "\(result.response ?? "no response")")
    }

    @Test("gnutls-cli against our server (skipped without gnutls-cli, failed under CI)", arguments: cases)
    func gnutlsClientAgainstOurServer(_ c: Case) throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(c, pki: pki)
        defer { thread.stop() }
        let output = try GnuTLS.client(port: thread.port, pki: pki, priority: c.gnutlsPriority, caFile: c.serverFiles.ca,
                                       until: "client certificate:")
        #expect(output.contains("- Handshake was completed"), "\(output.prefix(2500))")
        #expect(output.contains("(\(c.gnutlsCipher))"), "GnuTLS names the cipher: \(output.prefix(2500))")
        #expect(output.contains("cipher suite: \(CipherSuite.names[c.suite.rawValue] ?? "?")\n"), "our page: \(output.suffix(800))")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.facts.suite == c.suite)
    }

    @Test("our client against gnutls-serv (skipped without gnutls-serv, failed under CI)", arguments: cases)
    func ourClientAgainstGnuTLSServer(_ c: Case) throws {
        let pki = try TestPKI.require()
        let files = c.serverFiles
        let (server, port) = try GnuTLS.server(pki: pki, priority: c.gnutlsPriority, certificate: files.cert, key: files.key)
        defer { server.stop() }
        let result = try Self.client(c, port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.suite == c.suite)
        #expect(result.response?.hasPrefix("HTTP/1.0 200") == true, "\(result.response ?? "no response")")
    }
}
