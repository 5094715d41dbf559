import Foundation
@testable import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// Issue #22 defect 6 in the handshake: `serve` giving up on a client that stopped mid-handshake (a
/// read timeout or the handshake deadline) sends user_canceled, then close_notify, before it closes —
/// RFC 5246 §7.2.2 ("This handshake is being canceled for some reason unrelated to a protocol failure
/// … This alert should be followed by a close_notify") and §7.2.1 (each party sends close_notify
/// before closing its write side unless a fatal alert was sent). Alerts go under the current write
/// state: in the clear before the server's ChangeCipherSpec, protected after it (a resumed session).
/// OpenSSL and Go send nothing here (SSL_shutdown refuses while in init; Go's Conn.Close sends
/// close_notify only after the handshake): TLSLab follows the RFC. Read from a real `serve` socket.
@Suite("RealPeer: a handshake timeout ends with user_canceled and close_notify (issue #22)", .serialized)
struct HandshakeTimeoutTests {
    /// What a client that stopped answering received: the raw bytes until the server closed, and
    /// the alerts our engine read in them (its own answers are never written).
    struct Received {
        var bytes: [UInt8] = []
        var alerts: [Alert] = []
        var closed = false
        var client: TLSClient
    }

    static func listen(timeout: Int32, handshakeTimeout: Int32, tickets: SessionTicketKeys? = nil) throws -> ServerThread {
        let pki = try TestPKI.require()
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: timeout,
                              handshakeTimeoutMilliseconds: handshakeTimeout, requestTimeoutMilliseconds: 5_000, page: englishPage) {
            var c = TLSServerConfiguration(identity: identity, random: SystemRandom(), cipherSuites: CipherSuite.implemented)
            c.sessionTicketKeys = tickets
            return c
        }
        real.drainMilliseconds = 300
        return ServerThread(real)
    }

    static func clientConfiguration(session: TLSSession? = nil) -> TLSClientConfiguration {
        var c = TLSClientConfiguration(certificateEvaluator: AcceptAnyCertificate(), random: SystemRandom())
        c.serverName = "localhost"
        c.offerSessionTicket = true
        c.session = session
        return c
    }

    /// Sends the ClientHello (when `hello`), then only reads until the server closes (or 10 s).
    static func stall(port: UInt16, hello: Bool, configuration: TLSClientConfiguration = clientConfiguration()) throws -> Received {
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: port)
        defer { socket.close() }
        var received = Received(client: TLSClient(configuration: configuration))
        let first = received.client.start().output
        if hello { try socket.write(first) }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard let bytes = try? socket.read(timeoutMilliseconds: 200) else { continue }
            if bytes.isEmpty { received.closed = true; break }
            received.bytes += bytes
            for case .alertReceived(let alert) in received.client.receive(bytes).events { received.alerts.append(alert) }
        }
        return received
    }

    /// The records' content types and lengths, in order (an incomplete last one is left out).
    static func records(_ bytes: [UInt8]) -> [(type: UInt8, length: Int)] {
        var out: [(type: UInt8, length: Int)] = []
        var i = 0
        while i + 5 <= bytes.count {
            let length = Int(bytes[i + 3]) << 8 | Int(bytes[i + 4])
            guard i + 5 + length <= bytes.count else { break }
            out.append((bytes[i], length))
            i += 5 + length
        }
        return out
    }

    static let userCanceled = Alert(level: .warning, description: .userCanceled)

    /// The served connection's alerts sent, with their causes.
    static func alertsSent(_ connection: ServedConnection) -> [(Alert, AlertCause)] {
        connection.trace.events.compactMap { event -> (Alert, AlertCause)? in
            if case .tls(.alertSent(let alert, let cause)) = event.kind { return (alert, cause) } else { return nil }
        }
    }

    @Test("silent before the ClientHello: the read timeout sends user_canceled and close_notify in the clear")
    func silentBeforeHello() throws {
        let thread = try Self.listen(timeout: 600, handshakeTimeout: 30_000)
        defer { thread.stop() }
        let started = Date()
        let got = try Self.stall(port: thread.port, hello: false)
        #expect(got.closed && Date().timeIntervalSince(started) < 5)
        // Two plaintext alert records: 21, version, length 2, (warning 1, user_canceled 90), (1, close_notify 0).
        #expect(got.bytes.count == 14, "\(got.bytes)")
        if got.bytes.count == 14 {
            #expect(got.bytes[0] == 21 && got.bytes[3 ... 6] == [0, 2, 1, 90], "\(got.bytes)")
            #expect(got.bytes[7] == 21 && got.bytes[10 ... 13] == [0, 2, 1, 0], "\(got.bytes)")
        }
        #expect(got.alerts == [Self.userCanceled, .closeNotify], "\(got.alerts)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failureText?.contains("handshake abandoned in state expectClientHello") == true, "\(served.englishLogLine)")
        let sent = Self.alertsSent(served)
        #expect(sent.map(\.0) == [Self.userCanceled, .closeNotify])
        #expect(sent.map(\.1) == [.handshakeCanceled, .close])
        #expect(served.trace.events.contains {
            if case .phase(.closing(.userCanceledThenCloseNotify)) = $0.kind { true } else { false }
        })
    }

    @Test("silent after the server's flight: the handshake deadline sends user_canceled and close_notify in the clear")
    func silentAfterServerFlight() throws {
        // Each read may wait 5 s: only the 1.2 s handshake deadline ends this.
        let thread = try Self.listen(timeout: 5_000, handshakeTimeout: 1_200)
        defer { thread.stop() }
        let started = Date()
        let got = try Self.stall(port: thread.port, hello: true)
        let elapsed = Date().timeIntervalSince(started)
        #expect(got.closed && elapsed > 1.0 && elapsed < 5, "\(elapsed) s")
        // The flight (ServerHello … ServerHelloDone), then the two alerts as the last 14 bytes, unprotected.
        #expect(got.bytes.suffix(14).elementsEqual([21, 3, 3, 0, 2, 1, 90, 21, 3, 3, 0, 2, 1, 0]), "\(got.bytes.suffix(14))")
        #expect(got.alerts == [Self.userCanceled, .closeNotify], "\(got.alerts)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failureText?.contains("handshake timed out") == true, "\(served.englishLogLine)")
        #expect(Self.alertsSent(served).map(\.0) == [Self.userCanceled, .closeNotify])
    }

    @Test("resuming, silent after the server's Finished: the alerts are protected under the new keys")
    func silentAfterResumedFinished() throws {
        let thread = try Self.listen(timeout: 800, handshakeTimeout: 30_000, tickets: SessionTicketKeys(random: SystemRandom()))
        defer { thread.stop() }
        // A full handshake for a ticket; the client's answers are written this time.
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: thread.port)
        var full = TLSClient(configuration: Self.clientConfiguration())
        try socket.write(full.start().output)
        let deadline = Date().addingTimeInterval(10)
        while !full.isConnected, full.failureAlert == nil, Date() < deadline {
            let bytes = try socket.read(timeoutMilliseconds: 5_000)
            if bytes.isEmpty { break }
            let step = full.receive(bytes)
            if !step.output.isEmpty { try socket.write(step.output) }
        }
        try socket.write(try full.sendApplicationData(Array("GET / HTTP/1.0\r\n\r\n".utf8)).output)
        while let bytes = try? socket.read(timeoutMilliseconds: 3_000), !bytes.isEmpty { _ = full.receive(bytes) }
        socket.close()
        let session = try #require(full.session)
        #expect(session.ticket != nil)
        #expect(thread.waitFor(1))

        // Resuming: ServerHello, NewSessionTicket, ChangeCipherSpec, Finished; then the client is silent.
        let got = try Self.stall(port: thread.port, hello: true, configuration: Self.clientConfiguration(session: session))
        #expect(got.client.isResumed)
        #expect(got.closed)
        #expect(got.alerts == [Self.userCanceled, .closeNotify], "\(got.alerts)")
        // Protected: the last two records are alerts longer than an alert's two bytes (explicit
        // nonce, ciphertext, tag), after the ChangeCipherSpec.
        let records = Self.records(got.bytes)
        #expect(records.suffix(2).allSatisfy { $0.type == 21 && $0.length > 2 }, "\(records)")
        #expect(records.dropLast(2).contains { $0.type == 20 }, "\(records)")
        #expect(thread.waitFor(2))
        let served = try #require(thread.connections.last)
        #expect(served.failureText?.contains("expectChangeCipherSpec") == true, "\(served.englishLogLine)")
        #expect(Self.alertsSent(served).map(\.0) == [Self.userCanceled, .closeNotify])
    }
}

@Suite("TLSServer.cancel: user_canceled only in an unfinished handshake (RFC 5246 §7.2.2)")
struct ServerCancelTests {
    @Test func cancelDependsOnTheState() throws {
        let pki = try TestPKI.require()
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        func alerts(_ step: TLSStep) -> [Alert] {
            step.events.compactMap { if case .alertSent(let a, _) = $0 { a } else { nil } }
        }
        let configuration = TLSServerConfiguration(identity: identity, random: HMACDRBG(seed: 22), cipherSuites: CipherSuite.implemented)
        var waiting = TLSServer(configuration: configuration)
        #expect(alerts(waiting.cancel()) == [Alert(level: .warning, description: .userCanceled), .closeNotify])
        #expect(waiting.stateName == .closed)
        #expect(alerts(waiting.cancel()).isEmpty, "nothing once closed")
        var closing = TLSServer(configuration: configuration)
        #expect(alerts(closing.close()) == [.closeNotify], "close() alone sends no user_canceled")
    }
}
