import Foundation
import HTTP2
import PKI
import RealPeer
import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Our server (the simulation's `TLSServer` on a real listening socket) against `openssl s_client`
/// and curl, the robustness cases, and many handshakes in a row.
@Suite("RealPeer: openssl s_client and curl against our server", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ServerRoleTests {
    static func server(pki: TestPKI, suites: [CipherSuite] = CipherSuite.allImplemented, auth: ClientAuthentication = ClientAuthentication.none,
                       dhGroup: DHGroup = .modp2048, timeout: Int32 = 5_000, handshakeTimeout: Int32 = 30_000,
                       requestTimeout: Int32 = 30_000, maxConnections: Int? = nil,
                       concurrency: Int = 1, keepTraces: Bool = true) throws -> ServerThread {
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let roots = try PeerFiles.certificates(at: pki.path("root.pem"))
        let useFFDHE = dhGroup.name == "ffdhe2048"
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: timeout,
                              handshakeTimeoutMilliseconds: handshakeTimeout, requestTimeoutMilliseconds: requestTimeout, page: englishPage) {
            TLSServerConfiguration(identity: identity, random: SystemRandom(), cipherSuites: suites,
                                   dhGroup: useFFDHE ? .ffdhe2048 : .modp2048, clientAuthentication: auth,
                                   clientCertificateEvaluator: auth == ClientAuthentication.none ? nil
                                       : PeerFiles.chainEvaluator(anchors: roots, storeName: .file("test root")))
        }
        return ServerThread(real, maxConnections: maxConnections, concurrency: concurrency, keepTraces: keepTraces)
    }

    static func sClient(_ port: UInt16, pki: TestPKI, _ extra: [String], stdin: String = "GET / HTTP/1.0\r\n\r\n",
                        environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        try runTool(Tools.openssl ?? "openssl",
                    ["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-CAfile", "root.pem", "-verify_return_error",
                     "-servername", "localhost", "-ign_eof"] + extra,
                    in: pki.dir, stdin: stdin, environment: environment, timeout: 15)
    }

    @Test("EMS switched off in s_client's OpenSSL config file: our server completes without it, and both say so")
    func noExtendedMasterSecret() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let r = try Self.sClient(thread.port, pki: pki, [], environment: ["OPENSSL_CONF": pki.path("noems.cnf")])
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        #expect(r.output.contains("Extended master secret: no"), "\(r.output)")
        #expect(r.output.contains("extended master secret: no"), "our page: \(r.output)")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.facts.extendedMasterSecret == false)
    }

    static let suites: [(String, CipherSuite, [String], String)] = [
        ("AES128-GCM-SHA256", .TLS_RSA_WITH_AES_128_GCM_SHA256, [], "modp2048"),
        ("AES256-GCM-SHA384", .TLS_RSA_WITH_AES_256_GCM_SHA384, [], "modp2048"),
        ("AES128-SHA", .TLS_RSA_WITH_AES_128_CBC_SHA, [], "modp2048"),
        ("DHE-RSA-AES128-GCM-SHA256", .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, [], "modp2048"),
        ("DHE-RSA-AES128-GCM-SHA256", .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, [], "ffdhe2048"),
        ("DHE-RSA-AES128-SHA256", .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256, [], "modp2048"),
        ("ECDHE-RSA-AES128-GCM-SHA256", .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, ["-groups", "X25519"], "modp2048"),
        ("ECDHE-RSA-AES256-GCM-SHA384", .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, ["-groups", "P-256"], "modp2048"),
        // The CBC suites beyond the default offer (issue #22), which serve accepts by default.
        ("ECDHE-RSA-AES128-SHA", .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, ["-groups", "X25519"], "modp2048"),
        ("ECDHE-RSA-AES256-SHA", .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, ["-groups", "P-256"], "modp2048"),
        ("ECDHE-RSA-AES128-SHA256", .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, ["-groups", "X25519"], "modp2048"),
        ("ECDHE-RSA-AES256-SHA384", .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, ["-groups", "P-256"], "modp2048"),
        ("DHE-RSA-AES128-SHA", .TLS_DHE_RSA_WITH_AES_128_CBC_SHA, [], "modp2048"),
        ("DHE-RSA-AES256-SHA", .TLS_DHE_RSA_WITH_AES_256_CBC_SHA, [], "modp2048"),
        ("DHE-RSA-AES256-SHA256", .TLS_DHE_RSA_WITH_AES_256_CBC_SHA256, [], "modp2048"),
        ("AES256-SHA", .TLS_RSA_WITH_AES_256_CBC_SHA, [], "modp2048"),
        ("AES128-SHA256", .TLS_RSA_WITH_AES_128_CBC_SHA256, [], "modp2048"),
        ("AES256-SHA256", .TLS_RSA_WITH_AES_256_CBC_SHA256, [], "modp2048"),
    ]

    @Test("s_client verifies our chain (0 ok) and receives the page, for each suite", arguments: 0 ..< ServerRoleTests.suites.count)
    func suite(_ index: Int) throws {
        let pki = try TestPKI.require()
        let (name, suite, extra, group) = Self.suites[index]
        let thread = try Self.server(pki: pki, dhGroup: group == "ffdhe2048" ? .ffdhe2048 : .modp2048)
        defer { thread.stop() }
        let r = try Self.sClient(thread.port, pki: pki, ["-cipher", name] + extra)
        #expect(r.output.contains("Verify return code: 0 (ok)"), "\(r.output)")
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
        #expect(r.output.contains("cipher suite: \(CipherSuite.names[suite.rawValue] ?? "?")"), "\(r.output)")
        #expect(r.output.contains("extended master secret: yes"))
        #expect(r.output.contains("Extended master secret: yes"), "OpenSSL's own view of EMS")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failureText == nil, "\(served.failureText ?? "")")
        #expect(served.facts.suite == suite)
        if group == "ffdhe2048" {
            #expect(r.output.contains("Server Temp Key: DH, 2048 bits"), "\(r.output)")
        }
        // The group OpenSSL saw in our ServerKeyExchange.
        if extra == ["-groups", "X25519"] { #expect(r.output.contains("Server Temp Key: X25519, 253 bits"), "\(r.output)") }
        if extra == ["-groups", "P-256"] { #expect(r.output.contains("Server Temp Key: ECDH, prime256v1, 256 bits"), "\(r.output)") }
    }

    @Test("server role, --dh-group ffdhe2048: the prime s_client receives is RFC 7919's ffdhe2048 as OpenSSL knows it")
    func ffdhe2048Prime() throws {
        let pki = try TestPKI.require()
        let openssl = try #require(Tools.openssl)
        // OpenSSL's own ffdhe2048 prime: the first INTEGER of the PKCS#3 DHParameter it wrote.
        let parsed = try runTool(openssl, ["asn1parse", "-inform", "DER", "-in", "ffdhe2048.der"], in: pki.dir)
        let line = try #require(parsed.output.split(separator: "\n").first { $0.contains("INTEGER") }, "\(parsed.output)")
        let hex = try #require(line.split(separator: ":").last.map(String.init))
        let prime = stride(from: 0, to: hex.count, by: 2).compactMap { i -> UInt8? in
            let a = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[a ..< hex.index(a, offsetBy: 2)], radix: 16)
        }
        #expect(prime.count == 256 && prime.prefix(8) == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
                && prime[8 ..< 12] == [0xAD, 0xF8, 0x54, 0x58], "RFC 7919 A.1 starts FFFFFFFF FFFFFFFF ADF85458")

        let thread = try Self.server(pki: pki, dhGroup: .ffdhe2048)
        defer { thread.stop() }
        let r = try Self.sClient(thread.port, pki: pki, ["-cipher", "DHE-RSA-AES128-GCM-SHA256", "-msg"])
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output.suffix(1500))")
        let ske = try #require(SClientMessages.first("ServerKeyExchange", in: r.output), "\(r.output.prefix(3000))")
        // HandshakeType 12, uint24 length, then ServerDHParams: opaque dh_p<1..2^16-1> (RFC 5246 §7.4.3).
        try #require(ske.count > 6 && ske[0] == 12)
        let pLength = Int(ske[4]) << 8 | Int(ske[5])
        try #require(ske.count >= 6 + pLength + 3)
        #expect(Array(ske[6 ..< 6 + pLength]) == prime, "dh_p differs from OpenSSL's ffdhe2048")
        let gLength = Int(ske[6 + pLength]) << 8 | Int(ske[7 + pLength])
        #expect(gLength == 1 && ske[8 + pLength] == 2, "g = 2")
    }

    @Test("serve --client-auth request: s_client with a certificate is named on the page; without one it is served anonymously")
    func clientAuthRequest() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--client-auth", "request", "--client-ca", "root.pem", "--max-connections", "2"], pki: pki)
        defer { serve.stop() }
        let with = try Self.sClient(port, pki: pki, ["-cert", "client.pem", "-key", "client.key"])
        #expect(with.output.contains("Verify return code: 0 (ok)"), "\(with.output)")
        #expect(with.output.contains("client certificate: CN=TLSLab Test Client"), "\(with.output)")
        let without = try Self.sClient(port, pki: pki, [])
        #expect(without.output.contains("Verify return code: 0 (ok)"), "\(without.output)")
        #expect(without.output.contains("client certificate: none"), "\(without.output)")
        #expect(serve.wait(for: "stopped", seconds: 5), "\(serve.output)")
        let lines = serve.output.split(separator: "\n").filter { $0.hasPrefix("tlslab serve: 127.0.0.1") }
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasSuffix("→ 200") }, "\(lines)")
        #expect(lines.first?.contains("client CN=TLSLab Test Client") == true, "\(lines)")
    }

    @Test("curl --tlsv1.2 --cacert gets the page")
    func curl() throws {
        let curl = try Tools.need(Tools.curl, "curl is not on the PATH")
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki)
        defer { thread.stop() }
        let r = try runTool(curl, ["--silent", "--show-error", "--tlsv1.2", "--tls-max", "1.2", "--cacert", "root.pem",
                                   "https://127.0.0.1:\(thread.port)/"], in: pki.dir)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
        #expect(r.output.contains("version: TLS 1.2"), "\(r.output)")
    }

    @Test("mutual TLS: require + s_client -cert/-key succeeds and the page names the client; without a certificate, handshake_failure")
    func mutual() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki, auth: .require)
        defer { thread.stop() }
        let ok = try Self.sClient(thread.port, pki: pki, ["-cert", "client.pem", "-key", "client.key"])
        #expect(ok.output.contains("client certificate: CN=TLSLab Test Client") || ok.output.contains("TLSLab Test Client"), "\(ok.output)")
        let refused = try Self.sClient(thread.port, pki: pki, [])
        #expect(refused.output.contains("handshake failure"), "OpenSSL names the alert: \(refused.output)")
        #expect(!refused.output.contains("TLSLab serve: this connection"))
        #expect(thread.waitFor(2))
        #expect(thread.connections.last?.failureText?.contains("handshake_failure") == true, "\(thread.connections.last?.failureText ?? "")")
    }

    /// Sends `bytes` on a raw socket (then closes its sending side when `finish`), and returns what came back.
    static func raw(_ port: UInt16, _ bytes: [UInt8], finish: Bool = false) throws -> [UInt8] {
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: port)
        defer { socket.close() }
        try socket.write(bytes)
        if finish { socket.shutdownWrite() }
        var answer: [UInt8] = []
        while let chunk = try? socket.read(timeoutMilliseconds: 3_000), !chunk.isEmpty { answer += chunk }
        return answer
    }

    @Test("robustness: garbage, SSLv2 hello, oversized record, truncated record, disconnect, silence — each closed, then still serving")
    func robustness() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki, timeout: 400)
        defer { thread.stop() }
        let port = thread.port
        func alert(_ answer: [UInt8]) -> UInt8? {
            // A plaintext alert record: 15 03 03 00 02 <level> <description>.
            answer.count == 7 && answer[0] == 21 && answer[5] == 2 ? answer[6] : nil
        }
        // Plain HTTP at a TLS port.
        #expect(alert(try Self.raw(port, Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))) == AlertDescription.unexpectedMessage.rawValue)
        // Random garbage.
        var generator = SystemRandomNumberGenerator()
        let garbage = (0 ..< 300).map { i -> UInt8 in i == 0 ? 0xde : UInt8.random(in: 0 ... 255, using: &generator) }
        // With a 1 in its third byte (one run in 256) garbage has the SSL 2.0 CLIENT-HELLO's shape; from
        // 0xde its length is over 2^14, so it gets record_overflow, at once (it once got no alert at all:
        // the server waited for 24 KB that never came, and the flake looked like a timing problem).
        let garbageLooksSSLv2 = garbage[2] == 1
        #expect(alert(try Self.raw(port, garbage))
                == (garbageLooksSSLv2 ? AlertDescription.recordOverflow : AlertDescription.unexpectedMessage).rawValue,
                "garbage starting \(garbage.prefix(5))")
        // That shape on purpose: an SSL 2.0 header claiming 0x5e00 bytes.
        #expect(alert(try Self.raw(port, [0xde, 0x00, 0x01] + garbage.dropFirst(3))) == AlertDescription.recordOverflow.rawValue)
        // SSL 2.0-compatible CLIENT-HELLO (RFC 5246 Appendix E.2) from a TLS 1.0 client: read as its
        // ClientHello (as OpenSSL does), so the answer is protocol_version.
        let v2: [UInt8] = [0x80, 0x2e, 0x01, 0x03, 0x01, 0x00, 0x15, 0x00, 0x00, 0x00, 0x10]
            + [0x00, 0x00, 0x9c, 0x00, 0x00, 0x2f, 0x00, 0x00, 0x35, 0x00, 0x00, 0x0a, 0x00, 0x00, 0xff, 0x00, 0x00, 0x04, 0x01, 0x00, 0x80]
            + [UInt8](repeating: 0x42, count: 16)
        #expect(alert(try Self.raw(port, v2)) == AlertDescription.protocolVersion.rawValue)
        // A record header announcing 2^14 + 2048 + 1 bytes.
        let big = 16_384 + 2_048 + 1
        #expect(alert(try Self.raw(port, [22, 3, 3, UInt8(big >> 8), UInt8(big & 0xff)] + [UInt8](repeating: 0, count: 64)))
                == AlertDescription.recordOverflow.rawValue)
        // A truncated record, then FIN: closed without an answer.
        #expect(try Self.raw(port, [22, 3, 3, 0, 80] + [UInt8](repeating: 1, count: 10), finish: true).isEmpty)
        // A real ClientHello, then the client goes away.
        var tls = TLSClient(configuration: TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(), random: SystemRandom()))
        _ = try Self.raw(port, tls.start().output, finish: true)
        // A client that never speaks: user_canceled and close_notify in the clear after the timeout
        // (RFC 5246 §7.2.2), then the close.
        let silent = try TCPSocket.connect(host: "127.0.0.1", port: port)
        let started = Date()
        var received: [UInt8] = []
        while let bytes = try? silent.read(timeoutMilliseconds: 3_000), !bytes.isEmpty { received += bytes }
        #expect(received == [21, 3, 3, 0, 2, 1, 90, 21, 3, 3, 0, 2, 1, 0] && Date().timeIntervalSince(started) < 2.5, "\(received)")
        silent.close()
        // And a real handshake still works.
        let ok = try Self.sClient(port, pki: pki, [])
        #expect(ok.output.contains("TLSLab serve: this connection"), "\(ok.output)")

        #expect(thread.waitFor(9))
        let log = thread.connections.map(\.englishLogLine)
        #expect(thread.connections.count == 9, "\(log)")
        guard thread.connections.count == 9 else { return }
        // Each connection's log line says what happened to it. Connections are served side by side, so
        // a line comes when its connection ends: each text is matched to a line of its own, the most
        // specific first.
        let expected = ["sent alert unexpected_message: ",
                        garbageLooksSSLv2 ? "sent alert record_overflow: " : "sent alert unexpected_message: malformed: unknown record content type 222",
                        "sent alert record_overflow: ", "sent alert protocol_version: ", "sent alert record_overflow: ",
                        "the client closed the connection during the handshake", "the client closed the connection during the handshake", "timed out", " → 200"]
        var unmatched = log
        for text in expected.sorted(by: { $0.count > $1.count }) {
            guard let i = unmatched.firstIndex(where: { $0.contains(text) }) else {
                Issue.record("no log line of its own says '\(text)': \(log)")
                continue
            }
            unmatched.remove(at: i)
        }
    }

    @Test("concurrent serving: a silent client does not hold up the next one")
    func concurrent() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki, timeout: 3_000, concurrency: 4)
        defer { thread.stop() }
        let silent = try TCPSocket.connect(host: "127.0.0.1", port: thread.port)
        defer { silent.close() }
        usleep(100_000)
        let started = Date()
        let ok = try Self.sClient(thread.port, pki: pki, [])
        let elapsed = Date().timeIntervalSince(started)
        #expect(ok.output.contains("TLSLab serve: this connection"), "\(ok.output)")
        #expect(elapsed < 2.5, "served in \(elapsed) s while the silent client held its connection (one at a time would wait 3 s)")
        #expect(thread.waitFor(2, seconds: 6))
        let failures = thread.connections.map { $0.failureText ?? "ok" }
        #expect(failures.first == "ok" && failures.last?.contains("timed out") == true, "\(failures)")
    }

    static let handshakeLoop = """
        n=$1; port=$2
        for i in $(seq 1 $n); do
          printf 'GET / HTTP/1.0\\r\\n\\r\\n' | openssl s_client -connect 127.0.0.1:$port -tls1_2 -CAfile root.pem \
            -verify_return_error -servername localhost -ign_eof -quiet > out-$port.txt 2>&1 || { echo "FAILED at $i"; cat out-$port.txt; exit 1; }
          grep -q 'TLSLab serve' out-$port.txt || { echo "NO PAGE at $i"; cat out-$port.txt; exit 1; }
        done
        echo DONE
        """

    /// `count` handshakes from a shell loop of s_client against our server in this process; every one
    /// answered (a quick check of the in-process server; the memory claim is measured below).
    @Test("50 sequential s_client handshakes against the in-process server, no failure")
    func fifty() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_GCM_SHA256],
                                     keepTraces: false)
        defer { thread.stop() }
        let r = try runTool("/bin/sh", ["-c", Self.handshakeLoop, "sh", "50", "\(thread.port)"], in: pki.dir, timeout: 120)
        #expect(r.output.contains("DONE"), "\(r.output.suffix(2000))")
        #expect(thread.waitFor(50))
        let failed = thread.connections.filter { $0.failureText != nil }
        #expect(failed.isEmpty, "\(failed.prefix(3).map(\.englishLogLine))")
    }

    /// The issue's 1,000 sequential handshakes against a `tlslab serve --log-only` process, whose own
    /// resident memory (/proc/PID/status, not the test runner's, which other suites share) must stay
    /// flat after a warm-up.
    @Test("1,000 sequential s_client handshakes against tlslab serve: no failure, its VmRSS flat",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status") || CrossCheckRequirement.isCI, "reads /proc/PID/status (Linux)"))
    func thousandAgainstServeProcess() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--suite", "ECDHE-RSA-AES128-GCM-SHA256", "--suite", "AES128-GCM-SHA256"], pki: pki)
        defer { serve.stop() }
        let pid = serve.process.processIdentifier
        let warmup = 100, count = 1_000
        let w = try runTool("/bin/sh", ["-c", Self.handshakeLoop, "sh", "\(warmup)", "\(port)"], in: pki.dir, timeout: 300)
        #expect(w.output.contains("DONE"), "\(w.output.suffix(2000))")
        let before = try #require(residentKilobytes(pid: pid))
        let r = try runTool("/bin/sh", ["-c", Self.handshakeLoop, "sh", "\(count)", "\(port)"], in: pki.dir, timeout: 1_800)
        #expect(r.output.contains("DONE"), "\(r.output.suffix(2000))")
        let after = try #require(residentKilobytes(pid: pid))
        // Each connection is served on its own thread and logged as it finishes: the last line may
        // follow s_client's exit by a few milliseconds.
        let logged = Date().addingTimeInterval(5)
        while serve.output.components(separatedBy: "→ 200").count - 1 < warmup + count, Date() < logged { usleep(20_000) }
        let log = serve.output.split(separator: "\n").filter { $0.hasPrefix("tlslab serve: ") }
        let served = log.filter { $0.hasSuffix("→ 200") }.count
        #expect(served == warmup + count, "\(log.filter { !$0.hasSuffix("→ 200") }.prefix(3))")
        print("RealPeer: \(count) sequential s_client handshakes against tlslab serve (pid \(pid)); VmRSS \(before) kB → \(after) kB")
        #expect(after - before < 2_048, "tlslab serve VmRSS \(before) kB → \(after) kB over \(count) handshakes")
    }
}
