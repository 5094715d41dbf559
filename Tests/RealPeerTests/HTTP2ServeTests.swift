import Foundation
import HTTP2
@testable import RealPeer
import Rendering
@testable import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust
import TestSupport

/// An in-process server speaking ALPN h2 and http/1.1 for one connection, its trace kept.
func h2ServerThread(pki: TestPKI) throws -> ServerThread {
    let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
    let real = RealServer(listener: try TCPListener(port: 0), page: englishPage) {
        var c = TLSServerConfiguration(identity: identity, random: SystemRandom())
        c.applicationProtocols = [.h2, .http11]
        return c
    }
    return ServerThread(real, maxConnections: 1, concurrency: 1, keepTraces: true)
}

/// `tlslab serve --alpn h2,http/1.1` speaks HTTP/2 to curl (its HTTP/2 is nghttp2, an independent
/// implementation): the page arrives over h2; a suite RFC 9113 §9.2.2 prohibits ends in GOAWAY
/// INADEQUATE_SECURITY, which curl reports by its code (12).
@Suite("RealPeer: curl --http2 against tlslab serve", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct HTTP2ServeTests {
    static func curlHasHTTP2(_ curl: String) throws -> Bool {
        try runTool(curl, ["-V"], in: FileManager.default.temporaryDirectory).output.contains("HTTP2")
    }

    @Test("curl --http2 gets the page over HTTP/2; the trace shows its frames and ours")
    func curlOverHTTP2() throws {
        let curl = try Tools.need(Tools.curl, "curl is not on the PATH")
        guard try Self.curlHasHTTP2(curl) else { try Tools.unavailable("this curl has no HTTP/2 (nghttp2)") }
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1", "--max-connections", "4"], pki: pki)
        defer { serve.stop() }
        let r = try runTool(curl, ["--silent", "--show-error", "--http2", "--cacert", "root.pem", "--resolve", "localhost:\(port):127.0.0.1",
                                   "--write-out", "\\nhttp_version=%{http_version}\\n", "https://localhost:\(port)/path?q=1"], in: pki.dir)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("http_version=2"), "\(r.output)")
        #expect(r.output.contains("application protocol (ALPN): h2"), "\(r.output)")
        #expect(serve.wait(for: "ALPN h2 \"GET /path?q=1 HTTP/2\" → 200", seconds: 3), "\(serve.output)")
        // A 100 KB upload (beyond the 64 KiB window, WINDOW_UPDATE lets it through) is answered; a
        // 30 KB header list beyond the announced SETTINGS_MAX_HEADER_LIST_SIZE gets 431 on its stream.
        let upload = pki.dir.appendingPathComponent("upload-\(UUID().uuidString).bin")
        try Data(repeating: 0x61, count: 100_000).write(to: upload)
        defer { try? FileManager.default.removeItem(at: upload) }
        let big = try runTool(curl, ["--silent", "--show-error", "--http2", "--cacert", "root.pem", "--resolve", "localhost:\(port):127.0.0.1",
                                     "--data-binary", "@\(upload.path)", "--write-out", "\nstatus=%{http_code} http_version=%{http_version}\n",
                                     "https://localhost:\(port)/upload"], in: pki.dir)
        #expect(big.status == 0 && big.output.contains("status=200 http_version=2"), "\(big.output.suffix(600))")
        let header = try runTool(curl, ["--silent", "--show-error", "--http2", "--cacert", "root.pem", "--resolve", "localhost:\(port):127.0.0.1",
                                        "-H", "X-Big: " + String(repeating: "b", count: 30_000), "--write-out", "\nstatus=%{http_code}\n",
                                        "https://localhost:\(port)/"], in: pki.dir)
        #expect(header.output.contains("status=431"), "\(header.output.suffix(600))")
        // A client that asks for HTTP/1.1 only still gets it.
        let one = try runTool(curl, ["--silent", "--show-error", "--http1.1", "--cacert", "root.pem", "--resolve", "localhost:\(port):127.0.0.1",
                                     "--write-out", "\\nhttp_version=%{http_version}\\n", "https://localhost:\(port)/"], in: pki.dir)
        #expect(one.output.contains("http_version=1.1") && one.output.contains("application protocol (ALPN): http/1.1"), "\(one.output)")
    }

    @Test("the traced connection: curl's preface, SETTINGS and HEADERS as received; our SETTINGS, ACK, HEADERS, DATA, GOAWAY")
    func traceOfAnHTTP2Connection() throws {
        let curl = try Tools.need(Tools.curl, "curl is not on the PATH")
        guard try Self.curlHasHTTP2(curl) else { try Tools.unavailable("this curl has no HTTP/2 (nghttp2)") }
        let pki = try TestPKI.require()
        let thread = try h2ServerThread(pki: pki)
        defer { thread.stop() }
        let r = try runTool(curl, ["--silent", "--show-error", "--http2", "--cacert", "root.pem", "--resolve", "localhost:\(thread.port):127.0.0.1",
                                   "https://localhost:\(thread.port)/"], in: pki.dir)
        #expect(r.status == 0, "\(r.output)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failureText == nil, "\(served.failureText ?? "")")
        let received = served.trace.events.compactMap { e -> String? in
            if case .http2(.frameReceived(let f)) = e.kind { return f.typeName } else { return nil }
        }
        let sent = served.trace.events.compactMap { e -> String? in
            if case .http2(.frameSent(let f)) = e.kind { return f.typeName } else { return nil }
        }
        #expect(served.trace.events.contains { if case .http2(.prefaceReceived) = $0.kind { true } else { false } })
        #expect(received.first == "SETTINGS" && received.contains("HEADERS"), "\(received)")
        #expect(sent == ["SETTINGS", "SETTINGS", "HEADERS", "DATA", "GOAWAY"], "\(sent)")
        let request = try #require(served.request)
        #expect(request.hasPrefix("GET / HTTP/2\r\n") && request.contains(":authority: localhost:\(thread.port)"), "\(request)")
    }

    @Test("a suite HTTP/2 prohibits (TLS_RSA_WITH_AES_128_GCM_SHA256): curl offering h2 and http/1.1 gets http/1.1; a client offering only h2 gets GOAWAY INADEQUATE_SECURITY")
    func prohibitedSuite() throws {
        let curl = try Tools.need(Tools.curl, "curl is not on the PATH")
        guard try Self.curlHasHTTP2(curl) else { try Tools.unavailable("this curl has no HTTP/2 (nghttp2)") }
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let pki = try TestPKI.require()
        // --tls 1.2: the suite is a TLS 1.2 suite (--suite names TLS 1.2 suites; TLS 1.3 would be chosen otherwise).
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1", "--suite", "TLS_RSA_WITH_AES_128_GCM_SHA256", "--tls", "1.2", "--max-connections", "2"], pki: pki)
        defer { serve.stop() }
        let r = try runTool(curl, ["--silent", "--show-error", "--http2", "--cacert", "root.pem", "--resolve", "localhost:\(port):127.0.0.1",
                                   "--write-out", "\nhttp_version=%{http_version}\n", "https://localhost:\(port)/"], in: pki.dir)
        #expect(r.status == 0 && r.output.contains("http_version=1.1"), "\(r.output.suffix(800))")
        #expect(r.output.contains("application protocol (ALPN): http/1.1"), "\(r.output.suffix(800))")
        let only = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--alpn", "h2", "--timeout", "5"],
                               in: pki.dir, environment: ["NO_COLOR": "1"])
        #expect(only.status == 1 && only.output.contains("GOAWAY INADEQUATE_SECURITY"), "\(only.output.suffix(800))")
        #expect(serve.wait(for: "HTTP/2 connection error INADEQUATE_SECURITY", seconds: 3), "\(serve.output)")
    }
}

