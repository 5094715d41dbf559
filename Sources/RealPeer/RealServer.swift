import Foundation
import PKI
import Simulation
import TLSEngine
#if canImport(Glibc)
import Glibc
#endif

/// What a served connection negotiated, for the page and the log.
public struct ConnectionFacts: Sendable {
    public var peer: String
    public var version: ProtocolVersion?
    public var suite: CipherSuite?
    public var extendedMasterSecret = false
    public var serverName: String?
    /// The subject of the client's certificate (mutual TLS), when one was sent.
    public var clientCertificateSubject: String?
}

/// One connection the server handled.
public struct ServedConnection: Sendable {
    public var trace: Trace
    public var facts: ConnectionFacts
    /// nil when the handshake completed and the request was answered; else why not.
    public var failure: String?
    /// The HTTP request received (first line and headers), if any.
    public var request: String?
    public var keyLog: KeyLogEntry?

    /// One line for the server's log.
    public var logLine: String {
        if let failure { return "\(facts.peer): \(failure)" }
        let suite = facts.suite.map { CipherSuite.names[$0.rawValue] ?? "\($0)" } ?? "?"
        let who = facts.clientCertificateSubject.map { ", client \($0)" } ?? ""
        let line = request.flatMap { $0.split(separator: "\r\n").first }.map { " \"\($0)\"" } ?? ""
        return "\(facts.peer): \(facts.version.map { "\($0)" } ?? "?") \(suite) EMS \(facts.extendedMasterSecret ? "yes" : "no")\(who)\(line) → 200"
    }
}

/// The small page `tlslab serve` answers every request with: what was negotiated.
public enum ServerPage {
    public static func body(_ facts: ConnectionFacts) -> String {
        var lines = ["TLSLab serve: this connection",
                     "version: \(facts.version.map { "\($0)" } ?? "?")",
                     "cipher suite: \(facts.suite.map { CipherSuite.names[$0.rawValue] ?? "\($0)" } ?? "?")",
                     "extended master secret: \(facts.extendedMasterSecret ? "yes" : "no")"]
        if let name = facts.serverName { lines.append("server name asked for: \(name)") }
        lines.append("client certificate: \(facts.clientCertificateSubject ?? "none")")
        return lines.joined(separator: "\n") + "\n"
    }

    public static func response(_ facts: ConnectionFacts) -> String {
        let body = body(facts)
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
    }
}

/// Runs ``TLSServer`` — the simulation's server state machine — on accepted sockets, one connection
/// after another. Bad input ends only that connection (with the engine's alert, then close).
public final class RealServer: @unchecked Sendable {
    public let listener: TCPListener
    /// A fresh configuration per connection (its random source, evaluator).
    public let makeConfiguration: @Sendable () -> TLSServerConfiguration
    /// The longest wait for any one read; a client silent that long is closed.
    public var timeoutMilliseconds: Int32

    public init(listener: TCPListener, timeoutMilliseconds: Int32 = 10_000,
                makeConfiguration: @escaping @Sendable () -> TLSServerConfiguration) {
        self.listener = listener
        self.timeoutMilliseconds = timeoutMilliseconds
        self.makeConfiguration = makeConfiguration
    }

    public var port: UInt16 { listener.port }

    /// Accepts and serves until `maxConnections` were accepted or `shouldStop` says so (checked at
    /// least every 200 ms). With `concurrency` above 1, up to that many connections are served at
    /// once, each on its own thread; `onConnection` is still called on the calling thread, one
    /// connection at a time, as each finishes. Connections under way when it stops are finished
    /// (each is bounded by the read timeout). Returns the number served.
    @discardableResult
    public func run(maxConnections: Int? = nil, concurrency: Int = 1, shouldStop: () -> Bool = { false },
                    onConnection: (ServedConnection) -> Void) throws(SocketError) -> Int {
        guard concurrency > 1 else {
            var served = 0
            while !shouldStop(), maxConnections.map({ served < $0 }) ?? true {
                guard let socket = try listener.accept(timeoutMilliseconds: 200) else { continue }
                let connection = serve(socket)
                served += 1
                onConnection(connection)
            }
            return served
        }
        let pool = ConnectionPool()
        var accepted = 0, delivered = 0
        while true {
            for connection in pool.takeFinished() {
                delivered += 1
                onConnection(connection)
            }
            let accepting = !shouldStop() && (maxConnections.map { accepted < $0 } ?? true)
            guard accepting else {
                if pool.active == 0 && pool.finishedCount == 0 { break }
                usleep(10_000)
                continue
            }
            guard pool.active < concurrency else { usleep(5_000); continue }
            guard let socket = try listener.accept(timeoutMilliseconds: 50) else { continue }
            accepted += 1
            pool.started()
            let thread = Thread { [self] in pool.finished(self.serve(socket)) }
            thread.stackSize = 8 << 20
            thread.start()
        }
        return delivered
    }

