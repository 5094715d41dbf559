import Foundation
import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import Trace
import TestSupport

/// A hostile HTTPS server on 127.0.0.1 for one connection: our server engine does the handshake and
/// reads the request; then `answer` writes what it likes with `send` (application data), and
/// `close_notify` is sent or not.
final class HostileServer: @unchecked Sendable {
    enum Ending: Sendable { case closeNotify, tcpClose, hold(seconds: Double) }

    let listener: TCPListener
    var port: UInt16 { listener.port }
    private let done = DispatchSemaphore(value: 0)

    init(pki: TestPKI, h2: Bool = false, chunks: @escaping @Sendable () -> [[UInt8]], pause: Double = 0, ending: Ending) throws {
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        listener = try TCPListener(port: 0)
        let listener = listener, done = done
        let thread = Thread {
            defer { done.signal() }
            guard let socket = try? listener.accept(timeoutMilliseconds: 10_000) else { return }
            defer { socket.close() }
            var configuration = TLSServerConfiguration(identity: identity, random: SystemRandom())
            if h2 { configuration.applicationProtocols = [.h2] }
            var server = TLSServer(configuration: configuration)
            var request: [UInt8] = []
            while !request.contains(10) || !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
                guard let bytes = try? socket.read(timeoutMilliseconds: 5_000), !bytes.isEmpty else { return }
                let step = server.receive(bytes)
                request += step.applicationData
                if !step.output.isEmpty { try? socket.write(step.output) }
                if step.fatalAlertSent != nil || step.fatalAlertReceived != nil { return }
            }
            for chunk in chunks() {
                guard let step = try? server.sendApplicationData(chunk), (try? socket.write(step.output)) != nil else { return }
                if pause > 0 { usleep(UInt32(pause * 1_000_000)) }
            }
            switch ending {
            case .closeNotify: try? socket.write(server.close().output)
            case .tcpClose: break
            case .hold(let seconds): usleep(UInt32(seconds * 1_000_000))
            }
        }
        thread.start()
    }

    func wait() { _ = done.wait(timeout: .now() + 30) }
}

