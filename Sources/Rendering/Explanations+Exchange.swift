import HTTP2
import TLSEngine
import Trace

/// Why a real peer's exchange ended in failure (``ExchangeFailure``), in English: the line
/// `tlslab connect` exits with, `tlslab serve` logs, and the trace's outcome shows. Text the peer
/// controls (an HTTP/2 GOAWAY's debug data) is escaped before it is quoted.
extension Explanations {
    static let englishExchange: [String: String] = [
        "exchange.cannotConnect": "cannot connect to {host}:{port}: {error}",
        "exchange.brokeSendingClientHello": "the connection broke while sending the ClientHello",
        "exchange.handshakeTimedOut": "handshake timed out: not complete within the {ms} ms deadline (state {state}); closed",
        "exchange.handshakeReadFailed": "handshake abandoned in state {state}: {error}; closed",
        "exchange.peerClosedDuringHandshake": "the {peer} closed the connection during the handshake (state {state})",
        "exchange.fatalAlertReceived": "the {peer} sent a fatal alert: {alert}",
        "exchange.errorAlertReceived": "the {peer} sent the alert {alert} at warning level; TLS 1.3 treats every alert but close_notify and user_canceled as an error alert whatever its level, so the connection ended (RFC 8446 §6)",
        "exchange.fatalAlertSent.client": "refused: {alert} — {cause}",
        "exchange.fatalAlertSent.server": "sent alert {alert}: {cause}",
        "exchange.peerEndedHandshake": "the {peer} ended the connection during the handshake",
        "exchange.closeNotifyBeforeRequest.server": "the server sent close_notify right after the handshake, before the request",
        "exchange.closeNotifyBeforeRequest.client": "the client sent close_notify before a request",
        "exchange.closeNotifyMidConnection": "the {peer} sent close_notify before the exchange was done",
        "exchange.couldNotSend.request": "could not send the request: {error}",
        "exchange.couldNotSend.response": "could not send the response: {error}",
        "exchange.nothingReceived.request": "no HTTP request: {error}; closed",
        "exchange.nothingReceived.request.http2": "no HTTP/2 request: {error}; closed",
        "exchange.nothingReceived.response": "no HTTP response: {error}",
        "exchange.nothingReceived.response.http2": "no complete HTTP/2 response: {error}",
        "exchange.requestTimedOut": "request timed out: no complete HTTP request within the {ms} ms deadline; closed",
        "exchange.requestTimedOut.http2": "request timed out: no complete HTTP/2 request within the {ms} ms deadline; closed",
        "exchange.peerClosedBeforeMessage.request": "the {peer} closed before sending a request",
        "exchange.peerClosedBeforeMessage.request.started": "the {peer} closed mid-request",
        "exchange.peerClosedBeforeMessage.response": "the {peer} closed without an HTTP response",
        "exchange.peerClosedBeforeMessage.response.started": "the {peer} closed mid-response",
        "exchange.peerClosedMidConnection": "the {peer} closed mid-connection",
        "exchange.requestHeadTooLong": "request head longer than {limit} bytes: answered 431 and closed",
        "exchange.requestLineRefused": "answered {status}: \"{line}\": {why}",
        "exchange.unspokenProtocol": "ALPN chose {protocol}, which tlslab serve does not speak (HTTP/1.x and h2 only): closed after the handshake",
        "exchange.http2SendFailed": "could not send HTTP/2 frames: {error}",
        "exchange.http2SendBroke": "the connection broke while sending HTTP/2 frames",
        "exchange.http2OwnGoAway.client": "HTTP/2: this client ended the connection with GOAWAY {code}: {reason}",
        "exchange.http2OwnGoAway.server": "HTTP/2 connection error {code}: {reason}",
        "exchange.http2PeerGoAway": "HTTP/2: the {peer} ended the connection with GOAWAY {code} (last stream {last})",
        "exchange.http2PeerGoAway.debug": "HTTP/2: the {peer} ended the connection with GOAWAY {code} (last stream {last}): {debug}",
        "exchange.http2StreamReset": "HTTP/2: the server reset the request's stream with RST_STREAM {code}",
        "exchange.http2PartlyAnswered": "the server answered {answered} of {requests} HTTP/2 requests",
        "exchange.http2ResponseIncomplete": "the server closed before the HTTP/2 response ended",
        "exchange.responseTooLarge": "the response is longer than the limit of {limit} bytes: stopped reading and closed",
        "exchange.responseTimedOut": "the response was not complete within the {ms} ms deadline ({bytes} bytes received): closed",
        "exchange.responseTruncated.headIncomplete": "the connection ended after {bytes} bytes, before the end of the response head: the response is incomplete (RFC 9112 §8)",
        "exchange.responseTruncated.shorterThanContentLength": "the response body has {received} of the {expected} bytes its Content-Length announced: the response is incomplete (RFC 9112 §8)",
        "exchange.responseTruncated.chunkedUnterminated": "the chunked response body ended without its last chunk after {bytes} bytes: the response is incomplete (RFC 9112 §7.1, §8)",
        "exchange.responseTruncated.notClosedProperly": "the response body runs to the end of the connection, which ended without close_notify after {bytes} bytes: it may have been cut short (RFC 5246 §7.2.1, RFC 9112 §8)",
        "exchange.drainStopped": "{failure}; the client kept sending after we were done: stopped draining after {bytes} bytes",
        "requestLine.notThreeParts": "the request line is not METHOD SP TARGET SP HTTP-VERSION (RFC 9112 §3)",
        "requestLine.methodNotToken": "the method is not a token (RFC 9110 §9.1)",
        "requestLine.badTarget": "the request target is empty or holds spaces, controls or non-ASCII bytes (RFC 9112 §3.2)",
        "requestLine.badVersion": "the version is not HTTP/DIGIT.DIGIT (RFC 9112 §2.3)",
        "requestLine.unsupportedVersion": "{version} over this connection: this server speaks HTTP/1.x here (RFC 9110 §15.6.6)",
    ]