    /// Serves one accepted connection to the end and closes it.
    public func serve(_ socket: TCPSocket) -> ServedConnection {
        var recorder = TraceRecorder()
        var server = TLSServer(configuration: makeConfiguration())
        var facts = ConnectionFacts(peer: socket.remoteAddress)
        let timeout = timeoutMilliseconds

        recorder.phase("TCP connection — socket level: only what the kernel lets us see")
        recorder.socket("accept() returned: \(socket.remoteAddress) → \(socket.localAddress) (the kernel did the three-way handshake)")

        func send(_ step: TLSStep) {
            recorder.record(step, by: .server)
            let bytes = step.output
            guard !bytes.isEmpty else { return }
            do { try socket.write(bytes); recorder.wrote(bytes.count) } catch {
                recorder.socket("write of \(bytes.count) bytes failed: \(error)")
            }
        }
        func finish(_ failure: String?, request: String? = nil) -> ServedConnection {
            socket.shutdownWrite()
            // Drain briefly: closing with unread bytes would reset the connection and could destroy
            // the alert or the answer just written.
            while let rest = try? socket.read(timeoutMilliseconds: 300), !rest.isEmpty { recorder.read(rest.count) }
            socket.close()
            recorder.socket("close(): \(recorder.totals)")
            facts.version = server.negotiatedVersion
            facts.suite = server.negotiatedSuite
            facts.extendedMasterSecret = server.usesExtendedMasterSecret
            return ServedConnection(trace: recorder.trace, facts: facts, failure: failure, request: request,
                                    keyLog: KeyLogEntry.from(recorder.events))
        }

        recorder.phase("TLS handshake")
        while !server.isConnected {
            let bytes: [UInt8]
            do {
                bytes = try socket.read(timeoutMilliseconds: timeout)
            } catch {
                recorder.socket("\(error)")
                return finish("handshake abandoned in state \(server.stateName.rawValue): \(error); closed")
            }
            if bytes.isEmpty {
                recorder.socket("read() returned 0: the client closed the connection")
                return finish("the client disconnected mid-handshake (state \(server.stateName.rawValue))")
            }
            recorder.read(bytes.count)
            let step = server.receive(bytes)
            let outcome = StepOutcome(step)
            send(step)
            if let alert = outcome.fatalReceived {
                return finish("the client sent a fatal alert: \(alert.alertDescription.displayName)")
            }
            if case let (alert, cause)? = outcome.fatalSent {
                return finish("sent alert \(alert.alertDescription.displayName): \(cause)")
            }
            if server.stateName == .closed || server.stateName == .failed {
                return finish("the client ended the connection during the handshake")
            }
        }
        facts.version = server.negotiatedVersion
        facts.suite = server.negotiatedSuite
        facts.extendedMasterSecret = server.usesExtendedMasterSecret
        facts.serverName = server.requestedServerName
        if let leaf = server.peerCertificateChain.first {
            facts.clientCertificateSubject = (try? X509Certificate(der: leaf)).map { "\($0.subject)" } ?? "(unparsable certificate)"
        }

        // Wait for one HTTP request, answer it with the page.
        var request: [UInt8] = []
        recorder.phase("HTTP request over TLS")
        while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
            let bytes: [UInt8]
            do { bytes = try socket.read(timeoutMilliseconds: timeout) } catch {
                recorder.socket("\(error)")
                return finish("no HTTP request: \(error); closed")
            }
            if bytes.isEmpty {
                recorder.socket("read() returned 0: the client closed the connection")
                return finish(request.isEmpty ? "the client closed before sending a request" : "the client closed mid-request")
            }
            recorder.read(bytes.count)
            let step = server.receive(bytes)
            let outcome = StepOutcome(step)
            request += outcome.applicationData
            send(step)
            if let alert = outcome.fatalReceived { return finish("the client sent a fatal alert: \(alert.alertDescription.displayName)") }
            if case let (alert, cause)? = outcome.fatalSent { return finish("sent alert \(alert.alertDescription.displayName): \(cause)") }
            if outcome.closeNotifyReceived || !server.isConnected {
                return finish("the client sent close_notify before a request")
            }
        }
        let requestText = String(decoding: request, as: UTF8.self)
        recorder.http(.requestReceived(requestText), by: .server)
        let response = ServerPage.response(facts)
        recorder.http(.responseSent(response), by: .server)
        do { send(try server.sendApplicationData(Array(response.utf8))) } catch {
            return finish("could not send the response: \(error)", request: requestText)
        }
        recorder.phase("closing: close_notify and close()")
        send(server.close())
        return finish(nil, request: requestText)
    }
}

/// The connections being served on worker threads, and those finished but not yet reported.
private final class ConnectionPool: @unchecked Sendable {
    private let lock = NSLock()
    private var running = 0
    private var done: [ServedConnection] = []

    var active: Int { lock.withLock { running } }
    var finishedCount: Int { lock.withLock { done.count } }
    func started() { lock.withLock { running += 1 } }
    func finished(_ connection: ServedConnection) { lock.withLock { running -= 1; done.append(connection) } }
    func takeFinished() -> [ServedConnection] { lock.withLock { defer { done = [] }; return done } }
}

/// SIGINT and SIGTERM set a flag that a serving loop reads (the handler does nothing else).
public enum StopSignal {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    /// Installs the handlers and unblocks both signals: a blocked mask is inherited across exec, and
    /// some launchers (test runners among them) start children with SIGINT and SIGTERM blocked.
    /// Call it on the main thread before starting others.
    public static func install() {
        signal(SIGINT) { _ in StopSignal.flag = 1 }
        signal(SIGTERM) { _ in StopSignal.flag = 1 }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    public static var requested: Bool { flag != 0 }
}
