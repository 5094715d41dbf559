import Foundation
import HTTP2
import Trace
import TLSEngine

/// Runs ``TLSClient`` — the simulation's client state machine — over a real TCP socket: connect,
/// handshake, one HTTP request, the response, close_notify and close. Every wait is bounded.
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
    public var clock: @Sendable () -> SessionTime = { RealServer.clockReading() }

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
        /// True when the server resumed the offered session (the abbreviated handshake, RFC 5246 §7.3).
        public var resumed = false

        public var succeeded: Bool { failure == nil }
    }

    public func run() -> Result {
        var recorder = TraceRecorder()
        var client = TLSClient(configuration: configuration)

        func finish(_ failure: ExchangeFailure?, _ recorder: TraceRecorder, _ client: TLSClient, response: [UInt8]? = nil) -> Result {
            var recorder = recorder
            if let failure { recorder.http(.failed(failure), by: .client) }
            var r = Result(trace: recorder.trace)
            r.failure = failure
            r.response = response.map { String(decoding: $0, as: UTF8.self) }
            r.version = client.negotiatedVersion
            r.suite = client.negotiatedSuite
            r.extendedMasterSecret = client.usesExtendedMasterSecret
            r.applicationProtocol = client.negotiatedApplicationProtocol
            r.keyLog = recorder.keyLog
            r.session = client.session
            r.resumed = client.isResumed
            return r
        }

        recorder.phase(.tcpSocketLevel)
        let socket: TCPSocket
        do throws(SocketError) {
            socket = try TCPSocket.connect(host: host, port: port, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            recorder.socket(.connectFailed(host: host, port: port, error))
            return finish(.cannotConnect(host: host, port: port, error), recorder, client)
        }
        defer { socket.close() }
        recorder.socket(.connected(local: socket.localAddress, remote: socket.remoteAddress))

        func send(_ step: TLSStep) -> Bool {
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

        // The handshake.
        recorder.phase(.tlsHandshake)
        guard send(client.start(at: clock())) else { return finish(.brokeSendingClientHello, recorder, client) }
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
                    return finish(.handshakeTimedOut(milliseconds: Int(deadline.milliseconds), state: client.stateName), recorder, client)
                }
                recorder.socket(.readFailed(error))
                closeSocket()
                return finish(.handshakeReadFailed(state: client.stateName, error), recorder, client)
            }
            if bytes.isEmpty {
                recorder.socket(.peerClosed(.server))
                closeSocket()
                return finish(.peerClosedDuringHandshake(.server, state: client.stateName), recorder, client)
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
            if client.stateName == .closed || client.stateName == .failed {
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
        var request = request
        if let text = request, client.negotiatedApplicationProtocol == ProtocolName.h2, !closedRightAfterHandshake {
            // RFC 7301 §3.2 and RFC 9113 §3.2: the connection now speaks HTTP/2.
            recorder.phase(.http2(.h2, allRequestsAtOnce: false))
            var configuration = HTTP2Connection.Configuration()
            configuration.enablePush = acceptsPush
            // RFC 9113 §9.2: a TLS connection HTTP/2 may not use ends with INADEQUATE_SECURITY.
            configuration.inadequateSecurity = HTTP2OverTLS.inadequateSecurity(version: client.negotiatedVersion, suite: client.negotiatedSuite)
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
                let step = client.receive(bytes)
                // In the trace, the frames sit right after the records that carried them, before a
                // close_notify that came in the same read.
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
            _ = send(client.close())
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
                _ = send(try client.sendApplicationData(Array(request.utf8)))
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
                let step = client.receive(bytes)
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
        _ = send(client.close())
        closeSocket()
        return finish(failure, recorder, client, response: request == nil ? nil : response)
    }
}

extension ProtocolName {
    /// HTTP/1.1 or HTTP/1.0 (the ALPN IDs `http/1.1`, `http/1.0`): what the real peers speak.
    public var isHTTP1: Bool { self == .http11 || self == "http/1.0" }
}
