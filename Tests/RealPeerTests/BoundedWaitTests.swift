import Foundation
import HTTP2
import PKI
import RealPeer
import Simulation
import TLSCrypto
import TLSEngine
import Rendering
import Testing
import Trace
import Trust
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Every wait of a real peer is bounded as a whole, not only per read: a peer that keeps sending after
/// we are done, that drips a handshake or a request one byte at a time, or that sends an endless
/// request head cannot hold the server (which serves one connection after another) or the client.
@Suite("RealPeer: bounded drains, phase deadlines, request size", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct BoundedWaitTests {
    /// Writes `chunk` every `intervalMilliseconds` on its own thread until a write fails, `seconds`
    /// pass, or `stop()`.
    final class Streamer: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        private var done = false
        private(set) var written = 0

        init(_ socket: TCPSocket, chunk: [UInt8], intervalMilliseconds: UInt32, seconds: Double) {
            let thread = Thread { [self] in
                let end = Date().addingTimeInterval(seconds)
                while Date() < end && !lock.withLock({ stopped }) {
                    do { try socket.write(chunk) } catch { break }
                    lock.withLock { written += chunk.count }
                    if intervalMilliseconds > 0 { usleep(intervalMilliseconds * 1_000) }
                }
                lock.withLock { done = true }
            }
            thread.start()
        }

        func stop() {
            lock.withLock { stopped = true }
            let deadline = Date().addingTimeInterval(3)
            while !lock.withLock({ done }) && Date() < deadline { usleep(10_000) }
        }
    }

    /// Fast (4 KiB every 2 ms: the 64 KiB bound ends the drain) and slow (100 bytes every 50 ms: the
    /// 1 s bound does).
    @Test("a client that streams garbage after our alert is cut off: the next client is answered promptly",
          arguments: [(4_096, UInt32(2)), (100, UInt32(50))])
    func garbageAfterAlert(chunk: Int, interval: UInt32) throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki)
        defer { thread.stop() }
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: thread.port)
        defer { socket.close() }
        // Not TLS: the server answers unexpected_message at once, then drains — while we keep sending.
        let streamer = Streamer(socket, chunk: [UInt8](repeating: 0x41, count: chunk), intervalMilliseconds: interval, seconds: 12)
        defer { streamer.stop() }
        usleep(100_000)
        let started = Date()
        let ok = try ServerRoleTests.sClient(thread.port, pki: pki, [])
        let elapsed = Date().timeIntervalSince(started)
        #expect(ok.output.contains("TLSLab serve: this connection"), "\(ok.output)")
        // The drain stops after 1 s or 64 KiB; unbounded it would wait the streamer's 12 s.
        #expect(elapsed < 4, "the next client waited \(elapsed) s")
        #expect(thread.waitFor(2))
        // Connections are served side by side: the one that failed may be reported after the next.
        let first = try #require(thread.connections.first { $0.failureText != nil }, "\(thread.connections.map(\.englishLogLine))")
        #expect(first.failureText?.contains("sent alert unexpected_message") == true, "\(first.englishLogLine)")
        #expect(first.failureText?.contains("kept sending") == true, "\(first.englishLogLine)")
    }

    @Test("a ClientHello dripped one byte every 300 ms hits the handshake deadline; the next client is served")
    func slowDripHandshake() throws {
        let pki = try TestPKI.require()
        // Each read would wait 5 s: only the 1.5 s deadline for the whole handshake can stop the drip.
        let thread = try ServerRoleTests.server(pki: pki, timeout: 5_000, handshakeTimeout: 1_500)
        defer { thread.stop() }
        var tls = TLSClient(configuration: TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(), random: SystemRandom()))
        let hello = tls.start().output
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: thread.port)
        defer { socket.close() }
        let started = Date()
        var sent = 0
        var closed = false
        while sent < hello.count && Date().timeIntervalSince(started) < 8 {
            do { try socket.write([hello[sent]]) } catch { closed = true; break }
            sent += 1
            // The server closing shows as end of stream (or a reset) within the wait.
            if let chunk = try? socket.read(timeoutMilliseconds: 300), chunk.isEmpty { closed = true; break }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(closed, "the server never closed the dripping connection (\(sent) of \(hello.count) bytes sent)")
        #expect(elapsed > 1.2 && elapsed < 4, "closed after \(elapsed) s")
        let ok = try ServerRoleTests.sClient(thread.port, pki: pki, [])
        #expect(ok.output.contains("TLSLab serve: this connection"), "\(ok.output)")
        #expect(thread.waitFor(2))
        let first = try #require(thread.connections.first { $0.failureText != nil }, "\(thread.connections.map(\.englishLogLine))")
        #expect(first.failureText?.contains("handshake timed out") == true, "\(first.englishLogLine)")
        #expect(first.englishLogLine.contains("1500 ms deadline"), "\(first.englishLogLine)")
    }

    @Test("an HTTP request dripped one byte every 300 ms hits the request deadline; the next client is served")
    func slowDripRequest() throws {
        let pki = try TestPKI.require()
        let openssl = try #require(Tools.openssl)
        let thread = try ServerRoleTests.server(pki: pki, timeout: 5_000, requestTimeout: 1_500)
        defer { thread.stop() }
        let client = try Child(openssl, ["s_client", "-connect", "127.0.0.1:\(thread.port)", "-tls1_2", "-CAfile", "root.pem",
                                         "-verify_return_error", "-servername", "localhost", "-ign_eof"], in: pki.dir)
        defer { client.stop() }
        #expect(client.wait(for: "Verify return code: 0 (ok)", seconds: 10), "\(client.output)")
        let started = Date()
        let request = Array("GET / HTTP/1.0\r\nX-Slow: " + String(repeating: "z", count: 40) + "\r\n\r\n")
        for char in request {
            if thread.connections.count >= 1 || Date().timeIntervalSince(started) > 8 { break }
            client.send(String(char))
            usleep(300_000)
        }
        #expect(thread.waitFor(1, seconds: 5))
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 4, "the request phase lasted \(elapsed) s")
        let first = try #require(thread.connections.first)
        #expect(first.failureText?.contains("request timed out") == true, "\(first.englishLogLine)")
        #expect(!client.output.contains("TLSLab serve: this connection"))
        let ok = try ServerRoleTests.sClient(thread.port, pki: pki, [])
        #expect(ok.output.contains("TLSLab serve: this connection"), "\(ok.output)")
    }

    @Test("a request head over 16 KiB is answered 431 and closed; one under the cap is served")
    func requestHeadCap() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki)
        defer { thread.stop() }
        let big = try ServerRoleTests.sClient(thread.port, pki: pki, [],
                                              stdin: "GET / HTTP/1.0\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n")
        #expect(big.output.contains("HTTP/1.1 431 Request Header Fields Too Large"), "\(big.output.suffix(1500))")
        #expect(!big.output.contains("TLSLab serve: this connection"))
        // Under the cap (and spread over several records by s_client): answered.
        let fine = try ServerRoleTests.sClient(thread.port, pki: pki, [],
                                               stdin: "GET / HTTP/1.0\r\nX-Fine: \(String(repeating: "b", count: 12_000))\r\n\r\n")
        #expect(fine.output.contains("TLSLab serve: this connection"), "\(fine.output.suffix(1500))")
        #expect(thread.waitFor(2))
        let log = thread.connections.map(\.englishLogLine)
        #expect(log.first?.contains("longer than 16384 bytes: answered 431") == true, "\(log)")
        #expect(log.last?.contains("→ 200") == true, "\(log)")
    }

    @Test("our client stops draining a server that keeps sending: run() returns within its bounds")
    func clientDrainIsBounded() throws {
        let listener = try TCPListener(port: 0)
        // A "server" that answers the ClientHello with an endless stream of bytes that are not TLS.
        let box = StreamerBox()
        let serverThread = Thread {
            guard let socket = try? listener.accept(timeoutMilliseconds: 5_000) else { return }
            _ = try? socket.read(timeoutMilliseconds: 2_000)
            box.set(Streamer(socket, chunk: [UInt8](repeating: 0x42, count: 4_096), intervalMilliseconds: 2, seconds: 12), socket)
        }
        serverThread.start()
        defer { box.stop() }
        let client = RealClient(host: "127.0.0.1", port: listener.port,
                                configuration: TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(), random: SystemRandom()),
                                request: nil, timeoutMilliseconds: 5_000)
        let started = Date()
        let result = client.run()
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.failureText?.contains("refused") == true, "\(result.failureText ?? "no failure")")
        #expect(elapsed < 4, "run() took \(elapsed) s against a server streaming for 12 s")
        let phases = result.trace.events.compactMap { if case .phase(let p) = $0.kind { Explanations.english.phaseName(p) } else { nil } }
        #expect(phases.contains { $0.contains("the server kept sending: stopped draining") }, "\(phases)")
    }

    /// Holds the fake server's streamer and socket so they outlive its thread.
    final class StreamerBox: @unchecked Sendable {
        private let lock = NSLock()
        private var streamer: Streamer?
        private var socket: TCPSocket?
        func set(_ s: Streamer, _ socket: TCPSocket) { lock.withLock { streamer = s; self.socket = socket } }
        func stop() {
            lock.withLock { streamer }?.stop()
            lock.withLock { socket }?.close()
        }
    }
}
