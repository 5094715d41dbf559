import Foundation
import PKI
import HTTP2
import Trace
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
    /// The application protocol ALPN agreed on (RFC 7301), nil when none was negotiated.
    public var applicationProtocol: ProtocolName?
    public var serverName: String?
    /// The subject of the client's certificate (mutual TLS), when one was sent.
    public var clientCertificateSubject: String?
    /// Why this version (RFC 8446 §4.2.1), as the server's engine recorded it.
    public var versionReason: VersionChoice.Reason?
    /// The (EC)DHE group by its protocol name, nil without one.
    public var group: String?
    /// A PSK resumption (TLS 1.3) or a resumed session (TLS 1.2).
    public var resumed = false
    /// 0-RTT data was accepted (TLS 1.3).
    public var earlyDataAccepted = false

    /// What the engine negotiated, read through the surface both versions share.
    mutating func learn(from server: some TLSServerEndpoint) {
        version = server.negotiatedVersion
        suite = server.negotiatedCipherSuite
        extendedMasterSecret = server.usesExtendedMasterSecret
        applicationProtocol = server.negotiatedApplicationProtocol
        serverName = server.requestedServerName
        group = server.negotiatedGroupName
        resumed = server.isResumed
        earlyDataAccepted = server.acceptedEarlyData
    }

    /// The facts as the log line and the page word them (``ServeLogEntry``).
    public func entry(failure: ExchangeFailure? = nil, requestLine: String? = nil, statuses: [String] = []) -> ServeLogEntry {
        var entry = ServeLogEntry(peer: peer, failure: failure, version: version.map { "\($0)" },
                                  suite: suite.map(\.nameOrHex),
                                  extendedMasterSecret: extendedMasterSecret,
                                  applicationProtocol: applicationProtocol.map { "\($0)" },
                                  clientSubject: clientCertificateSubject, requestLine: requestLine, statuses: statuses)
        entry.versionReason = versionReason
        entry.group = group
        entry.resumed = resumed
        entry.earlyDataAccepted = earlyDataAccepted
        entry.serverName = serverName
        return entry
    }
}

/// One connection the server handled.
public struct ServedConnection: Sendable {
    public var trace: Trace
    public var facts: ConnectionFacts
    /// nil when the handshake completed and the request was answered; else why not.
    public var failure: ExchangeFailure?
    /// The HTTP request received (first line and headers), if any.
    public var request: String?
    /// The status of each response sent, in order (HTTP/2: each stream's :status, 413 and 431
    /// included, RFC 9113 §8.3.2; HTTP/1.x: the page's 200).
    public var responseStatuses: [String] = []
    public var keyLog: KeyLogEntry?

    /// What the server's log says of this connection, as facts (``ServeLogEntry``); the catalogue
    /// words it (`Explanations.serveLogLine`), escaping what the client controls.
    public var logEntry: ServeLogEntry {
        // The statuses actually sent, each once, in order: 200, or 413/431 for a refused HTTP/2 stream.
        var seen = Set<String>()
        let statuses = responseStatuses.filter { seen.insert($0).inserted }
        let first = request.map { HTTP1Request.requestLine(Array($0.utf8)) }.map { String(decoding: $0, as: UTF8.self) }
        return facts.entry(failure: failure, requestLine: first, statuses: statuses)
    }
}

/// The page `tlslab serve` answers every request with, framed as HTTP/1.1 or HTTP/2; its words are
/// the caller's (``RealServer/page``, the catalogue's `servePage`).
public enum ServerPage {
    /// The page as an HTTP/2 response: :status, then the fields (RFC 9113 §8.3.2).
    public static func http2Response(_ body: String) -> (fields: [HPACKHeaderField], body: [UInt8]) {
        let body = Array(body.utf8)
        return ([HPACKHeaderField(":status", "200"), HPACKHeaderField("content-type", "text/plain; charset=utf-8"),
                 HPACKHeaderField("content-length", "\(body.count)")], body)
    }

    public static func response(_ body: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
    }
}

