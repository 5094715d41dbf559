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

/// An in-process server speaking ALPN h2 and http/1.1 for one connection, its trace kept.
func h2ServerThread(pki: TestPKI) throws -> ServerThread {
    let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
    let real = RealServer(listener: try TCPListener(port: 0)) {
        var c = TLSServerConfiguration(identity: identity, random: SystemRandom())
        c.applicationProtocols = [.h2, .http11]
        return c
    }
    return ServerThread(real, maxConnections: 1, concurrency: 1, keepTraces: true)
}

/// `tlslab serve --alpn h2,http/1.1` speaks HTTP/2 to curl (its HTTP/2 is nghttp2, an independent
/// implementation): the page arrives over h2; a suite RFC 9113 §9.2.2 prohibits ends in GOAWAY
/// INADEQUATE_SECURITY, which curl reports by its code (12).
@Suite("RealPeer: curl --http2 against tlslab serve", .serialized, .enabled(if: Tools.haveOpenSSL, "needs openssl on the PATH"))
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
        #expect(served.failure == nil, "\(served.failure ?? "")")
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
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1", "--suite", "TLS_RSA_WITH_AES_128_GCM_SHA256", "--max-connections", "2"], pki: pki)
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
@Suite("RealPeer: tlslab connect over HTTP/2", .serialized, .enabled(if: Tools.haveOpenSSL, "needs openssl on the PATH"))
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
        let (strict, strictPort) = try startServe(["--alpn", "h2,http/1.1", "--suite", "TLS_RSA_WITH_AES_128_GCM_SHA256", "--max-connections", "1"], pki: pki)
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

/// The server session alone: malformed client input ends the connection with the RFC's code.
@Suite("HTTP/2 server session")
struct HTTP2ServerSessionTests {
    static func session() -> HTTP2ServerSession {
        HTTP2ServerSession { _, _ in ([HPACKHeaderField(":status", "200")], Array("ok".utf8)) }
    }

    static func frames(_ bytes: [UInt8]) throws -> [HTTP2Frame] {
        var rest = bytes[...], out: [HTTP2Frame] = []
        while let (frame, used) = try HTTP2Frame.decode(rest) { out.append(frame); rest = rest.dropFirst(used) }
        return out
    }

    static func request(_ path: String, stream: UInt32 = 1) -> [UInt8] {
        var encoder = HPACKEncoder()
        let (block, _) = encoder.encode([HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https"),
                                         HPACKHeaderField(":authority", "h"), HPACKHeaderField(":path", path)])
        return HTTP2Frame(streamID: stream, flags: [.endHeaders, .endStream], payload: .headers(block: block, priority: nil)).encoded
    }

    static let settings = HTTP2Frame(streamID: 0, payload: .settings([])).encoded

    @Test func answersOneRequestByteByByte() throws {
        var s = Self.session()
        var out: [UInt8] = [], requests: [String] = []
        for byte in HTTP2Frame.clientPreface + Self.settings + Self.request("/x") {
            let o = s.receive([byte])
            out += o.bytes
            requests += o.requests
        }
        #expect(requests.count == 1 && requests[0].contains(":path: /x"))
        let frames = try Self.frames(out)
        #expect(frames.map(\.typeName) == ["SETTINGS", "SETTINGS", "HEADERS", "DATA", "GOAWAY"])
        #expect(frames.last?.payload == .goaway(lastStreamID: 1, errorCode: 0, debug: []))
        #expect(s.state == .closed(.noError))
    }