/// Issue #38, defect 11: `connect` bounds the HTTP response in size and time, and a response cut short
/// is a failure (exit 1) — RFC 9112 §8 (fewer body bytes than Content-Length, a chunked body without
/// its last chunk) and RFC 5246 §7.2.1 (a body delimited by the close, closed without close_notify).
@Suite("RealPeer: connect bounds and checks the HTTP response", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ResponseBoundsTests {
    static func run(_ server: HostileServer, pki: TestPKI, maxBytes: Int = 1 << 20, responseTimeout: Int32 = 10_000,
                    h2: Bool = false) throws -> RealClient.Result {
        try timed(server, pki: pki, maxBytes: maxBytes, responseTimeout: responseTimeout, h2: h2).result
    }

    /// The client's result and how long its run took (the server's own wait not counted).
    static func timed(_ server: HostileServer, pki: TestPKI, maxBytes: Int = 1 << 20,
                      responseTimeout: Int32 = 10_000, h2: Bool = false) throws -> (result: RealClient.Result, seconds: Double) {
        var client = try ClientRoleTests.client(port: server.port, pki: pki)
        if h2 { client.configuration.applicationProtocols = [.h2] }
        client.maxResponseBytes = maxBytes
        client.responseTimeoutMilliseconds = responseTimeout
        defer { server.wait() }
        let started = Date()
        let result = client.run()
        return (result, Date().timeIntervalSince(started))
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("a body shorter than its Content-Length, then close_notify: truncated, not success")
    func shorterThanContentLength() throws {
        let pki = try TestPKI.require()
        let server = try HostileServer(pki: pki, chunks: { [Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")] },
                                       ending: .closeNotify)
        let r = try Self.run(server, pki: pki)
        #expect(r.failure == .responseTruncated(.shorterThanContentLength(received: 10, expected: 100)), "\(r.failureText ?? "success")")
    }

    @Test("a body that runs to the close, closed without close_notify: may be cut short, a failure; with close_notify: whole")
    func untilClose() throws {
        let pki = try TestPKI.require()
        let head = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n"
        let cut = try HostileServer(pki: pki, chunks: { [Self.bytes(head + "part of a bo")] }, ending: .tcpClose)
        let r = try Self.run(cut, pki: pki)
        let length = (head + "part of a bo").utf8.count
        #expect(r.failure == .responseTruncated(.notClosedProperly(bytes: length)), "\(r.failureText ?? "success")")
        let whole = try HostileServer(pki: pki, chunks: { [Self.bytes(head + "the whole body")] }, ending: .closeNotify)
        let w = try Self.run(whole, pki: pki)
        #expect(w.failure == nil, "\(w.failureText ?? "")")
        #expect(w.response?.hasSuffix("the whole body") == true)
    }

    @Test("Content-Length met, then a bare TCP close: whole; a head cut short: incomplete; chunked without the last chunk: incomplete")
    func framings() throws {
        let pki = try TestPKI.require()
        let complete = try HostileServer(pki: pki, chunks: { [Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")] }, ending: .tcpClose)
        let c = try Self.run(complete, pki: pki)
        #expect(c.failure == nil, "\(c.failureText ?? "")")
        let head = try HostileServer(pki: pki, chunks: { [Self.bytes("HTTP/1.1 200 OK\r\nContent-Le")] }, ending: .closeNotify)
        let h = try Self.run(head, pki: pki)
        #expect(h.failure == .responseTruncated(.headIncomplete(bytes: 27)), "\(h.failureText ?? "success")")
        let chunkedHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunked = try HostileServer(pki: pki, chunks: { [Self.bytes(chunkedHead + "5\r\nhello\r\n"), Self.bytes("3\r\nabc\r\n")] },
                                        ending: .closeNotify)
        let k = try Self.run(chunked, pki: pki)
        #expect(k.failure == .responseTruncated(.chunkedUnterminated(bytes: chunkedHead.utf8.count + 18)), "\(k.failureText ?? "success")")
        let chunkedWhole = try HostileServer(pki: pki, chunks: { [Self.bytes(chunkedHead + "5\r\nhel"), Self.bytes("lo\r\n0\r\n\r\n")] },
                                             ending: .hold(seconds: 3))
        let (kw, seconds) = try Self.timed(chunkedWhole, pki: pki)
        #expect(kw.failure == nil, "\(kw.failureText ?? "")")
        // The server holds the connection open for 3 s: the last chunk, not the close, ended the response.
        #expect(seconds < 2.5, "\(seconds) s")
    }

    @Test("an endless response stops at the size limit; a dripping one at the overall deadline")
    func endlessAndSlow() throws {
        let pki = try TestPKI.require()
        let endless = try HostileServer(pki: pki, chunks: {
            [Self.bytes("HTTP/1.1 200 OK\r\n\r\n")] + Array(repeating: [UInt8](repeating: 0x61, count: 16_000), count: 64)
        }, ending: .closeNotify)
        let e = try Self.run(endless, pki: pki, maxBytes: 100_000)
        #expect(e.failure == .responseTooLarge(limit: 100_000), "\(e.failureText ?? "success")")
        #expect((e.response?.utf8.count ?? 0) == 100_000, "the limit's worth is kept, no more")
        // One byte every 0.4 s: each read is quick, the whole is not.
        let slow = try HostileServer(pki: pki, chunks: { Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n").map { [$0] } },
                                     pause: 0.4, ending: .closeNotify)
        let (s, elapsed) = try Self.timed(slow, pki: pki, responseTimeout: 2_000)
        guard case .responseTimedOut(2_000, let got)? = s.failure else {
            Issue.record("expected the deadline: \(s.failureText ?? "success")"); return
        }
        #expect(got > 0 && got < 20, "\(got)")
        #expect(elapsed < 6, "\(elapsed)")
    }

    @Test("tlslab connect: a truncated response exits 1 with the reason; --max-response-bytes and --response-timeout are honoured")
    func connectCommand() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        func connect(_ server: HostileServer, _ extra: [String] = []) throws -> (status: Int32, output: String) {
            defer { server.wait() }
            return try runTool(tlslab, ["connect", "127.0.0.1:\(server.port)", "--servername", "localhost", "--ca", "root.pem",
                                        "--timeout", "5"] + extra, in: pki.dir, timeout: 30)
        }
        let short = try HostileServer(pki: pki, chunks: { [Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")] },
                                      ending: .closeNotify)
        let a = try connect(short)
        #expect(a.status == 1, "\(a.output.suffix(800))")
        #expect(a.output.contains("the response body has 10 of the 100 bytes its Content-Length announced"), "\(a.output.suffix(800))")
        let endless = try HostileServer(pki: pki, chunks: {
            [Self.bytes("HTTP/1.1 200 OK\r\n\r\n")] + Array(repeating: [UInt8](repeating: 0x61, count: 16_000), count: 16)
        }, ending: .closeNotify)
        let b = try connect(endless, ["--max-response-bytes", "50000", "--format", "json"])
        #expect(b.status == 1 && b.output.contains("longer than the limit of 50000 bytes"), "\(b.output.suffix(800))")
        let whole = try HostileServer(pki: pki, chunks: { [Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")] }, ending: .closeNotify)
        let c = try connect(whole, ["--response-timeout", "5"])
        #expect(c.status == 0, "\(c.output.suffix(800))")
        let bad = try runTool(tlslab, ["connect", "127.0.0.1:9", "--max-response-bytes", "0"], in: pki.dir)
        #expect(bad.status != 0 && bad.output.contains("--max-response-bytes"), "\(bad.output)")
    }

    /// HTTP/2 frames that never end the exchange: an empty SETTINGS, then PINGs (each answered, none a response).
    static let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
    static let ping: [UInt8] = [0, 0, 8, 6, 0, 0, 0, 0, 0] + [UInt8](repeating: 7, count: 8)

    @Test("HTTP/2: endless frames stop at the size limit; frames that drip stop at the overall deadline")
    func http2Bounds() throws {
        let pki = try TestPKI.require()
        let flood = try HostileServer(pki: pki, h2: true, chunks: {
            [Self.settings] + Array(repeating: Array([[UInt8]](repeating: Self.ping, count: 600).joined()), count: 40)
        }, ending: .hold(seconds: 2))  // open while the client reads: its PING ACKs still have somewhere to go
        let f = try Self.run(flood, pki: pki, maxBytes: 100_000, h2: true)
        #expect(f.applicationProtocol == .h2)
        #expect(f.failure == .responseTooLarge(limit: 100_000), "\(f.failureText ?? "success")")
        let drip = try HostileServer(pki: pki, h2: true, chunks: { [Self.settings] + Array(repeating: Self.ping, count: 12) },
                                     pause: 0.4, ending: .closeNotify)
        let (d, elapsed) = try Self.timed(drip, pki: pki, responseTimeout: 2_000, h2: true)
        guard case .responseTimedOut(2_000, _)? = d.failure else {
            Issue.record("expected the deadline: \(d.failureText ?? "success")"); return
        }
        #expect(elapsed < 6, "\(elapsed)")
    }
}