/// `tlslab connect --alpn h2` speaks HTTP/2: against nghttpd (nghttp2's server, an independent
/// implementation) and against `tlslab serve`.
@Suite("RealPeer: tlslab connect over HTTP/2", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct HTTP2ConnectTests {
    @Test("connect --alpn h2 against nghttpd: the file arrives over HTTP/2, the trace shows both sides' frames")
    func againstNghttpd() throws {
        let nghttpd = try Tools.need(Tools.nghttpd, "nghttpd (Debian package nghttp2-server) is not installed")
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let pki = try TestPKI.require()
        let docroot = pki.dir.appendingPathComponent("docroot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: docroot, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: docroot) }
        try Data("served by nghttpd\n".utf8).write(to: docroot.appendingPathComponent("hello.txt"))
        var result: ((status: Int32, output: String), (status: Int32, output: String))?
        for _ in 0..<5 {
            guard let port = freePort() else { continue }
            let server = try Child(nghttpd, ["--htdocs", docroot.path, "--address", "127.0.0.1", "\(port)", "leaf.key", "chain.pem"], in: pki.dir)
            defer { server.stop() }
            usleep(300_000)
            guard server.process.isRunning else { continue }
            let arguments = ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--alpn", "h2",
                             "--request", "GET /hello.txt HTTP/1.1\r\nHost: localhost\r\n\r\n", "--timeout", "5"]
            result = (try runTool(tlslab, arguments, in: pki.dir, environment: ["NO_COLOR": "1"]),
                      try runTool(tlslab, arguments + ["--format", "json"], in: pki.dir))
            break
        }
        let (r, json) = try #require(result, "nghttpd did not start")
        #expect(r.status == 0, "\(r.output.suffix(2000))")
        #expect(r.output.contains("served by nghttpd"), "\(r.output.suffix(2000))")
        #expect(r.output.contains("HTTP/2 connection preface"))
        // The frames each way, from the JSON trace: ours as sent, nghttpd's as received.
        let objects = json.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        func frames(_ action: String) -> [String] {
            objects.filter { $0["event"] as? String == "http2" && $0["action"] as? String == action }.compactMap { $0["type"] as? String }
        }
        #expect(frames("frame_sent").prefix(2) == ["SETTINGS", "HEADERS"] && frames("frame_sent").last == "GOAWAY", "\(frames("frame_sent"))")
        #expect(frames("frame_received").first == "SETTINGS", "\(frames("frame_received"))")
        #expect(frames("frame_received").contains("HEADERS") && frames("frame_received").contains("DATA"), "\(frames("frame_received"))")
        let headers = objects.first { $0["action"] as? String == "frame_received" && $0["type"] as? String == "HEADERS" }
        #expect((headers?["headers"] as? [String])?.contains(":status: 200") == true, "\(String(describing: headers))")
    }

    @Test("both ends' JSON: outcome, counts, randoms; the server's GOAWAY comes before its close_notify; a peer's GOAWAY error is http2_error")
    func jsonSummariesOfRealPeers() throws {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let pki = try TestPKI.require()
        func objects(_ text: String) -> [[String: Any]] {
            text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        let thread = try h2ServerThread(pki: pki)
        defer { thread.stop() }
        let port = thread.port
        let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--alpn", "h2",
                                     "--format", "json", "--timeout", "5"], in: pki.dir)
        #expect(r.status == 0, "\(r.output.suffix(1500))")
        let client = objects(r.output)
        let summary = try #require(client.last { $0["event"] as? String == "summary" })
        #expect(summary["outcome"] as? String == "success" && summary["connections"] as? Int == 1, "\(summary)")
        #expect(summary["server_random"] as? String != nil && summary["client_random"] as? String != nil, "\(summary)")
        // In order: the server's frames (its GOAWAY last), then its close_notify.
        let goaway = client.firstIndex { $0["action"] as? String == "frame_received" && $0["type"] as? String == "GOAWAY" }
        let closeNotify = client.firstIndex { $0["event"] as? String == "tls_alert" && $0["description"] as? String == "close_notify"
            && ($0["action"] as? String)?.contains("receive") == true }
        #expect(goaway != nil, "the server's GOAWAY is traced")
        if let goaway, let closeNotify { #expect(goaway < closeNotify) }
        #expect(thread.waitFor(1))
        let trace = try #require(thread.connections.first?.trace)
        let server = objects(JSONLinesRenderer().render(trace).joined(separator: "\n"))
        let served = try #require(server.last { $0["event"] as? String == "summary" })
        #expect(served["outcome"] as? String == "success" && served["requests"] as? Int == 1 && served["responses"] as? Int == 1, "\(served)")
        #expect(served["client_random"] as? String != nil && served["connections"] as? Int == 1, "\(served)")

        // A server refusing HTTP/2 on a prohibited suite: the client's JSON names the peer's error.
        // (TLS 1.2: --suite names TLS 1.2 suites; a TLS 1.3 handshake would not use it.)
        let (strict, strictPort) = try startServe(["--alpn", "h2,http/1.1", "--suite", "TLS_RSA_WITH_AES_128_GCM_SHA256", "--max-connections", "1", "--tls", "1.2"], pki: pki)
        defer { strict.stop() }
        let refused = try runTool(tlslab, ["connect", "127.0.0.1:\(strictPort)", "--servername", "localhost", "--ca", "root.pem", "--alpn", "h2",
                                           "--format", "json", "--timeout", "5"], in: pki.dir)
        #expect(refused.status == 1)
        let last = try #require(objects(refused.output).last { $0["event"] as? String == "summary" })
        #expect(last["http2_error"] as? String == "INADEQUATE_SECURITY" && last["outcome"] as? String == "failed", "\(last)")
        #expect((last["failure"] as? String)?.contains("GOAWAY INADEQUATE_SECURITY") == true, "\(last)")
        let text = try runTool(tlslab, ["connect", "127.0.0.1:\(strictPort)", "--servername", "localhost", "--ca", "root.pem", "--alpn", "h2"],
                               in: pki.dir, environment: ["NO_COLOR": "1"])
        #expect(!text.output.contains("Success on the client side"), "\(text.output.suffix(1500))")
    }

    @Test("connect --alpn h2 against tlslab serve: both ends are our engine over real sockets")
    func againstOurServer() throws {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1", "--max-connections", "1"], pki: pki)
        defer { serve.stop() }
        let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--alpn", "h2",
                                     "--request", "POST /form HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello", "--timeout", "5"],
                            in: pki.dir, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.output.suffix(2000))")
        #expect(r.output.contains("application protocol (ALPN): h2"), "\(r.output.suffix(2000))")
        #expect(r.output.contains("5 bytes of body"), "the request body in DATA: \(r.output.suffix(3000))")
        #expect(serve.wait(for: "ALPN h2 \"POST /form HTTP/2\" → 200", seconds: 3), "\(serve.output)")
    }
}