/// Runs ``DualVersionServer`` — the simulation's server, TLS 1.3 and 1.2 on one port — on accepted
/// sockets, each on its own thread, through the surface both versions share (``TLSServerEndpoint``).
/// Bad input ends only that connection (with the engine's alert, then close).
public final class RealServer: @unchecked Sendable {
    public let listener: TCPListener
    /// A fresh configuration per connection (its random source, evaluator).
    public let makeConfiguration: @Sendable () -> TLSServerConfiguration
    /// The TLS 1.3 configuration of each connection; nil (the default): a TLS 1.2 server, which
    /// writes no downgrade sentinel (RFC 8446 §4.1.3).
    public var makeTLS13Configuration: (@Sendable () -> TLS13ServerConfiguration)?
    /// The page's words for this connection's facts (`Explanations.servePage` in the user's language).
    public let page: @Sendable (ServeLogEntry) -> String
    /// The longest wait for any one read; a client silent that long is closed.
    public var timeoutMilliseconds: Int32
    /// The whole handshake must finish within this, however the client paces its bytes.
    public var handshakeTimeoutMilliseconds: Int32
    /// After the handshake, the whole HTTP request (up to its blank line) must arrive within this.
    public var requestTimeoutMilliseconds: Int32
    /// The longest request head accepted; a longer one is answered 431 and closed.
    public var maxRequestBytes = 16_384
    /// HTTP/2: the most streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS,
    /// announced and enforced: a stream beyond it is refused with REFUSED_STREAM).
    public var http2MaxConcurrentStreams = HTTP2Defaults.maxConcurrentStreams
    /// HTTP/2: the largest request body accepted; a larger one is answered 413.
    public var http2MaxBodyBytes = 1 << 20
    /// HTTP/2: paths pushed (PUSH_PROMISE) with the response to the first request, when the client allows push.
    public var http2Push: [String] = []
    /// Bounds on reading what a client still sends after we are done (see ``TCPSocket/drain(milliseconds:maxBytes:)``).
    public var drainMilliseconds: Int32 = 1_000
    public var drainBytes = 65_536
    /// false (`serve --log-only`): keep no trace events at all; the log line and key log still work.
    public var keepsTrace = true
    /// How much of each connection's trace is kept (memory stays bounded for any connection length).
    public var traceLimits = TraceLimits()
    /// Connections open at once (each on its own thread, waiting for its client without a work
    /// permit); beyond it, new clients wait in the listen backlog until one closes.
    public var maxOpenConnections = 1_024
    /// The stack reserved for each connection's thread (only the pages touched become resident).
    public var connectionStackBytes = 8 << 20

    public init(listener: TCPListener, timeoutMilliseconds: Int32 = 10_000, handshakeTimeoutMilliseconds: Int32 = 30_000,
                requestTimeoutMilliseconds: Int32 = 30_000, page: @escaping @Sendable (ServeLogEntry) -> String,
                makeConfiguration: @escaping @Sendable () -> TLSServerConfiguration) {
        self.listener = listener
        self.page = page
        self.timeoutMilliseconds = timeoutMilliseconds
        self.handshakeTimeoutMilliseconds = handshakeTimeoutMilliseconds
        self.requestTimeoutMilliseconds = requestTimeoutMilliseconds
        self.makeConfiguration = makeConfiguration
    }