    @Test func protocolErrors() throws {
        func code(_ input: [UInt8]) throws -> UInt32? {
            var s = Self.session()
            let frames = try Self.frames(s.receive(input).bytes)
            guard case .goaway(_, let code, _)? = frames.last?.payload else { return nil }
            return code
        }
        let protocolError = HTTP2ErrorCode.protocolError.rawValue
        #expect(try code(Array("GET / HTTP/1.1\r\n\r\n".utf8)) == protocolError, "no preface")
        var http1 = Self.session()
        let noPreface = try Self.frames(http1.receive(Array("GET / HTTP/1.1\r\n\r\n".utf8)).bytes)
        #expect(noPreface.map(\.typeName) == ["SETTINGS", "GOAWAY"], "SETTINGS is still the server's first frame (§3.4)")
        #expect(try code(HTTP2Frame.clientPreface + Self.request("/")) == protocolError, "HEADERS before SETTINGS")
        #expect(try code(HTTP2Frame.clientPreface + Self.settings + Self.request("/", stream: 2)) == protocolError, "an even stream")
        let broken = HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(block: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff], priority: nil)).encoded
        #expect(try code(HTTP2Frame.clientPreface + Self.settings + broken) == HTTP2ErrorCode.compressionError.rawValue)
        let data = HTTP2Frame(streamID: 3, flags: .endStream, payload: .data([1])).encoded
        #expect(try code(HTTP2Frame.clientPreface + Self.settings + data) == HTTP2ErrorCode.streamClosed.rawValue)
        var tight = Self.session()
        #expect(tight.receive(HTTP2Frame.clientPreface + Self.settings + HTTP2Frame(streamID: 0, payload: .windowUpdate(0x7fff_ffff)).encoded)
            .events.contains { if case .connectionError(.flowControlError, _) = $0 { true } else { false } })
        var secure = HTTP2ServerSession(inadequateSecurity: "a prohibited suite") { _, _ in ([], []) }
        let refused = try Self.frames(secure.receive(HTTP2Frame.clientPreface).bytes)
        #expect(refused.map(\.typeName) == ["SETTINGS", "GOAWAY"])
        #expect(secure.state == .closed(.inadequateSecurity))
    }

    /// Requests that arrive together are all answered before GOAWAY names the last one.
    @Test func answersEveryRequestOfTheFlight() throws {
        var s = Self.session()
        var encoder = HPACKEncoder()
        func request(_ path: String, _ stream: UInt32) -> [UInt8] {
            let block = encoder.encode([HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https"),
                                        HPACKHeaderField(":authority", "h"), HPACKHeaderField(":path", path)]).block
            return HTTP2Frame(streamID: stream, flags: [.endHeaders, .endStream], payload: .headers(block: block, priority: nil)).encoded
        }
        let out = s.receive(HTTP2Frame.clientPreface + Self.settings + request("/a", 1) + request("/b", 3))
        #expect(out.requests.count == 2)
        let frames = try Self.frames(out.bytes)
        #expect(frames.last?.payload == .goaway(lastStreamID: 3, errorCode: 0, debug: []))
    }

    /// Malformed requests (RFC 9113 §8.1.1, §8.2.1, §8.3.1) are reset with PROTOCOL_ERROR on their stream.
    @Test func malformedRequestsAreReset() throws {
        let good = [HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https"), HPACKHeaderField(":path", "/")]
        #expect(HTTP2ServerSession.malformed(good, body: []) == nil)
        #expect(HTTP2ServerSession.malformed(Array(good.dropLast()), body: [])?.contains(":path") == true)
        #expect(HTTP2ServerSession.malformed(good + [HPACKHeaderField("Foo", "1")], body: [])?.contains("uppercase") == true)
        #expect(HTTP2ServerSession.malformed(good + [HPACKHeaderField("content-length", "5")], body: [1, 2, 3])?.contains("content-length") == true)
        #expect(HTTP2ServerSession.malformed([HPACKHeaderField("a", "1")] + good, body: []) != nil, "pseudo-header after a regular field")
        #expect(HTTP2ServerSession.malformed(good + [HPACKHeaderField("connection", "close")], body: []) != nil)
        var s = Self.session()
        var encoder = HPACKEncoder()
        let block = encoder.encode([HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https")]).block
        let out = s.receive(HTTP2Frame.clientPreface + Self.settings
                            + HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(block: block, priority: nil)).encoded)
        let frames = try Self.frames(out.bytes)
        #expect(frames.contains { $0.streamID == 1 && $0.payload == .rstStream(HTTP2ErrorCode.protocolError.rawValue) }, "\(frames.map(\.typeName))")
        #expect(out.events.contains { if case .streamError(1, .protocolError, _) = $0 { true } else { false } })
        #expect(frames.last?.typeName == "GOAWAY")
    }

    /// A body larger than the client's window waits for its WINDOW_UPDATE.
    @Test func respectsTheClientsWindow() throws {
        var s = HTTP2ServerSession { _, _ in ([HPACKHeaderField(":status", "200")], [UInt8](repeating: 7, count: 100)) }
        let small = HTTP2Frame(streamID: 0, payload: .settings([(HTTP2Setting.initialWindowSize.rawValue, UInt32(40))])).encoded
        let first = try Self.frames(s.receive(HTTP2Frame.clientPreface + small + Self.request("/")).bytes)
        let sentData = first.compactMap { f -> Int? in if case .data(let d) = f.payload { d.count } else { nil } }
        #expect(sentData == [40], "\(first.map(\.typeName))")
        #expect(!s.isClosed)
        let more = try Self.frames(s.receive(HTTP2Frame(streamID: 1, payload: .windowUpdate(100)).encoded).bytes)
        #expect(more.compactMap { f -> Int? in if case .data(let d) = f.payload { d.count } else { nil } } == [60])
        #expect(more.last?.typeName == "GOAWAY" && s.isClosed)
    }
}

/// The client session against the server session, bytes passed by hand in any split: the two ends
/// of `connect` and `serve` agree without a socket; and what the client refuses.
@Suite("HTTP/2 client session")
struct HTTP2ClientSessionTests {
    static let request = [HPACKHeaderField(":method", "POST"), HPACKHeaderField(":scheme", "https"),
                          HPACKHeaderField(":authority", "h"), HPACKHeaderField(":path", "/up")]

    /// (split, body size): small splits with a short body; large ones with a body beyond the
    /// 65535-octet default window, so that WINDOW_UPDATE has to let the rest through.
    @Test(arguments: [(1, 300), (7, 300), (1_000, 70_000), (100_000, 70_000)])
    func againstTheServerSession(split: Int, size: Int) throws {
        let body = [UInt8](repeating: 0x61, count: size)
        var client = HTTP2ClientSession(fields: Self.request, body: body)
        var server = HTTP2ServerSession { fields, received in
            ([HPACKHeaderField(":status", "201"), HPACKHeaderField("x-got", "\(received.count)")], Array("done".utf8))
        }
        var toServer = client.start().bytes, toClient: [UInt8] = []
        var rounds = 0
        while !client.isFinished, rounds < 100_000 {
            rounds += 1
            let a = Array(toServer.prefix(split)); toServer.removeFirst(a.count)
            toClient += server.receive(a).bytes
            let b = Array(toClient.prefix(split)); toClient.removeFirst(b.count)
            toServer += client.receive(b).bytes
        }
        #expect(client.state == .done, "\(client.state)")
        #expect(client.responseFields == [HPACKHeaderField(":status", "201"), HPACKHeaderField("x-got", "\(size)")])
        #expect(client.responseBody == Array("done".utf8))
        let closed = server.isClosed
        #expect(closed)
    }

    @Test func refusals() throws {
        func run(_ serverBytes: [UInt8]) -> HTTP2ClientSession.State {
            var c = HTTP2ClientSession(fields: Self.request)
            _ = c.start()
            _ = c.receive(serverBytes)
            return c.state
        }
        let settings = HTTP2Frame(streamID: 0, payload: .settings([])).encoded
        if case .failed(.protocolError, _) = run(HTTP2Frame(streamID: 0, payload: .ping([0, 0, 0, 0, 0, 0, 0, 0])).encoded) {} else {
            Issue.record("a first frame other than SETTINGS is a PROTOCOL_ERROR")
        }
        if case .failed(.protocolError, _) = run(settings + HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .pushPromise(promisedStreamID: 2, block: [0x82])).encoded) {} else {
            Issue.record("PUSH_PROMISE with push disabled is a PROTOCOL_ERROR")
        }
        if case .failed(.refusedStream, let why) = run(settings + HTTP2Frame(streamID: 1, payload: .rstStream(7)).encoded) {
            #expect(why.contains("RST_STREAM REFUSED_STREAM"))
        } else {
            Issue.record("RST_STREAM on the request's stream fails the request")
        }
        if case .failed(.enhanceYourCalm, let why) = run(settings + HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: 0, errorCode: 0xb, debug: [])).encoded) {
            #expect(why.contains("GOAWAY ENHANCE_YOUR_CALM"))
        } else {
            Issue.record("GOAWAY with an error fails the request")
        }
        if case .failed(.protocolError, let why) = run(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)) {
            #expect(why.contains("answered in HTTP/1.x"), "\(why)")
        } else {
            Issue.record("an HTTP/1.x answer on an h2 connection is named as such")
        }
        // 1xx informational headers are skipped; the final response follows.
        var encoder = HPACKEncoder()
        let early = HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .headers(block: encoder.encode([HPACKHeaderField(":status", "103")]).block, priority: nil)).encoded
        let final = HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(block: encoder.encode([HPACKHeaderField(":status", "204")]).block, priority: nil)).encoded
        var c = HTTP2ClientSession(fields: Self.request)
        _ = c.start()
        _ = c.receive(settings + early + final)
        #expect(c.state == .done && c.responseFields == [HPACKHeaderField(":status", "204")])
    }
}

