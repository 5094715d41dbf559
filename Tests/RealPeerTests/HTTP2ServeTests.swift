import Foundation
import Testing
@testable import RealPeer
@testable import Simulation
import TLSCrypto
import TLSEngine

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
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1", "--max-connections", "2"], pki: pki)
        defer { serve.stop() }
        let r = try runTool(curl, ["--silent", "--show-error", "--http2", "--cacert", "root.pem", "--resolve", "localhost:\(port):127.0.0.1",
                                   "--write-out", "\\nhttp_version=%{http_version}\\n", "https://localhost:\(port)/path?q=1"], in: pki.dir)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("http_version=2"), "\(r.output)")
        #expect(r.output.contains("application protocol (ALPN): h2"), "\(r.output)")
        #expect(serve.wait(for: "ALPN h2 \"GET /path?q=1 HTTP/2\" → 200", seconds: 3), "\(serve.output)")
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
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let real = RealServer(listener: try TCPListener(port: 0)) {
            var c = TLSServerConfiguration(identity: identity, random: SystemRandom())
            c.applicationProtocols = [.h2, .http11]
            return c
        }
        let thread = ServerThread(real, maxConnections: 1, concurrency: 1, keepTraces: true)
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

    @Test("a suite HTTP/2 prohibits (TLS_RSA_WITH_AES_128_GCM_SHA256): GOAWAY INADEQUATE_SECURITY, curl reports error 12")
    func prohibitedSuite() throws {
        let curl = try Tools.need(Tools.curl, "curl is not on the PATH")
        guard try Self.curlHasHTTP2(curl) else { try Tools.unavailable("this curl has no HTTP/2 (nghttp2)") }
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1", "--suite", "TLS_RSA_WITH_AES_128_GCM_SHA256", "--max-connections", "1"], pki: pki)
        defer { serve.stop() }
        let r = try runTool(curl, ["--verbose", "--http2", "--cacert", "root.pem", "--resolve", "localhost:\(port):127.0.0.1",
                                   "https://localhost:\(port)/"], in: pki.dir)
        #expect(r.status != 0)
        #expect(r.output.contains("GOAWAY, error=12"), "12 is INADEQUATE_SECURITY: \(r.output.suffix(1500))")
        #expect(serve.wait(for: "HTTP/2 connection error INADEQUATE_SECURITY", seconds: 3), "\(serve.output)")
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