    /// The system clock now, in milliseconds since the Unix epoch: the server engines' one clock
    /// input (TLS 1.3's freshness check and ticket creation_time read it as it is; sessions and
    /// tickets are stamped with, and their lifetimes measured in, its whole seconds).
    static func clockReading() -> UInt64 {
        UInt64(clamping: Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down)))
    }

    /// The answer to a request head longer than ``maxRequestBytes`` (RFC 6585 §5).
    static let requestTooLarge = "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

    public var port: UInt16 { listener.port }

    /// Accepts and serves until `maxConnections` were accepted or `shouldStop` says so (checked at
    /// least every 200 ms). Every connection is served on its own thread, so a client that sends
    /// nothing (or drips bytes) holds up no other: while it waits for its client a connection holds
    /// no work permit, and at most `concurrency` connections do work (engine steps, writes) at once.
    /// Up to ``maxOpenConnections`` are open at once; further clients wait in the listen backlog.
    /// `onConnection` is called on the calling thread, one connection at a time, as each finishes.
    /// Connections under way when it stops are finished (each is bounded by its deadlines).
    /// Returns the number served.
    @discardableResult
    public func run(maxConnections: Int? = nil, concurrency: Int = 1, shouldStop: () -> Bool = { false },
                    onConnection: (ServedConnection) -> Void) throws(SocketError) -> Int {
        let pool = ConnectionPool()
        let permits = WorkPermits(max(1, concurrency))
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
            guard pool.active < maxOpenConnections else { usleep(5_000); continue }
            guard let socket = try listener.accept(timeoutMilliseconds: pool.active == 0 ? 200 : 20) else { continue }
            accepted += 1
            pool.started()
            let thread = Thread { [self] in pool.finished(self.serve(socket, permits: permits)) }
            thread.stackSize = connectionStackBytes
            thread.start()
        }
        return delivered
    }

    /// Serves one accepted connection to the end and closes it. With `permits`, the connection does
    /// its work holding one and gives it back while it waits for its client.
    public func serve(_ socket: TCPSocket, permits: WorkPermits? = nil) -> ServedConnection {
        permits?.acquire()
        var holdsPermit = permits != nil
        func release() { if holdsPermit { permits?.release(); holdsPermit = false } }
        defer { release() }
        /// One read of the client's bytes, before `deadline`, without holding a work permit.
        func readClient(before deadline: Deadline, perRead: Int32) throws(SocketError) -> [UInt8] {
            release()
            defer { if let permits { permits.acquire(); holdsPermit = true } }
            return try socket.read(before: deadline, perRead: perRead)
        }
        // A client that never reads cannot hold a thread (and a permit) in write(2): each send waits
        // at most the read timeout.
        socket.setSendTimeout(milliseconds: timeoutMilliseconds)
        var recorder = TraceRecorder(keepsEvents: keepsTrace, limits: traceLimits)
        var configuration = DualVersionServerConfiguration(tls12: makeConfiguration(), tls13: makeTLS13Configuration?())
        // This server speaks HTTP/2: RFC 9113 §9.2.2's rule decides whether ALPN may choose h2.
        configuration.tls12.applicationProtocolStrategy = HTTP2OverTLS.applicationProtocolStrategy
        configuration.tls13?.applicationProtocolStrategy = HTTP2OverTLS.applicationProtocolStrategy
        var server = DualVersionServer(configuration: configuration)
        var facts = ConnectionFacts(peer: socket.remoteAddress)
        let timeout = timeoutMilliseconds

        recorder.phase(.tcpSocketLevel)
        recorder.socket(.accepted(remote: socket.remoteAddress, local: socket.localAddress))

        func send(_ step: TLSStep) {
            recorder.record(step, by: .server)
            let bytes = step.output
            guard !bytes.isEmpty else { return }
            do throws(SocketError) { try socket.write(bytes); recorder.wrote(bytes.count) } catch {
                recorder.socket(.writeFailed(bytes: bytes.count, error))
            }
        }
        var statuses: [String] = []
        func finish(_ failure: ExchangeFailure?, request: String? = nil) -> ServedConnection {
            if let failure { recorder.http(.failed(failure), by: .server) }
            socket.shutdownWrite()
            release()  // the drain below only waits
            // Drain briefly: closing with unread bytes would reset the connection and could destroy
            // the alert or the answer just written. Bounded in time and bytes.
            let drained = socket.drain(milliseconds: drainMilliseconds, maxBytes: drainBytes)
            if drained.bytes > 0 { recorder.read(drained.bytes) }
            var failure = failure
            if drained.cutShort {
                recorder.socket(.stoppedDraining(peer: .client, bytes: drained.bytes))
                failure = failure.map { .drainStopped($0, bytes: drained.bytes) }
            }
            socket.close()
            recorder.socket(recorder.closed)
            facts.learn(from: server)
            facts.versionReason = server.versionChoice?.reason
            return ServedConnection(trace: recorder.trace, facts: facts, failure: failure, request: request,
                                    responseStatuses: statuses, keyLog: recorder.keyLog)
        }

        recorder.phase(.tlsHandshake)
        let handshakeDeadline = Deadline(milliseconds: handshakeTimeoutMilliseconds)
        // Application data in the same read as the client's last handshake flight: kept for what follows.
        var early: [UInt8] = []
        while !server.isConnected {
            let bytes: [UInt8]
            do throws(SocketError) {
                bytes = try readClient(before: handshakeDeadline, perRead: timeout)
            } catch {
                // Giving up mid-handshake is no protocol failure: the engine sends user_canceled, then
                // close_notify (RFC 5246 §7.2.2, §7.2.1), in the clear before our ChangeCipherSpec.
                let state = server.handshakeState  // before cancel() closes it
                if handshakeDeadline.hasPassed {
                    recorder.socket(.handshakeDeadlinePassed(milliseconds: Int(handshakeDeadline.milliseconds)))
                    recorder.phase(.closing(.userCanceledThenCloseNotify))
                    send(server.cancel())
                    return finish(.handshakeTimedOut(milliseconds: Int(handshakeDeadline.milliseconds), state: state))
                }
                recorder.socket(.readFailed(error))
                recorder.phase(.closing(.userCanceledThenCloseNotify))
                send(server.cancel())
                return finish(.handshakeReadFailed(state: state, error))
            }
            if bytes.isEmpty {
                recorder.socket(.peerClosed(.client))
                return finish(.peerClosedDuringHandshake(.client, state: server.handshakeState))
            }
            recorder.read(bytes.count)
            // The engine reads no clock: session and ticket lifetimes are measured against this reading.
            let step = server.receive(bytes, atMilliseconds: Self.clockReading())
            early += step.applicationData
            send(step)
            if let alert = step.fatalAlertReceived {
                return finish(.fatalAlertReceived(from: .client, alert.alertDescription))
            }
            if let alert = step.errorAlertReceived { return finish(.errorAlertReceived(from: .client, alert.alertDescription)) }
            if let (alert, cause) = step.fatalAlertSent {
                return finish(.fatalAlertSent(by: .server, alert.alertDescription, cause))
            }
            if server.stateName == .closed || server.stateName == .failed {
                // The client's Finished and its close_notify in one read (a resumed handshake's last
                // flight, then a client that closes at once): the handshake did complete.
                if step.handshakeCompleted && step.closeNotifyReceived {
                    return finish(early.isEmpty ? .closeNotifyBeforeRequest(from: .client) : .closeNotifyMidConnection(from: .client))
                }
                return finish(.peerEndedHandshake(.client))
            }
        }
        facts.learn(from: server)
        facts.versionReason = server.versionChoice?.reason
        if let leaf = server.peerCertificateChain.first {
            facts.clientCertificateSubject = (try? X509Certificate(der: leaf)).map { "\($0.subject)" } ?? "(unparsable certificate)"
        }

        /// HTTP/2 over this TLS connection (ALPN chose h2): an ``HTTP2Connection`` reads the client's
        /// preface and frames from the decrypted application data and answers the requests of its first
        /// flight with the page; then GOAWAY, close_notify and close. A TLS 1.2 suite HTTP/2 prohibits
        /// gets GOAWAY INADEQUATE_SECURITY right after the preface (RFC 9113 §9.2.2).
        func serveHTTP2() -> ServedConnection {
            let page = ServerPage.http2Response(self.page(facts.entry()))
            var configuration = HTTP2Connection.Configuration()
            configuration.inadequateSecurity = HTTP2OverTLS.inadequateSecurity(version: facts.version, suite: facts.suite)
            configuration.maxHeaderListSize = maxRequestBytes
            configuration.maxBodySize = http2MaxBodyBytes
            configuration.maxConcurrentStreams = http2MaxConcurrentStreams
            configuration.pushPaths = http2Push
            configuration.goAwayWhenAnswered = true
            configuration.respond = { _, _ in page }
            var connection = HTTP2Connection(server: configuration)
            recorder.phase(.http2(.h2, allRequestsAtOnce: false))
            recorder.http2(.chosen(.h2), by: .server)
            var request: String?
            let deadline = Deadline(milliseconds: requestTimeoutMilliseconds)
            /// The client's HTTP/2 bytes into the connection; its answer out. A failure to send ends the connection.
            func process(_ data: [UInt8]) -> ExchangeFailure? {
                guard !data.isEmpty else { return nil }
                let out = connection.receive(data)
                for case .requestReceived(let text) in out.messages { request = request ?? Self.requestLine(text) + text }
                for case .responseSent(let text) in out.messages { statuses.append(Self.status(text)) }
                return recorder.perform(out, by: .server, socket: socket) { (bytes) throws(TLSError) -> TLSStep? in
                    server.isConnected ? try server.sendApplicationData(bytes) : nil
                }
            }
            /// An idle or slow client: GOAWAY (RFC 9113 §6.8), then close_notify (RFC 5246 §7.2.1).
            func closeIdle(_ why: ExchangeFailure) -> ServedConnection {
                recorder.phase(.closing(.idleGoAway))
                _ = recorder.perform(connection.goAway(), by: .server, socket: socket) { (bytes) throws(TLSError) -> TLSStep? in
                    server.isConnected ? try server.sendApplicationData(bytes) : nil
                }
                send(server.close())
                return finish(why, request: request)
            }
            if let why = process(early) { return finish(why, request: request) }
            while !connection.isClosed {
                let bytes: [UInt8]
                do throws(SocketError) {
                    bytes = try readClient(before: deadline, perRead: timeoutMilliseconds)
                } catch {
                    if deadline.hasPassed {
                        recorder.socket(.requestDeadlinePassed(milliseconds: Int(deadline.milliseconds)))
                        return closeIdle(.requestTimedOut(milliseconds: Int(deadline.milliseconds), http2: true))
                    }
                    recorder.socket(.readFailed(error))
                    return closeIdle(.nothingReceived(.request, http2: true, error))
                }
                if bytes.isEmpty {
                    recorder.socket(.peerClosed(.client))
                    return finish(request == nil ? .peerClosedBeforeMessage(.client, .request, started: false) : .peerClosedMidConnection(.client), request: request)
                }
                recorder.read(bytes.count)
                let step = server.receive(bytes)
                // The frames sit in the trace right after the records that carried them, before a
                // close_notify or alert that came in the same read.
                let split = (step.events.lastIndex { if case .applicationDataReceived = $0 { true } else { false } } ?? -1) + 1
                recorder.record(step.events[..<split], by: .server)
                let sendFailure = process(step.applicationData)
                recorder.record(step.events[split...], by: .server)
                if !step.output.isEmpty {
                    do throws(SocketError) { try socket.write(step.output); recorder.wrote(step.output.count) } catch {
                        recorder.socket(.writeFailed(bytes: step.output.count, error))
                    }
                }
                if let why = sendFailure { return finish(why, request: request) }
                if let alert = step.fatalAlertReceived { return finish(.fatalAlertReceived(from: .client, alert.alertDescription), request: request) }
                if let alert = step.errorAlertReceived { return finish(.errorAlertReceived(from: .client, alert.alertDescription), request: request) }
                if let (alert, cause) = step.fatalAlertSent { return finish(.fatalAlertSent(by: .server, alert.alertDescription, cause), request: request) }
                if connection.isClosed { break }
                if step.closeNotifyReceived || !server.isConnected {
                    return finish(request == nil ? .closeNotifyBeforeRequest(from: .client) : .closeNotifyMidConnection(from: .client), request: request)
                }
            }
            recorder.phase(.closing(.goAwayThenCloseNotify))
            send(server.close())
            if let code = connection.error {
                return finish(.http2OwnGoAway(by: .server, code, reason: connection.errorReason?.wireText ?? code.name), request: request)
            }
            return finish(nil, request: request)
        }
        if facts.applicationProtocol == ProtocolName.h2 { return serveHTTP2() }
        // RFC 7301 §3.2: "The server SHALL NOT respond with a selected protocol and subsequently use a
        // different protocol for application data exchange." The page is HTTP/1.x or HTTP/2, so a
        // connection that chose another protocol ends after the handshake with close_notify.
        if let chosen = facts.applicationProtocol, !chosen.isHTTP1 {
            recorder.phase(.unspokenApplicationProtocol(chosen.description, by: .server))
            send(server.close())
            return finish(.unspokenProtocol(chosen.description))
        }

        // Wait for one HTTP request, answer it with the page.
        var request: [UInt8] = early
        var scanned = 0  // the head's end is searched for only in bytes not yet looked at
        recorder.phase(.http(overTLS: true))
        let requestDeadline = Deadline(milliseconds: requestTimeoutMilliseconds)
        var headEnd = 0
        while true {
            if let end = HTTP1Request.headEnd(in: request, from: scanned) {
                headEnd = end
                if end <= maxRequestBytes { break }
            }
            scanned = request.count
            if request.count > maxRequestBytes {
                let text = String(decoding: request.prefix(200), as: UTF8.self)
                recorder.http(.requestReceived(text), by: .server)
                recorder.http(.responseSent(Self.requestTooLarge), by: .server)
                if let step = try? server.sendApplicationData(Array(Self.requestTooLarge.utf8)) { send(step) }
                send(server.close())
                return finish(.requestHeadTooLong(limit: maxRequestBytes))
            }
            let bytes: [UInt8]
            do throws(SocketError) {
                bytes = try readClient(before: requestDeadline, perRead: timeout)
            } catch {
                // RFC 5246 §7.2.1: the server closes the TLS connection properly (close_notify) before TCP.
                if requestDeadline.hasPassed {
                    recorder.socket(.requestDeadlinePassed(milliseconds: Int(requestDeadline.milliseconds)))
                    recorder.phase(.closing(.closeNotifyAndSocketClose))
                    send(server.close())
                    return finish(.requestTimedOut(milliseconds: Int(requestDeadline.milliseconds), http2: false))
                }
                recorder.socket(.readFailed(error))
                recorder.phase(.closing(.closeNotifyAndSocketClose))
                send(server.close())
                return finish(.nothingReceived(.request, http2: false, error))
            }
            if bytes.isEmpty {
                recorder.socket(.peerClosed(.client))
                return finish(.peerClosedBeforeMessage(.client, .request, started: !request.isEmpty))
            }
            recorder.read(bytes.count)
            let step = server.receive(bytes)
            request += step.applicationData
            send(step)
            if let alert = step.fatalAlertReceived { return finish(.fatalAlertReceived(from: .client, alert.alertDescription)) }
            if let alert = step.errorAlertReceived { return finish(.errorAlertReceived(from: .client, alert.alertDescription)) }
            if let (alert, cause) = step.fatalAlertSent { return finish(.fatalAlertSent(by: .server, alert.alertDescription, cause)) }
            if step.closeNotifyReceived || !server.isConnected {
                return finish(.closeNotifyBeforeRequest(from: .client))
            }
        }
        let requestText = String(decoding: request, as: UTF8.self)
        recorder.http(.requestReceived(requestText), by: .server)
        let verdict = HTTP1Request.check(requestLine: HTTP1Request.requestLine(Array(request.prefix(headEnd))))
        if verdict != .ok {
            let (status, code, why): (String, Int, HTTPRequestLineFault)
            switch verdict {
            case .badRequest(let w): (status, code, why) = ("400 Bad Request", 400, w)
            case .versionNotSupported(let w): (status, code, why) = ("505 HTTP Version Not Supported", 505, w)
            case .ok: return finish(nil, request: requestText)  // not reached: checked above
            }
            let answer = HTTP1Request.response(status: status)
            recorder.http(.responseSent(answer), by: .server)
            if let step = try? server.sendApplicationData(Array(answer.utf8)) { send(step) }
            recorder.phase(.closing(.closeNotifyAndSocketClose))
            send(server.close())
            let line = TerminalText.escaped(bytes: HTTP1Request.requestLine(request).prefix(200))
            return finish(.requestLineRefused(status: code, line: line, why), request: requestText)
        }
        let response = ServerPage.response(page(facts.entry()))
        recorder.http(.responseSent(response), by: .server)
        do throws(TLSError) { send(try server.sendApplicationData(Array(response.utf8))) } catch {
            return finish(.couldNotSend(.response, error), request: requestText)
        }
        statuses.append("200")
        recorder.phase(.closing(.closeNotifyAndSocketClose))
        send(server.close())
        return finish(nil, request: requestText)
    }
}

extension RealServer {
    /// "GET /path HTTP/2" from an HTTP/2 request's pseudo-header fields, for the log line.
    static func requestLine(_ text: String) -> String {
        var method = "?", path = "?"
        for line in text.split(separator: "\r\n") {
            if line.hasPrefix(":method: ") { method = String(line.dropFirst(9)) }
            if line.hasPrefix(":path: ") { path = String(line.dropFirst(7)) }
        }
        return "\(method) \(path) HTTP/2\r\n"
    }

    /// The :status of an HTTP/2 response as the connection reports it (``HTTP2Message/text(_:body:)``).
    static func status(_ text: String) -> String {
        for line in text.split(separator: "\r\n") where line.hasPrefix(":status: ") { return String(line.dropFirst(9)) }
        return "?"
    }
}

/// How many connections may do work (engine steps, writes) at once: `serve --concurrent N`. A
/// connection waiting for its client gives its permit back, so idle clients hold up nobody.
public final class WorkPermits: @unchecked Sendable {
    private let semaphore: DispatchSemaphore

    public init(_ count: Int) { semaphore = DispatchSemaphore(value: count) }

    public func acquire() { semaphore.wait() }
    public func release() { semaphore.signal() }
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