/// Garbage after the preface never traps either session: every run ends open (waiting for more)
/// or closed with an RFC 9113 error code, and what they send decodes as frames.
@Suite("HTTP/2 sessions: random input")
struct HTTP2SessionFuzzTests {
    @Test func randomFramesNeverTrap() throws {
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        for round in 0..<2_000 {
            let count = Int(next() % 200)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
            // Half the rounds look like frames: a plausible header with a small length and a known type.
            if round % 2 == 0, bytes.count >= 9 {
                bytes[0] = 0; bytes[1] = 0; bytes[2] = UInt8(min(bytes.count - 9, 40)); bytes[3] = UInt8(next() % 10)
            }
            var server = HTTP2ServerSession { _, _ in ([HPACKHeaderField(":status", "200")], [1, 2, 3]) }
            let settings = HTTP2Frame(streamID: 0, payload: .settings([])).encoded
            let out = server.receive(HTTP2Frame.clientPreface + settings + bytes)
            var rest = out.bytes[...]
            while let (_, used) = try HTTP2Frame.decode(rest, maxFrameSize: 1 << 24) { rest = rest.dropFirst(used) }
            #expect(rest.isEmpty, "round \(round): the server's output is whole frames")

            var client = HTTP2ClientSession(fields: [HPACKHeaderField(":method", "GET"), HPACKHeaderField(":path", "/")])
            _ = client.start()
            let back = client.receive(settings + bytes)
            var tail = back.bytes[...]
            while let (_, used) = try HTTP2Frame.decode(tail, maxFrameSize: 1 << 24) { tail = tail.dropFirst(used) }
            #expect(tail.isEmpty, "round \(round): the client's output is whole frames")
        }
    }
}
