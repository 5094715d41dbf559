import Foundation
import HTTP2
import Trace
import TLSEngine

/// Runs the simulation's client engines over a real TCP socket — ``TLSClient`` (TLS 1.2),
/// ``TLS13Client`` (TLS 1.3) or ``DualVersionClient`` (both offered), each through
/// ``TLSClientEndpoint`` — connect, handshake, one HTTP request, the response, close_notify and
/// close. Every wait is bounded.
public struct RealClient {
    public var host: String
    public var port: UInt16
    public var configuration: TLSClientConfiguration
    /// Sent once the handshake completes (nil: handshake only).
    public var request: String?
    /// HTTP/2: accept server push (SETTINGS_ENABLE_PUSH 1); the pushed responses are traced.
    public var acceptsPush = false
    /// HTTP/2 only: more requests sent with `request`, at once, each on its own stream (at most the
    /// server's SETTINGS_MAX_CONCURRENT_STREAMS open; a refused one is sent again).
    public var additionalRequests: [String] = []
    /// The longest wait for any one read (and for connect).
    public var timeoutMilliseconds: Int32
    /// The whole handshake must finish within this, however the server paces its bytes.
    public var handshakeTimeoutMilliseconds: Int32
    /// The whole response must arrive within this after the request is sent, however the server
    /// paces its bytes (one byte every few seconds holds no client forever).
    public var responseTimeoutMilliseconds: Int32 = 60_000
    /// The most response bytes read (HTTP/1.x: the response; HTTP/2: the decrypted frames); past it,
    /// reading stops and the exchange fails.
    public var maxResponseBytes = 16 << 20
    /// The clock the engine is handed (it reads none): when the handshake starts, a session whose
    /// ticket's ticket_lifetime_hint has passed is not offered; a ticket received is stamped with it
    /// (RFC 5077 §3.3). The system clock; tests inject their own.
    public var clock: @Sendable () -> SessionTime = { SessionTime(milliseconds: RealServer.clockReading()) }
    /// The versions the ClientHello offers (RFC 8446 §4.2.1). TLS 1.2 only unless set.
    public var versions: VersionOffer = .tls12
    /// A TLS 1.3 ticket from an earlier connection, offered in pre_shared_key (RFC 8446 §4.2.11), in
    /// the combined ClientHello too; offering 0-RTT data with it keeps the connection to TLS 1.3.
    public var tls13Ticket: TLS13StoredTicket?
    /// The TLS 1.3 suites offered, most preferred first (RFC 8446 §4.1.2, Appendix B.4).
    public var tls13Suites: [TLS13CipherSuite] = TLS13CipherSuite.allCases
    /// ``request`` goes as 0-RTT data when ``tls13Ticket`` allows it (RFC 8446 §2.3, §4.2.10), and
    /// again after the handshake when the server does not accept it.
    public var sendsRequestAsEarlyData = false
    /// Milliseconds since the epoch: when a ticket arrived, and so its age when offered (RFC 8446
    /// §4.2.11.1). The system clock; tests inject their own.
    public var millisecondClock: @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1_000) }

    /// Which protocol versions a client offers.
    public enum VersionOffer: Sendable, Hashable {
        /// TLS 1.2 (and what ``TLSClientConfiguration``'s range allows below it): ``TLSClient``.
        case tls12
        /// TLS 1.3 alone: ``TLS13Client``.
        case tls13
        /// Both in one ClientHello, as OpenSSL's client does: ``DualVersionClient``.
        case tls12AndTLS13
    }

    public init(host: String, port: UInt16, configuration: TLSClientConfiguration, request: String? = nil,
                timeoutMilliseconds: Int32 = 10_000, handshakeTimeoutMilliseconds: Int32 = 30_000) {
        self.host = host
        self.port = port
        self.configuration = configuration
        self.request = request
        self.timeoutMilliseconds = timeoutMilliseconds
        self.handshakeTimeoutMilliseconds = handshakeTimeoutMilliseconds
    }

    /// signature_algorithms in OpenSSL 3's order: ECDSA (P-256/SHA-256, P-384/SHA-384, P-521/SHA-512) and Ed25519 first, then RSA
    /// (RSA-PSS before PKCS#1 v1.5), so that a server signs as it does for OpenSSL clients. The engine's
    /// default offer is RSA only, PKCS#1 first.
    public static let openSSLSignatureOrder: [SignatureScheme] = [
        .ecdsaSECP256r1SHA256, .ecdsaSECP384r1SHA384, .ecdsaSECP521r1SHA512, .ed25519,
        .rsaPSSRSAESHA256, .rsaPSSRSAESHA384, .rsaPSSRSAESHA512,
        .rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512, .rsaPKCS1SHA1,
    ]

    /// How a connection went.
    public struct Result: Sendable {
        public var trace: Trace
        /// nil when the handshake completed (and the request, if any, was answered); else why not.
        public var failure: ExchangeFailure?
        /// The HTTP response bytes received, as text.
        public var response: String?
        public var version: ProtocolVersion?
        public var suite: CipherSuite?
        public var extendedMasterSecret = false
        /// The application protocol ALPN agreed on (RFC 7301), nil when none was negotiated.
        public var applicationProtocol: ProtocolName?
        public var keyLog: KeyLogEntry?
        /// The session this connection established or resumed (its ID, suite and master secret), for
        /// `TLSClientConfiguration.session` on a later connection; nil when the server gave no session ID.
        public var session: TLSSession?
        /// True when the server resumed the offered session (the abbreviated handshake, RFC 5246 §7.3)
        /// or accepted the offered TLS 1.3 PSK (RFC 8446 §2.2).
        public var resumed = false
        /// The TLS 1.3 tickets the server sent after the handshake (RFC 8446 §4.6.1), newest last.
        public var tls13Tickets: [TLS13StoredTicket] = []
        /// Tickets with ticket_lifetime 0, discarded at once and not in `tls13Tickets` (RFC 8446 §4.6.1).
        public var tls13TicketsDiscarded = 0
        /// 0-RTT data offered: whether the server accepted it (RFC 8446 §4.2.10); nil when none was sent.
        public var earlyDataAccepted: Bool?

        public var succeeded: Bool { failure == nil }
    }

    /// The TLS 1.3 engine's configuration, from what ``configuration`` says for both versions: the
    /// server name, the trust decision, the client certificate, ALPN; X25519's key share first.
    public var tls13Configuration: TLS13ClientConfiguration {
        var c = TLS13ClientConfiguration(serverName: configuration.serverName, evaluator: configuration.certificateEvaluator,
                                         groups: [.x25519, .secp256r1, .secp384r1, .secp521r1], keyShareGroups: [.x25519])
        c.suites = tls13Suites
        c.identity = configuration.identity
        c.applicationProtocols = configuration.applicationProtocols
        return c
    }

    /// The engine for ``versions``. Each version resumes only its own sessions (RFC 8446 §4.2.11,
    /// Appendix D): offering both, the ClientHello carries the TLS 1.3 ticket in pre_shared_key and
    /// the TLS 1.2 session by its ID and ticket, and the server's choice decides which one resumes.
    /// 0-RTT data keeps the client to TLS 1.3: a server answering TLS 1.2 would read the early
    /// records as its handshake. Made as the ClientHello leaves: a TLS 1.3 ticket's age is measured
    /// to then (RFC 8446 §4.2.11.1).
    func engine() -> any TLSClientEndpoint {
        var tls13 = tls13Configuration
        if let stored = tls13Ticket, versions != .tls12 {
            tls13.resumption = stored.ticket
            tls13.ticketAgeMilliseconds = stored.ageMilliseconds(at: millisecondClock())
            tls13.offersEarlyData = sendsRequestAsEarlyData && request != nil
        }
        switch versions {
        case .tls12: return TLSClient(configuration: configuration)
        case .tls13: return TLS13Client(configuration: tls13, random: configuration.random)
        case .tls12AndTLS13:
            if tls13.offersEarlyData { return TLS13Client(configuration: tls13, random: configuration.random) }
            return DualVersionClient(tls12: configuration, tls13: tls13)
        }
    }

    public func run() -> Result {
        var recorder = TraceRecorder()
        var tickets: [TLS13StoredTicket] = []
        var ticketsDiscarded = 0
        var earlyDataSent = false

        func finish(_ failure: ExchangeFailure?, _ recorder: TraceRecorder, _ client: any TLSClientEndpoint, response: [UInt8]? = nil) -> Result {
            var recorder = recorder
            if let failure { recorder.http(.failed(failure), by: .client) }
            var r = Result(trace: recorder.trace)
            r.failure = failure
            r.response = response.map { String(decoding: $0, as: UTF8.self) }
            r.version = client.negotiatedVersion
            r.suite = client.negotiatedCipherSuite
            r.extendedMasterSecret = client.usesExtendedMasterSecret
            r.applicationProtocol = client.negotiatedApplicationProtocol
            r.keyLog = recorder.keyLog
            r.session = client.session
            r.resumed = client.isResumed
            r.tls13Tickets = tickets
            r.tls13TicketsDiscarded = ticketsDiscarded
            r.earlyDataAccepted = earlyDataSent ? client.earlyDataAccepted : nil
            return r
        }

        recorder.phase(.tcpSocketLevel)
        let socket: TCPSocket
        do throws(SocketError) {
            socket = try TCPSocket.connect(host: host, port: port, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            recorder.socket(.connectFailed(host: host, port: port, error))
            return finish(.cannotConnect(host: host, port: port, error), recorder, engine())
        }
        defer { socket.close() }
        recorder.socket(.connected(local: socket.localAddress, remote: socket.remoteAddress))

        /// A TLS 1.3 ticket is kept with the time it arrived: its age is measured from then (RFC 8446 §4.2.11.1).
        func keepTickets(_ step: TLSStep) {
            // A ticket_lifetime of 0 means "discard at once" (RFC 8446 §4.6.1): never kept, never written.
            for case .tls13(.ticketDiscardedAtOnce) in step.events { ticketsDiscarded += 1 }
            for case .tls13(.newSessionTicketReceived(let ticket)) in step.events where ticket.message.lifetime > 0 {
                tickets.append(TLS13StoredTicket(ticket: ticket, receivedAtMilliseconds: millisecondClock()))
                // The newest few only, as the engine keeps them (its trace says when one is dropped).
                if tickets.count > TLS13Client.ticketsKept { tickets.removeFirst() }
            }
        }
        func send(_ step: TLSStep) -> Bool {
            keepTickets(step)
            recorder.record(step, by: .client)
            let bytes = step.output
            guard !bytes.isEmpty else { return true }
            do throws(SocketError) { try socket.write(bytes); recorder.wrote(bytes.count); return true } catch {
                recorder.socket(.writeFailed(bytes: bytes.count, error))
                return false
            }
        }
        func closeSocket() {
            socket.shutdownWrite()
            // Read what is left so that close() does not turn into a reset — bounded in time and bytes,
            // so a server that keeps sending cannot hold us.
            let drained = socket.drain(milliseconds: 1_000, maxBytes: 65_536)
            if drained.bytes > 0 { recorder.read(drained.bytes) }
            if drained.cutShort { recorder.socket(.stoppedDraining(peer: .server, bytes: drained.bytes)) }
            socket.close()
            recorder.socket(recorder.closed)
        }

        // The handshake. The engine is made now, as its ClientHello leaves: a TLS 1.3 ticket's age is
        // the time since its NewSessionTicket arrived until this ClientHello (RFC 8446 §4.2.11.1), the
        // TCP handshake's round trip included.
        recorder.phase(.tlsHandshake)
        var client = engine()
        guard send(client.start(at: clock())) else { return finish(.brokeSendingClientHello, recorder, client) }
        // 0-RTT (RFC 8446 §2.3): right behind the ClientHello, when the engine offered it.
        var request = request
        if let text = request, sendsRequestAsEarlyData, client.offersEarlyData {
            let step = client.sendAsEarlyData(Array(text.utf8))
            guard send(step) else { return finish(.brokeSendingClientHello, recorder, client) }
            // Nothing goes when the request is longer than the ticket's max_early_data_size (§4.6.1).
            earlyDataSent = !step.output.isEmpty
        }
        let deadline = Deadline(milliseconds: handshakeTimeoutMilliseconds)
        // The server's Finished and its close_notify can arrive in one read (a server that closes
        // right after the handshake): the handshake did complete, and that is not a failure of it.
        var closedRightAfterHandshake = false
        // Application data that arrives in the same read as the server's Finished (an HTTP/2
        // server's SETTINGS often does): kept for the protocol that follows.
        var early: [UInt8] = []
        while !client.isConnected {
            let bytes: [UInt8]
            do throws(SocketError) {
                bytes = try socket.read(before: deadline, perRead: timeoutMilliseconds)
            } catch {
                if deadline.hasPassed {
                    recorder.socket(.handshakeDeadlinePassed(milliseconds: Int(deadline.milliseconds)))
                    closeSocket()
                    return finish(.handshakeTimedOut(milliseconds: Int(deadline.milliseconds), state: client.handshakeState), recorder, client)
                }
                recorder.socket(.readFailed(error))
                closeSocket()
                return finish(.handshakeReadFailed(state: client.handshakeState, error), recorder, client)
            }
            if bytes.isEmpty {
                recorder.socket(.peerClosed(.server))
                closeSocket()
                return finish(.peerClosedDuringHandshake(.server, state: client.handshakeState), recorder, client)
            }
            recorder.read(bytes.count)
            let step = client.receive(bytes, at: clock())
            early += step.applicationData
            _ = send(step)
            if let alert = step.fatalAlertReceived {
                closeSocket()
                return finish(.fatalAlertReceived(from: .server, alert.alertDescription), recorder, client)
            }
            if let (alert, cause) = step.fatalAlertSent {
                closeSocket()
                return finish(.fatalAlertSent(by: .client, alert.alertDescription, cause), recorder, client)
            }
            if client.hasEnded {
                if step.handshakeCompleted && step.closeNotifyReceived {
                    closedRightAfterHandshake = true
                    break
                }
                closeSocket()
                return finish(.peerEndedHandshake(.server), recorder, client)
            }
        }

        // One HTTP request and its response.
        var response: [UInt8] = []
        var failure: ExchangeFailure?
        // The request went as 0-RTT data: accepted, it is sent; refused, it goes again now (RFC 8446 §4.2.10).
        let sentAsEarlyData = earlyDataSent && client.earlyDataAccepted == true
        if let text = request, client.negotiatedApplicationProtocol == ProtocolName.h2, !closedRightAfterHandshake {
            // RFC 7301 §3.2 and RFC 9113 §3.2: the connection now speaks HTTP/2.
            recorder.phase(.http2(.h2, allRequestsAtOnce: false))
            var configuration = HTTP2Connection.Configuration()
            configuration.enablePush = acceptsPush
            // RFC 9113 §9.2: a TLS connection HTTP/2 may not use ends with INADEQUATE_SECURITY.
            configuration.inadequateSecurity = HTTP2OverTLS.inadequateSecurity(version: client.negotiatedVersion, suite: client.negotiatedCipherSuite)
            let requests = ([text] + additionalRequests).map {
                HTTP2Connection.Request(fields: HTTP2Message.requestFields($0, scheme: "https"), body: HTTP2Message.requestBody($0))
            }
            var connection = HTTP2Connection(client: configuration, requests: requests)
            func deliver(_ out: HTTP2Connection.Output) {
                let why = recorder.perform(out, by: .client, socket: socket) { (bytes) throws(TLSError) -> TLSStep? in
                    // The server's close_notify may come with its last frames: ours (an ACK, GOAWAY) have no one to go to.
                    failure == nil && client.isConnected ? try client.sendApplicationData(bytes) : nil
                }
                if let why { failure = failure ?? why }
            }
            deliver(connection.start())
            if !early.isEmpty { deliver(connection.receive(early)) }
            // The responses are bounded in time and size, as over HTTP/1.x: the decrypted bytes count.
            let responseDeadline = Deadline(milliseconds: responseTimeoutMilliseconds)
            var received = early.count
            while failure == nil, !connection.isExchangeComplete, client.isConnected {
                if received > maxResponseBytes {
                    recorder.socket(.responseLimitReached(bytes: maxResponseBytes))
                    failure = .responseTooLarge(limit: maxResponseBytes)
                    break
                }
                let bytes: [UInt8]
                do throws(SocketError) { bytes = try socket.read(before: responseDeadline, perRead: timeoutMilliseconds) } catch {
                    if responseDeadline.hasPassed {
                        recorder.socket(.responseDeadlinePassed(milliseconds: Int(responseDeadline.milliseconds)))
                        failure = .responseTimedOut(milliseconds: Int(responseDeadline.milliseconds), bytes: received)
                    } else {
                        recorder.socket(.readFailed(error))
                        failure = .nothingReceived(.response, http2: true, error)
                    }
                    break
                }
                if bytes.isEmpty { recorder.socket(.peerClosed(.server)); break }
                recorder.read(bytes.count)
                let step = client.receive(bytes, at: clock())
                // In the trace, the frames sit right after the records that carried them, before a
                // close_notify that came in the same read.
                keepTickets(step)
                let split = (step.events.lastIndex { if case .applicationDataReceived = $0 { true } else { false } } ?? -1) + 1
                recorder.record(step.events[..<split], by: .client)
                received += step.applicationData.count
                if !step.applicationData.isEmpty { deliver(connection.receive(step.applicationData)) }
                recorder.record(step.events[split...], by: .client)
                if !step.output.isEmpty {
                    do throws(SocketError) { try socket.write(step.output); recorder.wrote(step.output.count) } catch {
                        recorder.socket(.writeFailed(bytes: step.output.count, error))
                    }
                }
                if let alert = step.fatalAlertReceived { failure = .fatalAlertReceived(from: .server, alert.alertDescription) }
                if let (alert, cause) = step.fatalAlertSent { failure = .fatalAlertSent(by: .client, alert.alertDescription, cause) }
            }
            // Done: GOAWAY NO_ERROR naming the last pushed stream processed (RFC 9113 §6.8).
            if connection.isExchangeComplete { deliver(connection.goAway()) }
            let ownResponse = connection.responses.first { $0.stream % 2 == 1 }
            if let code = connection.error {
                failure = failure ?? .http2OwnGoAway(by: .client, code, reason: connection.errorReason?.wireText ?? code.name)
            } else if let (last, code, debug) = connection.peerGoaway, code != HTTP2ErrorCode.noError.rawValue || ownResponse == nil {
                failure = failure ?? .http2PeerGoAway(.server, code: code, lastStream: last, debug: debug)
            } else if let (_, code) = connection.streamsReset.min(by: { $0.key < $1.key }) {
                failure = failure ?? .http2StreamReset(code)
            } else if let ownResponse {
                response = Array(HTTP2Message.text(ownResponse.fields, body: ownResponse.body).utf8)
                let answered = connection.responses.filter { $0.stream % 2 == 1 }.count
                if answered < requests.count { failure = failure ?? .http2PartlyAnswered(answered: answered, requests: requests.count) }
            } else {
                failure = failure ?? .http2ResponseIncomplete
            }
            recorder.phase(.closing(.closeNotifyAndSocketClose))
            _ = send(client.sendCloseNotify())
            closeSocket()
            return finish(failure, recorder, client, response: response)
        }
        if request != nil, let chosen = client.negotiatedApplicationProtocol, !chosen.isHTTP1 {
            // RFC 7301 §3.2: the connection now speaks the chosen protocol; this client speaks only
            // HTTP/1.x and h2, so it sends no request rather than the wrong protocol.
            recorder.phase(.unspokenApplicationProtocol(chosen.description, by: .client))
            request = nil
        }
        if closedRightAfterHandshake, request != nil {
            failure = .closeNotifyBeforeRequest(from: .server)
            request = nil
        }
        if let request {
            recorder.phase(.http(overTLS: true))
            recorder.http(.requestSent(request), by: .client)
            do throws(TLSError) {
                if !sentAsEarlyData { _ = send(try client.sendApplicationData(Array(request.utf8))) }
            } catch {
                failure = .couldNotSend(.request, error)
            }
            var reader = HTTP1ResponseReader(headRequest: request.hasPrefix("HEAD "))
            reader.append(early)
            let deadline = Deadline(milliseconds: responseTimeoutMilliseconds)
            var closeNotify = false
            while failure == nil, client.isConnected, !reader.isComplete, reader.count <= maxResponseBytes {
                let bytes: [UInt8]
                do throws(SocketError) { bytes = try socket.read(before: deadline, perRead: timeoutMilliseconds) } catch {
                    if deadline.hasPassed {
                        recorder.socket(.responseDeadlinePassed(milliseconds: Int(deadline.milliseconds)))
                        failure = .responseTimedOut(milliseconds: Int(deadline.milliseconds), bytes: reader.count)
                    } else {
                        recorder.socket(.readFailed(error))
                        if reader.count == 0 { failure = .nothingReceived(.response, http2: false, error) }
                    }
                    break
                }
                if bytes.isEmpty { recorder.socket(.peerClosed(.server)); break }
                recorder.read(bytes.count)
                let step = client.receive(bytes, at: clock())
                reader.append(step.applicationData)
                closeNotify = closeNotify || step.closeNotifyReceived
                _ = send(step)
                if let alert = step.fatalAlertReceived { failure = .fatalAlertReceived(from: .server, alert.alertDescription) }
                if let (alert, cause) = step.fatalAlertSent { failure = .fatalAlertSent(by: .client, alert.alertDescription, cause) }
            }
            if failure == nil, reader.count > maxResponseBytes, !reader.isComplete {
                recorder.socket(.responseLimitReached(bytes: maxResponseBytes))
                failure = .responseTooLarge(limit: maxResponseBytes)
            }
            if failure == nil, reader.count == 0 { failure = .peerClosedBeforeMessage(.server, .response, started: false) }
            // RFC 9112 §8: a response cut short of its framing is incomplete; one that runs to the end of
            // the connection is whole only when that end is close_notify (RFC 5246 §7.2.1).
            if failure == nil, !reader.isComplete, let cut = reader.truncation(closeNotify: closeNotify) {
                failure = .responseTruncated(cut)
            }
            // At most the limit is kept (one read may have brought up to 64 KiB more).
            response = reader.count > maxResponseBytes ? Array(reader.bytes.prefix(maxResponseBytes)) : reader.bytes
            recorder.http(.responseReceived(String(decoding: response, as: UTF8.self)), by: .client)
        }
        recorder.phase(.closing(.closeNotifyAndSocketClose))
        _ = send(client.sendCloseNotify())
        closeSocket()
        return finish(failure, recorder, client, response: request == nil ? nil : response)
    }
}

extension ProtocolName {
    /// HTTP/1.1 or HTTP/1.0 (the ALPN IDs `http/1.1`, `http/1.0`): what the real peers speak.
    public var isHTTP1: Bool { self == .http11 || self == "http/1.0" }
}
