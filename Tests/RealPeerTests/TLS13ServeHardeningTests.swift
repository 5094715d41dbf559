import Foundation
@testable import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import Trace

/// Every bound `serve` keeps for TLS 1.2 holds for TLS 1.3 (issue #37), read on a real socket with
/// our own TLS 1.3 client engine writing what no ordinary client would: a handshake that never
/// finishes (the deadline, then user_canceled and close_notify, protected as the server's writes are
/// after its Finished, RFC 8446 §6, §6.1), a run of empty application_data records (``IncomingLimits``), an encrypted record over
/// 2^14 + 256 bytes (record_overflow, §5.2), and a KeyUpdate answered in the middle of a request.
@Suite("RealPeer: serve's bounds with TLS 1.3 clients", .serialized)
struct TLS13ServeHardeningTests {
    static func listen(handshakeTimeout: Int32 = 30_000) throws -> ServerThread {
        let pki = try TestPKI.require()
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: 5_000,
                              handshakeTimeoutMilliseconds: handshakeTimeout, requestTimeoutMilliseconds: 5_000, page: englishPage) {
            TLSServerConfiguration(identity: identity, random: SystemRandom(), cipherSuites: CipherSuite.implemented)
        }
        real.makeTLS13Configuration = { TLS13ServerConfiguration(identity: identity) }
        real.drainMilliseconds = 300
        return ServerThread(real)
    }

    /// Why the exchange failed, without the note that the client kept its socket open after the
    /// server closed (these tests read until the server closes, then close).
    static func failure(_ served: ServedConnection) -> ExchangeFailure? {
        if case .drainStopped(let inner, _)? = served.failure { return inner }
        return served.failure
    }

    /// A TLS 1.3 client on a socket to `port`: what it read, and whether the server closed.
    struct Peer {
        let socket: TCPSocket
        var client = TLS13Client(configuration: TLS13ClientConfiguration(serverName: "localhost", evaluator: AcceptAnyCertificate()),
                                 random: SystemRandom())
        var alerts: [Alert] = []
        var data: [UInt8] = []
        var closed = false

        init(port: UInt16) throws { socket = try TCPSocket.connect(host: "127.0.0.1", port: port) }

        /// Reads until `done` or the server closes (10 s at most), answering with the engine's output when `answer`.
        mutating func read(answer: Bool = true, until done: (Peer) -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !done(self), !closed, Date() < deadline {
                guard let bytes = try? socket.read(timeoutMilliseconds: 200) else { continue }
                if bytes.isEmpty { closed = true; break }
                let step = client.receive(bytes)
                for event in step.events {
                    if case .alertReceived(let alert) = event { alerts.append(alert) }
                    if case .applicationDataReceived(let d) = event { data += d }
                }
                if answer, !step.output.isEmpty { try? socket.write(step.output) }
            }
        }

        mutating func handshake() throws {
            try socket.write(client.start().output)
            read { $0.client.state == .connected }
            #expect(client.state == .connected)
        }
    }

    @Test("A handshake that never finishes: the deadline, then user_canceled and close_notify the client can open")
    func neverFinishes() throws {
        let thread = try Self.listen(handshakeTimeout: 1_000)
        defer { thread.stop() }
        var peer = try Peer(port: thread.port)
        defer { peer.socket.close() }
        try peer.socket.write(peer.client.start().output)
        let started = Date()
        peer.read(answer: false) { _ in false }
        #expect(peer.closed && Date().timeIntervalSince(started) < 6)
        // Our client engine stops reading at user_canceled; the trace shows close_notify went after it.
        #expect(peer.alerts.first == Alert(level: .warning, description: .userCanceled), "\(peer.alerts)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(Self.failure(served) == .handshakeTimedOut(milliseconds: 1_000, state: .tls13(.waitClientFinished)), "\(String(describing: served.failure))")
        let sent = served.trace.events.compactMap { if case .tls(.alertSent(let a, let cause)) = $0.kind { (a, cause) } else { nil } }
        #expect(sent.map(\.0) == [Alert(level: .warning, description: .userCanceled), .closeNotify])
        #expect(sent.map(\.1) == [.handshakeCanceled, .close])
        #expect(served.facts.version == .tls13)
    }

    @Test("33 empty application_data records after the handshake: unexpected_message, as for TLS 1.2")
    func emptyRecords() throws {
        let thread = try Self.listen()
        defer { thread.stop() }
        var peer = try Peer(port: thread.port)
        defer { peer.socket.close() }
        try peer.handshake()
        var burst: [UInt8] = []
        for _ in 0...IncomingLimits.maximumConsecutiveEmptyRecords { burst += peer.client.send([]).output }
        try peer.socket.write(burst)
        peer.read { _ in false }
        #expect(peer.alerts.map(\.alertDescription) == [.unexpectedMessage], "\(peer.alerts)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(Self.failure(served) == .fatalAlertSent(by: .server, .unexpectedMessage,
                                                  .tls13(.tooManyEmptyRecords(limit: IncomingLimits.maximumConsecutiveEmptyRecords))),
                "\(String(describing: served.failure))")
    }

    @Test("An encrypted record over 2^14 + 256 bytes: record_overflow (RFC 8446 §5.2)")
    func oversizedRecord() throws {
        let thread = try Self.listen()
        defer { thread.stop() }
        var peer = try Peer(port: thread.port)
        defer { peer.socket.close() }
        try peer.handshake()
        let length = TLS13RecordProtector.maxCiphertextLength + 1
        try peer.socket.write([0x17, 0x03, 0x03, UInt8(length >> 8), UInt8(length & 0xff)] + [UInt8](repeating: 0x55, count: length))
        peer.read { _ in false }
        #expect(peer.alerts.map(\.alertDescription) == [.recordOverflow], "\(peer.alerts)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(Self.failure(served).map { if case .fatalAlertSent(.server, .recordOverflow, _) = $0 { true } else { false } } == true,
                "\(String(describing: served.failure))")
    }

    @Test("A KeyUpdate asking for one before the request: answered (RFC 8446 §4.6.3), then the page under the new keys")
    func keyUpdateBeforeRequest() throws {
        let thread = try Self.listen()
        defer { thread.stop() }
        var peer = try Peer(port: thread.port)
        defer { peer.socket.close() }
        try peer.handshake()
        try peer.socket.write(peer.client.updateKeys(requestUpdate: true).output + peer.client.send(Array("GET / HTTP/1.0\r\n\r\n".utf8)).output)
        peer.read { _ in false }
        let page = String(decoding: peer.data, as: UTF8.self)
        #expect(page.contains("version: TLS 1.3"), "\(page)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(Self.failure(served) == nil, "\(String(describing: served.failure))")
        let tls = served.trace.events.compactMap { if case .tls(let e) = $0.kind { e } else { nil } }
        #expect(tls.contains { if case .tls13(.keyUpdateReceived(updateRequested: true)) = $0 { true } else { false } })
        #expect(tls.contains { if case .tls13(.keyUpdateSent(updateRequested: false)) = $0 { true } else { false } })
    }
}
