import Foundation
import HTTP2
import PKI
import RealPeer
import Rendering
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust
import TestSupport

/// Issue #37, server role: our server speaks TLS 1.3 (preferred) and 1.2 on one port, with real
/// clients — `openssl s_client -tls1_3` with each group alone, a HelloRetryRequest, ECDSA and RSA-PSS
/// certificates, PSK resumption, 0-RTT, client certificates; `gnutls-cli`, Python's ssl, curl
/// (HTTP/1.1 and h2) — and tshark decrypts a capture with the key log. Each test is a cell of the
/// README's interop table.
@Suite("RealPeer: TLS 1.3 clients against our server", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct TLS13ServeInteropTests {
    struct Options {
        var certificate = "chain.pem", key = "leaf.key"
        var tls12 = true
        var auth = ClientAuthentication.none
        var earlyData = false
        var singleUse = true
        var alpn: [ProtocolName] = []
    }

    static func server(pki: TestPKI, _ o: Options = Options()) throws -> ServerThread {
        let identity = try PeerFiles.identity(certificate: pki.path(o.certificate), key: pki.path(o.key))
        let roots = try PeerFiles.certificates(at: pki.path("root.pem"))
        let auth = o.auth
        @Sendable func evaluator() -> ChainTrustEvaluator? {
            auth == ClientAuthentication.none ? nil : PeerFiles.chainEvaluator(anchors: roots, storeName: .file("test root"))
        }
        let store = TLS13TicketStore()
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: 5_000, page: englishPage) {
            var c = TLSServerConfiguration(identity: identity, random: SystemRandom(), cipherSuites: CipherSuite.allImplementedWithECDSA,
                                           clientAuthentication: o.auth, clientCertificateEvaluator: evaluator())
            c.applicationProtocols = o.alpn
            if !o.tls12 { c.minimumVersion = .tls13 }
            return c
        }
        real.makeTLS13Configuration = {
            var c = TLS13ServerConfiguration(identity: identity, groups: [.x25519, .secp256r1])
            c.applicationProtocols = o.alpn
            c.ticketLifetime = 3_600
            c.ticketStore = store
            c.earlyData = TLS13ServerEarlyData(maxEarlyDataSize: o.earlyData ? 16_384 : 0, accepts: o.earlyData, singleUseTickets: o.singleUse)
            c.clientAuthentication = o.auth
            c.clientCertificateEvaluator = evaluator()
            return c
        }
        real.drainMilliseconds = 300
        return ServerThread(real)
    }

    static func sClient(_ port: UInt16, pki: TestPKI, _ extra: [String], ca: String = "root.pem",
                        stdin: String = "GET / HTTP/1.0\r\n\r\n") throws -> String {
        try runTool(Tools.openssl ?? "openssl",
                    ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", ca, "-verify_return_error",
                     "-servername", "localhost", "-ign_eof"] + extra,
                    in: pki.dir, stdin: stdin, timeout: 15).output
    }

    static func events(_ connection: ServedConnection) -> [TLSEvent] {
        connection.trace.events.compactMap { if case .tls(let e) = $0.kind { e } else { nil } }
    }

    @Test("s_client -tls1_3 with one group alone: TLS 1.3 with that group in 1-RTT; the page and the log say so", arguments: [
        ("X25519", "x25519"), ("P-256", "secp256r1")])
    func eachGroup(_ group: (openssl: String, ours: String)) throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let out = try Self.sClient(thread.port, pki: pki, ["-tls1_3", "-groups", group.openssl])
        #expect(out.contains("New, TLSv1.3, Cipher is TLS_AES_128_GCM_SHA256"), "\(out)")
        #expect(out.contains("Verify return code: 0 (ok)"), "\(out)")
        #expect(out.contains("version: TLS 1.3"), "our page: \(out)")
        #expect(out.contains("key exchange group: \(group.ours)"), "our page: \(out)")
        #expect(out.contains("PSK resumption: no") && out.contains("early data accepted: no"), "our page: \(out)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failure == nil, "\(String(describing: served.failure))")
        #expect(served.facts.version == .tls13 && served.facts.group == group.ours)
        #expect(served.facts.versionReason == .clientOffersTLS13(offered: [.tls13]))
        #expect(!Self.events(served).contains { if case .tls13(.helloRetryRequested) = $0 { true } else { false } }, "1-RTT: no HelloRetryRequest")
        let line = Explanations.english.serveLogLine(served.logEntry)
        #expect(line.contains("TLS 1.3 (supported_versions lists 03 04, RFC 8446 §4.2.1)") && line.contains(group.ours), "\(line)")
    }

    @Test("A key share only for P-384, P-256 also supported: HelloRetryRequest for secp256r1, then TLS 1.3")
    func helloRetryRequest() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let out = try Self.sClient(thread.port, pki: pki, ["-tls1_3", "-groups", "P-384:P-256"])
        #expect(out.contains("New, TLSv1.3"), "\(out)")
        #expect(out.contains("key exchange group: secp256r1"), "our page: \(out)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(Self.events(served).contains { if case .tls13(.helloRetryRequested(group: .secp256r1)) = $0 { true } else { false } })
    }

    @Test("An ECDSA P-256 certificate: CertificateVerify with ecdsa_secp256r1_sha256; RSA: rsa_pss_rsae_sha256", arguments: [
        ("ec256-chain.pem", "ec256.key", "ecroot.pem", "ecdsa_secp256r1_sha256"), ("chain.pem", "leaf.key", "root.pem", "RSA-PSS")])
    func certificates(_ c: (certificate: String, key: String, ca: String, signature: String)) throws {
        let pki = try TestPKI.require()
        var o = Options()
        o.certificate = c.certificate
        o.key = c.key
        let thread = try Self.server(pki: pki, o)
        defer { thread.stop() }
        let out = try Self.sClient(thread.port, pki: pki, ["-tls1_3"], ca: c.ca)
        #expect(out.contains("New, TLSv1.3"), "\(out)")
        #expect(out.contains("Verify return code: 0 (ok)"), "\(out)")
        #expect(out.contains("Peer signature type: \(c.signature)") || out.contains("Peer signature type: ECDSA"), "\(out)")
    }

    @Test("-sess_out then -sess_in: a PSK resumption (the page says so); the same ticket again: a full handshake (single use, RFC 8446 §8.1)")
    func resumption() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let session = "tls13-\(UUID().uuidString).pem"
        let first = try Self.sClient(thread.port, pki: pki, ["-tls1_3", "-sess_out", session])
        #expect(first.contains("New, TLSv1.3"), "\(first)")
        let second = try Self.sClient(thread.port, pki: pki, ["-tls1_3", "-sess_in", session])
        #expect(second.contains("Reused, TLSv1.3"), "\(second)")
        #expect(second.contains("PSK resumption: yes"), "our page: \(second)")
        let third = try Self.sClient(thread.port, pki: pki, ["-tls1_3", "-sess_in", session])
        #expect(third.contains("New, TLSv1.3"), "single use: \(third)")
        #expect(thread.waitFor(3))
        #expect(thread.connections.map(\.facts.resumed) == [false, true, false])
    }

    @Test("-early_data with a ticket that allows it: accepted and answered (--early-data accept); rejected by a server that declines")
    func earlyData() throws {
        let pki = try TestPKI.require()
        for accepts in [true, false] {
            var o = Options()
            o.earlyData = accepts
            let thread = try Self.server(pki: pki, o)
            defer { thread.stop() }
            let session = "early-\(UUID().uuidString).pem"
            let request = pki.dir.appendingPathComponent("early-\(UUID().uuidString).txt")
            try "GET / HTTP/1.0\r\n\r\n".write(to: request, atomically: true, encoding: .utf8)
            _ = try Self.sClient(thread.port, pki: pki, ["-tls1_3", "-sess_out", session])
            // Without 0-RTT the request goes after the handshake (s_client reads it from stdin then).
            let out = try Self.sClient(thread.port, pki: pki, ["-tls1_3", "-sess_in", session, "-early_data", request.path],
                                       stdin: accepts ? "" : "GET / HTTP/1.0\r\n\r\n")
            if accepts {
                #expect(out.contains("Early data was accepted"), "\(out)")
                #expect(out.contains("early data accepted: yes"), "our page: \(out)")
            } else {
                // A server that declines writes no max_early_data_size: the ticket allows none, so s_client sends none.
                #expect(!out.contains("Early data was accepted") && out.contains("early data accepted: no"), "\(out)")
            }
            #expect(thread.waitFor(2))
            #expect(thread.connections.last?.facts.earlyDataAccepted == accepts)
        }
    }

    @Test("Client certificates in TLS 1.3 (RSA-PSS and ECDSA): CertificateRequest, the client's chain judged, named on the page", arguments: [
        ("client.pem", "client.key", "CN=TLSLab Test Client"), ("ecclient.pem", "ecclient.key", "CN=TLSLab Test EC Client")])
    func clientCertificates(_ c: (certificate: String, key: String, subject: String)) throws {
        let pki = try TestPKI.require()
        var o = Options()
        o.auth = .require
        let thread = try Self.server(pki: pki, o)
        defer { thread.stop() }
        let out = try Self.sClient(thread.port, pki: pki, ["-tls1_3", "-cert", c.certificate, "-key", c.key])
        #expect(out.contains("client certificate: \(c.subject)"), "our page: \(out)")
        let refused = try Self.sClient(thread.port, pki: pki, ["-tls1_3"])
        #expect(!refused.contains("TLSLab serve: this connection"), "\(refused)")
        #expect(thread.waitFor(2))
        #expect(thread.connections.last?.failure != nil)
    }

    @Test("s_client's K command (a KeyUpdate asking for one, without -ign_eof): answered with the server's own KeyUpdate (RFC 8446 §4.6.3)")
    func keyUpdate() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let out = try runTool(Tools.openssl ?? "openssl", ["s_client", "-connect", "127.0.0.1:\(thread.port)", "-CAfile", "root.pem",
                                                            "-servername", "localhost", "-tls1_3"], in: pki.dir, stdin: "K\n", timeout: 15).output
        #expect(out.contains("KEYUPDATE"), "\(out)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(Self.events(served).contains { if case .tls13(.keyUpdateReceived(updateRequested: true)) = $0 { true } else { false } })
        #expect(Self.events(served).contains { if case .tls13(.keyUpdateSent(updateRequested: false)) = $0 { true } else { false } })
        // Then s_client ends at the end of its input, before any request: its close_notify is read after the key
        // change, or the socket closes first (s_client does not wait for our answer).
        let ends: [ExchangeFailure] = [.closeNotifyBeforeRequest(from: .client), .peerClosedBeforeMessage(.client, .request, started: false)]
        #expect(served.failure.map(ends.contains) == true, "\(String(describing: served.failure))")
    }

    @Test("A 1.2-only client: TLS 1.2 with the DOWNGRD sentinel, which s_client -tls1_2 does not misread; --tls 1.3 refuses it")
    func tls12Client() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let out = try Self.sClient(thread.port, pki: pki, ["-tls1_2"])
        #expect(out.contains("New, TLSv1.2"), "\(out)")
        #expect(out.contains("version: TLS 1.2") && out.contains("extended master secret: yes"), "\(out)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(Self.events(served).contains { if case .downgradeSentinelWritten = $0 { true } else { false } })
        var only13 = Options()
        only13.tls12 = false
        let strict = try Self.server(pki: pki, only13)
        defer { strict.stop() }
        let refused = try Self.sClient(strict.port, pki: pki, ["-tls1_2"])
        #expect(refused.contains("alert protocol version"), "\(refused)")
    }

    @Test("gnutls-cli, default priority then --resume: TLS 1.3, then a resumed session")
    func gnutls() throws {
        let pki = try TestPKI.require()
        let tool = try Tools.need(Tools.find("gnutls-cli"), "gnutls-cli is not on the PATH (Debian: gnutls-bin)")
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let child = try Child(tool, ["--port", "\(thread.port)", "--x509cafile", "root.pem", "--sni-hostname", "localhost",
                                     "--verify-hostname", "localhost", "--resume", "127.0.0.1"], in: pki.dir)
        defer { child.stop() }
        #expect(child.wait(for: "This is a resumed session", seconds: GnuTLS.patience), "\(child.output)")
        #expect(child.output.contains("(TLS1.3-X.509)-(ECDHE-X25519)-(RSA-PSS-RSAE-SHA256)-(AES-128-GCM)"), "\(child.output)")
        child.send("GET / HTTP/1.0\r\n\r\n")
        #expect(child.wait(for: "PSK resumption: yes", seconds: GnuTLS.patience), "our page: \(child.output)")
        #expect(thread.waitFor(2))
        #expect(thread.connections.map(\.facts.version) == [.tls13, .tls13])
        #expect(thread.connections.last?.facts.resumed == true)
    }

    @Test("Python's ssl with TLSv1_3 as its only version: the page over TLS 1.3")
    func python() throws {
        let pki = try TestPKI.require()
        let python = try Tools.need(Tools.find("python3"), "python3 is not on the PATH")
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let script = """
        import socket, ssl, sys
        c = ssl.create_default_context(cafile="root.pem")
        c.minimum_version = ssl.TLSVersion.TLSv1_3
        with socket.create_connection(("127.0.0.1", \(thread.port))) as raw, c.wrap_socket(raw, server_hostname="localhost") as s:
            s.sendall(b"GET / HTTP/1.0\\r\\n\\r\\n")
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
            print(s.version(), s.cipher()[0])
            sys.stdout.write(data.decode())
        """
        let r = try runTool(python, ["-c", script], in: pki.dir, timeout: 20)
        #expect(r.output.contains("TLSv1.3 TLS_AES_128_GCM_SHA256"), "\(r.output)")
        #expect(r.output.contains("version: TLS 1.3"), "\(r.output)")
    }

    @Test("curl --tlsv1.3 with --http1.1 and --http2: ALPN in EncryptedExtensions chooses what curl asked for", arguments: [
        ("--http1.1", "http/1.1"), ("--http2", "h2")])
    func curl(_ c: (flag: String, alpn: String)) throws {
        let pki = try TestPKI.require()
        let curl = try Tools.need(Tools.curl, "curl is not on the PATH")
        var o = Options()
        o.alpn = [.h2, .http11]
        let thread = try Self.server(pki: pki, o)
        defer { thread.stop() }
        let r = try runTool(curl, ["-sS", "-v", "--tlsv1.3", c.flag, "--cacert", "root.pem", "--resolve", "localhost:\(thread.port):127.0.0.1",
                                   "https://localhost:\(thread.port)/"], in: pki.dir, timeout: 20)
        #expect(r.output.contains("SSL connection using TLSv1.3"), "\(r.output)")
        #expect(r.output.contains("ALPN: server accepted \(c.alpn)") || r.output.contains("ALPN, server accepted to use \(c.alpn)"), "\(r.output)")
        #expect(r.output.contains("application protocol (ALPN): \(c.alpn)"), "our page: \(r.output)")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.facts.applicationProtocol == ProtocolName(c.alpn))
        #expect(thread.connections.first?.failure == nil)
    }

    @Test("tshark decrypts a TLS 1.3 capture of s_client and our server with the key log we write (the five TLS 1.3 labels)")
    func tsharkDecrypts() throws {
        let pki = try TestPKI.require()
        _ = try Tools.need(Tools.tshark, "tshark is not on the PATH")
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let capture = try KeyLogCaptureTests.capture(port: thread.port, pki: pki) {
            let out = try Self.sClient(thread.port, pki: pki, ["-tls1_3"])
            #expect(out.contains("version: TLS 1.3"), "\(out)")
        }
        #expect(thread.waitFor(1))
        let entry = try #require(thread.connections.first?.keyLog)
        let keylog = pki.dir.appendingPathComponent("keylog13-server-\(thread.port).txt")
        guard case .tls13(let steps) = entry.secrets else { Issue.record("a TLS 1.2 key log entry"); return }
        try KeyLogWriter.text(tls13: [KeyLogWriter.TLS13Session(clientRandom: entry.clientRandom, secrets: steps)])
            .write(to: keylog, atomically: true, encoding: .utf8)
        let text = try String(contentsOf: keylog, encoding: .utf8)
        for label in ["CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0",
                      "SERVER_TRAFFIC_SECRET_0", "EXPORTER_SECRET"] {
            #expect(text.contains(label + " "), "\(label) in \(text)")
        }
        let seen = try KeyLogCaptureTests.decrypted(capture, port: thread.port, keylog: keylog, pki: pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")
        #expect(try KeyLogCaptureTests.decrypted(capture, port: thread.port, keylog: nil, pki: pki).isEmpty)
    }
}
