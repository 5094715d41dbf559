import Foundation
import PKI
import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import Trace
import TestSupport

/// ECDSA certificates on real connections (RFC 8422): our server with an EC P-256 or P-384 key
/// against `openssl s_client` (and gnutls-cli when installed), our client against `openssl s_server`
/// with EC certificates, and P-384 for ECDHE. The EC chain is ecroot (P-384, self-signed) → leaf.
@Suite("RealPeer: ECDSA certificates against OpenSSL and GnuTLS", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ECDSAInteropTests {
    static func server(pki: TestPKI, curve: String) throws -> ServerThread {
        let identity = try PeerFiles.identity(certificate: pki.path("ec\(curve)-chain.pem"), key: pki.path("ec\(curve).key"))
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: 5_000,
                              handshakeTimeoutMilliseconds: 30_000, requestTimeoutMilliseconds: 30_000, page: englishPage) {
            TLSServerConfiguration(identity: identity, random: SystemRandom())
        }
        return ServerThread(real)
    }

    static func client(port: UInt16, pki: TestPKI, suites: [CipherSuite] = CipherSuite.offerWithECDSA,
                       groups: [NamedGroup] = [.x25519, .secp256r1, .secp384r1]) throws -> RealClient {
        let roots = try PeerFiles.certificates(at: pki.path("ecroot.pem"))
        let configuration = TLSClientConfiguration(certificateEvaluator: PeerFiles.chainEvaluator(anchors: roots, storeName: .file("EC test root")),
                                                   random: SystemRandom(), cipherSuites: suites, serverName: "localhost",
                                                   signatureAlgorithms: RealClient.openSSLSignatureOrder, supportedGroups: groups)
        return RealClient(host: "127.0.0.1", port: port, configuration: configuration,
                          request: "GET / HTTP/1.0\r\n\r\n", timeoutMilliseconds: 5_000)
    }

    /// (curve, s_client cipher, the suite).
    static let serverCases: [(String, String, CipherSuite)] = [
        ("256", "ECDHE-ECDSA-AES128-GCM-SHA256", .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256),
        ("384", "ECDHE-ECDSA-AES256-GCM-SHA384", .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384),
        ("384", "ECDHE-ECDSA-AES128-GCM-SHA256", .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256),
        // The CBC ones (MAC-then-encrypt or, as s_client asks, encrypt-then-MAC).
        ("256", "ECDHE-ECDSA-AES128-SHA256", .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256),
        ("384", "ECDHE-ECDSA-AES256-SHA384", .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384),
        ("256", "ECDHE-ECDSA-AES128-SHA", .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA),
        ("384", "ECDHE-ECDSA-AES256-SHA", .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA),
    ]

    @Test("our server with an EC certificate: s_client verifies it and the ECDSA ServerKeyExchange", arguments: 0 ..< serverCases.count)
    func ourServerAgainstSClient(_ index: Int) throws {
        let pki = try TestPKI.require()
        let (curve, cipher, suite) = Self.serverCases[index]
        let thread = try Self.server(pki: pki, curve: curve)
        defer { thread.stop() }
        let r = try runTool(Tools.openssl ?? "openssl",
                            ["s_client", "-connect", "127.0.0.1:\(thread.port)", "-tls1_2", "-CAfile", "ecroot.pem", "-verify_return_error",
                             "-servername", "localhost", "-ign_eof", "-cipher", cipher],
                            in: pki.dir, stdin: "GET / HTTP/1.0\r\n\r\n", timeout: 15)
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        #expect(r.output.contains("Cipher is \(cipher)"), "\(r.output)")
        // OpenSSL names the peer's signature: ECDSA with the curve's own hash first.
        #expect(r.output.contains("Peer signature type: ECDSA"), "\(r.output)")
        #expect(r.output.contains("Peer signing digest: \(curve == "384" ? "SHA384" : "SHA256")"), "\(r.output)")
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.facts.suite == suite)
    }

    @Test("our server with an RSA certificate never picks an ECDSA suite (s_client offering only ECDSA gets handshake_failure)")
    func rsaServerRefusesECDSAOnlyClient() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki, suites: CipherSuite.allImplementedWithECDSA)
        defer { thread.stop() }
        let r = try ServerRoleTests.sClient(thread.port, pki: pki, ["-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"])
        #expect(r.output.contains("handshake failure"), "\(r.output)")
    }

    static let clientCases: [(String, String, CipherSuite, [String], NamedGroup)] = [
        ("256", "ECDHE-ECDSA-AES128-GCM-SHA256", .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, ["-groups", "X25519"], .x25519),
        ("384", "ECDHE-ECDSA-AES256-GCM-SHA384", .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, ["-groups", "P-256"], .secp256r1),
        ("256", "ECDHE-ECDSA-AES128-GCM-SHA256", .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, ["-groups", "P-384"], .secp384r1),
        // An RSA certificate with ECDHE over P-384.
        ("rsa", "ECDHE-RSA-AES256-GCM-SHA384", .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, ["-groups", "P-384"], .secp384r1),
    ]

    @Test("our client against s_server with an EC certificate (both curves) and with P-384 ECDHE", arguments: 0 ..< clientCases.count)
    func ourClientAgainstSServer(_ index: Int) throws {
        let pki = try TestPKI.require()
        let (curve, cipher, suite, groups, group) = Self.clientCases[index]
        let files = curve == "rsa" ? ["-cert", "chain.pem", "-key", "leaf.key"] : ["-cert", "ec\(curve)-chain.pem", "-key", "ec\(curve).key"]
        let (server, port) = try startSServer(files + ["-cipher", cipher, "-www"] + groups, pki: pki)
        defer { server.stop() }
        var client = try Self.client(port: port, pki: pki)
        if curve == "rsa" {
            let roots = try PeerFiles.certificates(at: pki.path("root.pem"))
            client.configuration.certificateEvaluator = PeerFiles.chainEvaluator(anchors: roots, storeName: .file("test root"))
        }
        let result = client.run()
        #expect(result.failureText == nil, "\(cipher) \(groups): \(result.failureText ?? "")")
        #expect(result.suite == suite)
        #expect(result.response?.hasPrefix("HTTP/1.0 200 ok") == true, "\(result.response ?? "no response")")
        let tls = result.trace.events.compactMap { if case .tls(let e) = $0.kind { return e } else { return nil } }
        let curves = tls.compactMap { if case .derived(.ecdhAgreement(let curve, _, _, _, _)) = $0 { return curve } else { return nil } }
        #expect(curves == [group], "\(curves)")
        let signatures = tls.compactMap { if case .signature(let s) = $0 { return s } else { return nil } }
        let ske = try #require(signatures.first { $0.purpose == .serverKeyExchange })
        #expect(ske.valid)
        if curve != "rsa" {
            // OpenSSL's TLS 1.2 server takes the first ECDSA scheme we list (P-256/SHA-256) even with a P-384 key:
            // TLS 1.2 ties no curve to the hash (RFC 8422 §5.4), unlike TLS 1.3 (RFC 8446 §4.2.3).
            #expect(ske.scheme == .ecdsaSECP256r1SHA256, "\(String(describing: ske.scheme))")
        }
    }

    @Test("gnutls-cli against our EC server (skipped when gnutls-cli is not installed, failed under CI)")
    func gnutlsClient() throws {
        let pki = try TestPKI.require()
        let gnutls = try Tools.need(Tools.find("gnutls-cli"), "gnutls-cli is not installed")
        let thread = try Self.server(pki: pki, curve: "256")
        defer { thread.stop() }
        let r = try runTool(gnutls, ["--x509cafile", "ecroot.pem", "--port", "\(thread.port)", "--priority", "NORMAL:-VERS-ALL:+VERS-TLS1.2",
                                     "localhost"], in: pki.dir, stdin: "GET / HTTP/1.0\r\n\r\n", timeout: 15)
        #expect(r.output.contains("Handshake was completed"), "\(r.output)")
        #expect(r.output.contains("-(ECDSA-SHA256)-(AES-128-GCM)"), "GnuTLS names our ServerKeyExchange signature: \(r.output)")
        #expect(r.output.contains("cipher suite: TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"), "\(r.output)")
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
    }

    @Test("curl --tlsv1.2 gets the page from our P-256 server and names the ECDSA suite")
    func curlAgainstOurECServer() throws {
        let curl = try Tools.need(Tools.curl, "curl is not on the PATH")
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki, curve: "256")
        defer { thread.stop() }
        let r = try runTool(curl, ["--silent", "--show-error", "--tlsv1.2", "--tls-max", "1.2", "--cacert", "ecroot.pem",
                                   "https://127.0.0.1:\(thread.port)/"], in: pki.dir)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("cipher suite: TLS_ECDHE_ECDSA_WITH_AES_"), "\(r.output)")
    }

    @Test("our client against gnutls-serv with the P-384 certificate (skipped without gnutls-serv, failed under CI)")
    func ourClientAgainstGnuTLSServer() throws {
        let pki = try TestPKI.require()
        let gnutls = try Tools.need(Tools.find("gnutls-serv"), "gnutls-serv is not installed")
        var server: Child?
        var port: UInt16 = 0
        for _ in 0 ..< 5 {
            guard let candidate = freePort() else { continue }
            let child = try Child(gnutls, ["--http", "--port", "\(candidate)", "--x509certfile", "ec384-chain.pem",
                                           "--x509keyfile", "ec384.key", "--priority", "NORMAL:-VERS-ALL:+VERS-TLS1.2"], in: pki.dir)
            if child.wait(for: "listening") { server = child; port = candidate; break }
            child.stop()
        }
        let running = try #require(server, "gnutls-serv did not start")
        defer { running.stop() }
        let result = try Self.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.suite?.parameters?.keyExchange == .ecdheECDSA, "\(String(describing: result.suite))")
        #expect(result.response?.hasPrefix("HTTP/1.0 200") == true, "\(result.response ?? "no response")")
    }
}