    /// Why a real peer's exchange failed, in one line of this catalogue.
    public func exchangeFailure(_ failure: ExchangeFailure) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        func actor(_ a: Actor) -> String { say(CatalogueKey.actor(a)) }
        func state(_ s: HandshakeStateName) -> String { s.name }
        switch failure {
        case let .cannotConnect(host, port, error):
            return say("exchange.cannotConnect", ["host": host, "port": "\(port)", "error": socketError(error)])
        case .brokeSendingClientHello:
            return say("exchange.brokeSendingClientHello")
        case let .handshakeTimedOut(ms, s):
            return say("exchange.handshakeTimedOut", ["ms": "\(ms)", "state": state(s)])
        case let .handshakeReadFailed(s, error):
            return say("exchange.handshakeReadFailed", ["state": state(s), "error": socketError(error)])
        case let .peerClosedDuringHandshake(peer, s):
            return say("exchange.peerClosedDuringHandshake", ["peer": actor(peer), "state": state(s)])
        case let .fatalAlertReceived(peer, alert):
            return say("exchange.fatalAlertReceived", ["peer": actor(peer), "alert": alert.nameOrHex])
        case let .errorAlertReceived(peer, alert):
            return say("exchange.errorAlertReceived", ["peer": actor(peer), "alert": alert.nameOrHex])
        case let .fatalAlertSent(by, alert, cause):
            return say(by == .client ? "exchange.fatalAlertSent.client" : "exchange.fatalAlertSent.server", ["alert": alert.nameOrHex, "cause": alertCause(cause)])
        case .peerEndedHandshake(let peer):
            return say("exchange.peerEndedHandshake", ["peer": actor(peer)])
        case .closeNotifyBeforeRequest(let from):
            return say(from == .client ? "exchange.closeNotifyBeforeRequest.client" : "exchange.closeNotifyBeforeRequest.server")
        case .closeNotifyMidConnection(let from):
            return say("exchange.closeNotifyMidConnection", ["peer": actor(from)])
        case let .couldNotSend(kind, error):
            return say(kind == .request ? "exchange.couldNotSend.request" : "exchange.couldNotSend.response", ["error": self.failure(error)])
        case let .nothingReceived(kind, http2, error):
            let key = switch (kind, http2) {
            case (.request, false): "exchange.nothingReceived.request"
            case (.request, true): "exchange.nothingReceived.request.http2"
            case (.response, false): "exchange.nothingReceived.response"
            case (.response, true): "exchange.nothingReceived.response.http2"
            }
            return say(key, ["error": socketError(error)])
        case let .requestTimedOut(ms, http2):
            return say(http2 ? "exchange.requestTimedOut.http2" : "exchange.requestTimedOut", ["ms": "\(ms)"])
        case let .peerClosedBeforeMessage(peer, kind, started):
            let key = switch (kind, started) {
            case (.request, false): "exchange.peerClosedBeforeMessage.request"
            case (.request, true): "exchange.peerClosedBeforeMessage.request.started"
            case (.response, false): "exchange.peerClosedBeforeMessage.response"
            case (.response, true): "exchange.peerClosedBeforeMessage.response.started"
            }
            return say(key, ["peer": actor(peer)])
        case .peerClosedMidConnection(let peer):
            return say("exchange.peerClosedMidConnection", ["peer": actor(peer)])
        case .requestHeadTooLong(let limit):
            return say("exchange.requestHeadTooLong", ["limit": "\(limit)"])
        case let .requestLineRefused(status, line, why):
            // The status with its reason phrase, as the response's status line carries it (RFC 9110 §15.5.1, §15.6.6).
            let phrase = status == 400 ? "400 Bad Request" : status == 505 ? "505 HTTP Version Not Supported" : "\(status)"
            return say("exchange.requestLineRefused", ["status": phrase, "line": TerminalText.escaped(line), "why": requestLineFault(why)])
        case .unspokenProtocol(let name):
            return say("exchange.unspokenProtocol", ["protocol": TerminalText.escaped(name)])
        case .http2SendFailed(let error?):
            return say("exchange.http2SendFailed", ["error": self.failure(error)])
        case .http2SendFailed(nil):
            return say("exchange.http2SendBroke")
        case let .http2OwnGoAway(by, code, reason):
            return say(by == .client ? "exchange.http2OwnGoAway.client" : "exchange.http2OwnGoAway.server", ["code": code.name, "reason": TerminalText.escaped(reason)])
        case let .http2PeerGoAway(peer, code, last, debug):
            let values = ["peer": actor(peer), "code": HTTP2ErrorCode(rawValue: code)?.name ?? "\(code)",
                          "last": "\(last)", "debug": TerminalText.escaped(debug)]
            return say(debug.isEmpty ? "exchange.http2PeerGoAway" : "exchange.http2PeerGoAway.debug", values)
        case .http2StreamReset(let code):
            return say("exchange.http2StreamReset", ["code": code.name])
        case let .http2PartlyAnswered(answered, requests):
            return say("exchange.http2PartlyAnswered", ["answered": "\(answered)", "requests": "\(requests)"])
        case .http2ResponseIncomplete:
            return say("exchange.http2ResponseIncomplete")
        case .responseTooLarge(let limit):
            return say("exchange.responseTooLarge", ["limit": "\(limit)"])
        case let .responseTimedOut(ms, bytes):
            return say("exchange.responseTimedOut", ["ms": "\(ms)", "bytes": "\(bytes)"])
        case .responseTruncated(.headIncomplete(let bytes)):
            return say("exchange.responseTruncated.headIncomplete", ["bytes": "\(bytes)"])
        case let .responseTruncated(.shorterThanContentLength(received, expected)):
            return say("exchange.responseTruncated.shorterThanContentLength", ["received": "\(received)", "expected": "\(expected)"])
        case .responseTruncated(.chunkedUnterminated(let bytes)):
            return say("exchange.responseTruncated.chunkedUnterminated", ["bytes": "\(bytes)"])
        case .responseTruncated(.notClosedProperly(let bytes)):
            return say("exchange.responseTruncated.notClosedProperly", ["bytes": "\(bytes)"])
        case let .drainStopped(inner, bytes):
            return say("exchange.drainStopped", ["failure": exchangeFailure(inner), "bytes": "\(bytes)"])
        }
    }

    /// Why a request line was refused, with the rule's RFC section.
    public func requestLineFault(_ fault: HTTPRequestLineFault) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch fault {
        case .notThreeParts: return say("requestLine.notThreeParts")
        case .methodNotToken: return say("requestLine.methodNotToken")
        case .badTarget: return say("requestLine.badTarget")
        case .badVersion: return say("requestLine.badVersion")
        case .unsupportedVersion(let version): return say("requestLine.unsupportedVersion", ["version": TerminalText.escaped(version)])
        }
    }
}
