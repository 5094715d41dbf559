import Foundation
import PKI
@testable import RealPeer
import Rendering
import Simulation
import TLSCrypto
import TLSEngine
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Issue #22 for `serve`: a malformed request line, bare-LF requests, log and terminal injection,
/// close_notify (and GOAWAY) on an idle timeout, floods, a bounded trace, a reset client's address.
@Suite("RealPeer: serve hardening (issue #22)", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ServeHardeningTests {
    /// Our own engine as the client over a real socket, collecting what the server sends.
    struct RawTLS {
        let socket: TCPSocket
        var client: TLSClient
        var data: [UInt8] = []
        var alerts: [Alert] = []
        var sawEndOfStream = false

        init(port: UInt16, alpn: [ProtocolName] = []) throws {
            socket = try TCPSocket.connect(host: "127.0.0.1", port: port)
            var configuration = TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(), random: SystemRandom())
            configuration.serverName = "localhost"
            configuration.applicationProtocols = alpn
            client = TLSClient(configuration: configuration)
            try socket.write(client.start().output)
            let deadline = Date().addingTimeInterval(10)
            while !client.isConnected, client.failureAlert == nil, Date() < deadline {
                let bytes = try socket.read(timeoutMilliseconds: 5_000)
                if bytes.isEmpty { break }
                try absorb(client.receive(bytes))
            }
        }

        mutating func absorb(_ step: TLSStep) throws {
            for event in step.events {
                if case .applicationDataReceived(let d) = event { data += d }
                if case .alertReceived(let a) = event { alerts.append(a) }
            }
            if !step.output.isEmpty { try? socket.write(step.output) }
        }

        mutating func send(_ text: [UInt8]) throws { try socket.write(try client.sendApplicationData(text).output) }

        /// Reads until the server closes (true) or `seconds` pass.
        mutating func readToEnd(seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                guard let bytes = try? socket.read(timeoutMilliseconds: 200) else { continue }
                if bytes.isEmpty { sawEndOfStream = true; return true }
                try? absorb(client.receive(bytes))
            }
            return false
        }

        var text: String { String(decoding: data, as: UTF8.self) }
    }

    @Test("a request line that is not HTTP is answered 400 (RFC 9112 §3); then close_notify")
    func malformedRequestLineIs400() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki)
        defer { thread.stop() }
        for (line, status) in [("HELLO THERE", "400 Bad Request"), ("GET / HTTP/1.1 extra", "400 Bad Request"),
                               ("GET /a b HTTP/1.1", "400 Bad Request"), ("GET / HTTP/2.0", "505 HTTP Version Not Supported")] {
            var tls = try RawTLS(port: thread.port)
            #expect(tls.client.isConnected)
            try tls.send(Array("\(line)\r\n\r\n".utf8))
            let closedTls = tls.readToEnd(seconds: 5)
            #expect(closedTls)
            #expect(tls.text.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(line): \(tls.text)")
            #expect(!tls.text.contains("TLSLab serve: this connection"))
            #expect(tls.alerts.contains(.closeNotify), "\(line): \(tls.alerts)")
        }
        #expect(thread.waitFor(4))
        #expect(thread.connections.first?.failureText?.contains("answered 400 Bad Request: \"HELLO THERE\"") == true,
                "\(thread.connections.first?.englishLogLine ?? "")")
    }

    @Test("a request whose lines end in a bare LF is answered at once (RFC 9112 §2.2)")
    func bareLineFeedRequest() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki)
        defer { thread.stop() }
        for request in ["GET / HTTP/1.0\n\n", "GET / HTTP/1.1\nHost: localhost\n\n", "\r\nGET / HTTP/1.0\r\n\n"] {
            var tls = try RawTLS(port: thread.port)
            let started = Date()
            try tls.send(Array(request.utf8))
            let closedTls = tls.readToEnd(seconds: 4)
            #expect(closedTls)
            #expect(Date().timeIntervalSince(started) < 3, "\(request.debugDescription) waited for a timeout")
            #expect(tls.text.hasPrefix("HTTP/1.1 200 OK") && tls.text.contains("TLSLab serve: this connection"), "\(request.debugDescription): \(tls.text)")
        }
    }

    @Test("ESC, BEL, CR and non-UTF-8 bytes from the client are escaped in the log line and the rendered trace")
    func injectionIsEscaped() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki)
        defer { thread.stop() }
        // A valid request line whose target holds percent-escapes only; the evil bytes are in a header.
        var ok = try RawTLS(port: thread.port)
        try ok.send(Array("GET /ok HTTP/1.0\r\nX-Evil: \u{1B}[2J\u{07}\r\n\r\n".utf8))
        let closedOk = ok.readToEnd(seconds: 5)
        #expect(closedOk && ok.text.hasPrefix("HTTP/1.1 200 OK"))
        // Terminal controls and a byte that is not UTF-8 in the request target: 400, and escaped.
        var evil = try RawTLS(port: thread.port)
        try evil.send(Array("GET /\u{1B}]0;owned\u{07}\r".utf8) + [0xff] + Array(" HTTP/1.0\r\n\r\n".utf8))
        let closedEvil = evil.readToEnd(seconds: 5)
        #expect(closedEvil && evil.text.hasPrefix("HTTP/1.1 400 Bad Request"), "\(evil.text)")
        #expect(thread.waitFor(2))
        for connection in thread.connections {
            let log = connection.englishLogLine
            #expect(!log.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }, "\(log.debugDescription)")
            let rendered = TextRenderer(verbosity: .normal, width: 100, color: false).render(connection.trace).joined(separator: "\n")
            #expect(!rendered.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f }, "\(rendered.debugDescription)")
        }
        let evilLog = try #require(thread.connections.last).englishLogLine
        #expect(evilLog.contains("GET /\\x1B]0;owned\\x07\\x0D\\xFF HTTP/1.0"), "\(evilLog)")
    }

    @Test("an idle client gets close_notify before the close (RFC 5246 §7.2.1)")
    func idleTimeoutSendsCloseNotify() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki, timeout: 800, requestTimeout: 800)
        defer { thread.stop() }
        var tls = try RawTLS(port: thread.port)
        #expect(tls.client.isConnected)
        let closedTls = tls.readToEnd(seconds: 5)
        #expect(closedTls)
        #expect(tls.alerts == [.closeNotify], "\(tls.alerts)")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.failureText?.contains("timed out") == true)
    }

    @Test("an idle h2 client gets SETTINGS and GOAWAY NO_ERROR, then close_notify (RFC 9113 §6.8)")
    func idleHTTP2GetsGoAway() throws {
        let pki = try TestPKI.require()
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: 800, requestTimeoutMilliseconds: 800, page: englishPage) {
            var c = TLSServerConfiguration(identity: identity, random: SystemRandom(), cipherSuites: CipherSuite.implemented)
            c.applicationProtocols = [.h2]
            return c
        }
        let thread = ServerThread(real)
        defer { thread.stop() }
        var tls = try RawTLS(port: thread.port, alpn: [.h2])
        #expect(tls.client.negotiatedApplicationProtocol == .h2)
        let closedTls = tls.readToEnd(seconds: 5)
        #expect(closedTls)
        // Frames: 3-byte length, type, flags, 4-byte stream.
        var types: [UInt8] = []
        var i = 0
        while i + 9 <= tls.data.count {
            let length = Int(tls.data[i]) << 16 | Int(tls.data[i + 1]) << 8 | Int(tls.data[i + 2])
            types.append(tls.data[i + 3])
            if types.last == 7, i + 17 <= tls.data.count { #expect(Array(tls.data[(i + 13) ..< (i + 17)]) == [0, 0, 0, 0], "NO_ERROR") }
            i += 9 + length
        }
        #expect(types == [4, 7], "SETTINGS then GOAWAY: \(types)")
        #expect(tls.alerts == [.closeNotify])
    }

    @Test("warning alerts before the handshake: the fifth is answered unexpected_message")
    func warningAlertFlood() throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki)
        defer { thread.stop() }
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: thread.port)
        defer { socket.close() }
        let warning: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x01, 0x5a]
        for _ in 0 ..< 1_000 { try? socket.write(warning) }
        var answer: [UInt8] = []
        while let bytes = try? socket.read(timeoutMilliseconds: 2_000), !bytes.isEmpty { answer += bytes }
        #expect(answer.prefix(7) == [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 10], "\(answer.prefix(16))")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.failureText?.contains("sent alert unexpected_message") == true)
    }

    @Test("with keepsTrace off no event is kept; the key log entry still is")
    func logOnlyKeepsNoEvents() throws {
        let pki = try TestPKI.require()
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: 5_000, page: englishPage) {
            TLSServerConfiguration(identity: identity, random: SystemRandom(), cipherSuites: CipherSuite.implemented)
        }
        real.keepsTrace = false
        let thread = ServerThread(real)
        defer { thread.stop() }
        var tls = try RawTLS(port: thread.port)
        try tls.send(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        let closedTls = tls.readToEnd(seconds: 5)
        #expect(closedTls && tls.text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.trace.events.isEmpty)
        #expect(served.keyLog?.masterSecret == tls.client.masterSecret)
        #expect(served.englishLogLine.hasSuffix("→ 200"))
    }

    @Test("the recorder keeps at most its limits and says how many events it left out")
    func traceIsBounded() throws {
        var recorder = TraceRecorder(limits: TraceLimits(events: 100, bytes: 1 << 20))
        for i in 0 ..< 10_000 { recorder.phase(.socket(.closed(written: i, read: 0, reads: 0))) }
        #expect(recorder.events.count == 100)
        let trace = recorder.trace
        #expect(trace.events.count == 101)
        guard case .phase(let note)? = trace.events.last?.kind else { Issue.record("no note"); return }
        #expect(note == .traceLimit(dropped: 9900, events: 100, mebibytes: 1), "\(note)")
        #expect(Explanations.english.phaseName(note).contains("9900 later event(s) not kept"))
        // By size: a few large records fill the byte budget.
        var bySize = TraceRecorder(limits: TraceLimits(events: 1_000, bytes: 100_000))
        let big = TLSEvent.applicationDataReceived([UInt8](repeating: 1, count: 30_000))
        for _ in 0 ..< 50 { bySize.record([big][...], by: .client) }
        #expect(bySize.events.count == 3 && bySize.droppedEvents == 47)
        var none = TraceRecorder(keepsEvents: false)
        none.phase(.tlsHandshake)
        #expect(none.trace.events.isEmpty)
    }

    @Test("a client that resets before accept() is logged with its address, not '?'")
    func resetClientKeepsItsAddress() throws {
        let listener = try TCPListener(port: 0)
        let client = try TCPSocket.connect(host: "127.0.0.1", port: listener.port)
        let local = client.localAddress
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        client.close()  // RST
        usleep(100_000)
        let accepted = try #require(try listener.accept(timeoutMilliseconds: 2_000))
        defer { accepted.close() }
        #expect(accepted.remoteAddress == local)
    }
}
