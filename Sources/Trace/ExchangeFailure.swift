import HTTP2
import TLSEngine

/// Why a real peer's exchange (`tlslab connect`, `tlslab serve`) ended in failure, after the point the
/// TLS events show: facts only; the renderers word them from the catalogue (`exchange.*`).
public enum ExchangeFailure: Sendable, Hashable {
    // The connection and the handshake (both roles; `peer` is the other side).
    /// connect(2) to `host`:`port` failed.
    case cannotConnect(host: String, port: UInt16, SocketError)
    /// The socket broke while the ClientHello was written.
    case brokeSendingClientHello
    /// The handshake was not complete by its deadline; `state` is where this side waited.
    case handshakeTimedOut(milliseconds: Int, state: HandshakeStateName)
    /// A read failed while the handshake waited in `state`.
    case handshakeReadFailed(state: HandshakeStateName, SocketError)
    /// `peer` closed the TCP connection (read returned 0) while the handshake waited in `state`.
    case peerClosedDuringHandshake(Actor, state: HandshakeStateName)
    /// `peer` sent a fatal alert.
    case fatalAlertReceived(from: Actor, AlertDescription)
    /// TLS 1.3: `peer` sent a warning-level alert that is not a closure alert, an error alert by RFC 8446 §6.
    case errorAlertReceived(from: Actor, AlertDescription)
    /// `by` (this side) sent a fatal alert, for `cause`.
    case fatalAlertSent(by: Actor, AlertDescription, AlertCause)
    /// `peer` ended the TLS connection (close_notify) before the handshake finished.
    case peerEndedHandshake(Actor)

    // HTTP/1.x.
    /// `from` sent close_notify before the client's request (the server: right after the handshake).
    case closeNotifyBeforeRequest(from: Actor)
    /// This side could not encrypt or send its request or response.
    case couldNotSend(HTTPMessageKind, TLSError)
    /// No request arrived (server) or no complete response (client), over HTTP/1.x or HTTP/2: a read failed.
    case nothingReceived(HTTPMessageKind, http2: Bool, SocketError)
    /// The request did not arrive complete within the deadline.
    case requestTimedOut(milliseconds: Int, http2: Bool)
    /// `peer` closed the TCP connection before its message was complete (`started`: part of it had come).
    case peerClosedBeforeMessage(Actor, HTTPMessageKind, started: Bool)
    /// The request head was longer than the server reads: answered 431 and closed.
    case requestHeadTooLong(limit: Int)
    /// The request line was refused with `status` (400 or 505): `line` is its escaped first bytes.
    case requestLineRefused(status: Int, line: String, HTTPRequestLineFault)
    /// `peer` sent close_notify after the request, before the exchange was done.
    case closeNotifyMidConnection(from: Actor)
    /// `peer` closed the TCP connection after its request, before the exchange was done.
    case peerClosedMidConnection(Actor)
    /// ALPN chose a protocol this side does not speak (it speaks HTTP/1.x and h2 only).
    case unspokenProtocol(String)
    /// The response grew past the client's limit (`connect --max-response-bytes`): reading stopped.
    case responseTooLarge(limit: Int)
    /// The response was not whole within the client's overall deadline (`connect --response-timeout`),
    /// `bytes` of it received, however the server paced them.
    case responseTimedOut(milliseconds: Int, bytes: Int)
    /// The connection ended (close_notify, a TCP close, or a read that failed) before the HTTP/1.x
    /// response was whole (RFC 9112 §8, RFC 5246 §7.2.1).
    case responseTruncated(ResponseTruncation)

    // HTTP/2.
    /// The HTTP/2 frames could not be encrypted, or the socket broke while they were written.
    case http2SendFailed(TLSError?)
    /// `by` (this side) ended the connection with GOAWAY `code` (`reason`: the debug data it sent).
    case http2OwnGoAway(by: Actor, HTTP2ErrorCode, reason: String)
    /// `peer` ended the connection with GOAWAY `code` naming `lastStream`; `debug`: its debug data.
    case http2PeerGoAway(Actor, code: UInt32, lastStream: UInt32, debug: String)
    /// The server reset the request's stream with RST_STREAM `code`.
    case http2StreamReset(HTTP2ErrorCode)
    /// The server answered `answered` of the client's `requests` requests.
    case http2PartlyAnswered(answered: Int, requests: Int)
    /// The server closed before the HTTP/2 response was complete.
    case http2ResponseIncomplete

    /// The client kept sending after the server was done: the bounded drain stopped after `bytes` bytes
    /// (said after the failure it follows).
    indirect case drainStopped(ExchangeFailure, bytes: Int)
}

/// How an HTTP/1.x response the client holds falls short of whole: RFC 9112 §8, "A message that uses
/// a valid Content-Length is incomplete if the size of the message body received ... is less than
/// the value given by Content-Length. A response that has neither chunked transfer coding nor
/// Content-Length is terminated by closure of the connection" — and RFC 5246 §7.2.1: without
/// close_notify that closure may be a truncation attack.
public enum ResponseTruncation: Sendable, Hashable {
    /// The connection ended after `bytes` bytes, before the blank line that ends the head.
    case headIncomplete(bytes: Int)
    /// The body has `received` of the `expected` bytes its Content-Length announced.
    case shorterThanContentLength(received: Int, expected: Int)
    /// A chunked body without its last, zero-size chunk (RFC 9112 §7.1), after `bytes` bytes of response.
    case chunkedUnterminated(bytes: Int)
    /// A body delimited by the end of the connection, and the connection did not end with
    /// close_notify, after `bytes` bytes of response.
    case notClosedProperly(bytes: Int)
}

/// Which HTTP message an exchange failure concerns.
public enum HTTPMessageKind: String, Sendable, Hashable {
    case request, response
}

/// Why a request line is refused (RFC 9112 §3, RFC 9110 §9.1, §15.6.6).
public enum HTTPRequestLineFault: Sendable, Hashable {
    /// Not METHOD SP TARGET SP HTTP-VERSION (RFC 9112 §3).
    case notThreeParts
    /// The method is not a token (RFC 9110 §9.1).
    case methodNotToken
    /// The target is empty or holds spaces, controls or non-ASCII bytes (RFC 9112 §3.2).
    case badTarget
    /// The version is not HTTP/DIGIT.DIGIT (RFC 9112 §2.3).
    case badVersion
    /// A well-formed line naming an HTTP major version other than 1 (RFC 9110 §15.6.6): `version` as sent.
    case unsupportedVersion(String)
}
