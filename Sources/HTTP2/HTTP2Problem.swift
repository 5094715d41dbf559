import TLSEngine

/// Why an HTTP/2 endpoint ended the connection (a connection error, RFC 9113 §5.4.1) or reset or
/// refused a stream (§5.4.2, §8.1.1), as a fact: the renderers word it in the reader's language.
/// ``wireText`` is what this side itself sends about it — GOAWAY's debug data (§6.8: opaque to the
/// peer, for diagnostics) and the body of a 413 or 431 answer — which is protocol content, in
/// English, the same bytes in every language.
public enum HTTP2Problem: Error, Sendable, Hashable {
    /// The client's bytes did not start with the connection preface (§3.4); `began`: the first
    /// printable ASCII of them; `looksHTTP1`: they begin like an HTTP/1.x request.
    case notPreface(began: String, looksHTTP1: Bool)
    /// The TLS connection is not good enough for HTTP/2 (§9.2, §9.2.2).
    case inadequateSecurity(HTTP2TLSProblem)
    /// The peer's first frame was not SETTINGS (§3.4). `peer`: the role of the side that sent it.
    case firstFrameNotSettings(peer: HTTP2Connection.Role, frameType: String)
    /// Bytes that are not a valid frame (§4.2, §6).
    case malformedFrame(HTTP2FrameError)
    /// A frame other than CONTINUATION while a header block was open (§6.10).
    case frameInsideHeaderBlock(frameType: String)
    /// HEADERS opening an even stream: a client's new stream must be odd (§5.1.1).
    case evenNewStream(UInt32)
    /// HEADERS on a stream that is not open, below the highest the client opened (§5.1.1).
    case streamNotOpen(UInt32, highest: UInt32)
    /// CONTINUATION with no header block to continue (§6.10).
    case continuationWithoutHeaderBlock
    /// A header block larger than this side holds.
    case headerBlockTooLarge(limit: Int)
    /// A flow-control window above 2^31-1 (§6.9.1).
    case windowAboveMaximum
    /// DATA beyond the flow-control window (§6.9).
    case dataBeyondWindow
    /// PUSH_PROMISE from a client (§8.4).
    case pushPromiseFromClient
    /// DATA on a stream with no open request (§6.1).
    case dataWithoutRequest(stream: UInt32)
    /// The server answered in HTTP/1.x although ALPN chose h2 (RFC 7301 §3.2); `line`: its first line.
    case answeredInHTTP1(line: String)
    /// PUSH_PROMISE although this client's SETTINGS_ENABLE_PUSH is 0 (§6.5.2, §8.4).
    case pushWhileDisabled
    /// A frame on a stream this client closed (`closed`) or never opened (§5.1).
    case responseOnUnopenedStream(frameType: String, stream: UInt32, closed: Bool)
    /// A response without a valid :status (§8.3.2).
    case responseWithoutStatus
    /// DATA before the response's HEADERS (§8.1).
    case dataBeforeResponseHeaders
    /// A response body larger than this client accepts.
    case responseBodyTooLarge(limit: Int)
    /// A header block HPACK could not decode (COMPRESSION_ERROR, §4.3).
    case compression(HPACKError)
    /// A malformed request (§8.1.1): its stream is reset.
    case malformedRequest(HTTP2MalformedRequest)
    /// A request body over this server's limit: answered 413.
    case bodyTooLarge(limit: Int)
    /// Request header fields over this server's SETTINGS_MAX_HEADER_LIST_SIZE: answered 431.
    case headerFieldsTooLarge(limit: Int)
    /// A response header list larger than this client keeps (RFC 9113 §10.5.1): ENHANCE_YOUR_CALM.
    case responseHeaderListTooLarge(limit: Int)
    /// The client sent more header lists over SETTINGS_MAX_HEADER_LIST_SIZE than this server
    /// answers with 431 (§10.5): ENHANCE_YOUR_CALM.
    case repeatedOversizeHeaderLists(count: Int, limit: Int)

    /// The English text this side sends about it (GOAWAY debug data, a 413/431 body).
    public var wireText: String {
        switch self {
        case let .notPreface(began, looksHTTP1):
            return "the connection did not start with the HTTP/2 client preface (RFC 9113 §3.4): it began \"\(began)\""
                + (looksHTTP1 ? ", an HTTP/1.x request" : "")
        case .inadequateSecurity(let problem): return problem.wireText
        case let .firstFrameNotSettings(peer, type):
            return "the \(peer == .server ? "server" : "client")'s first frame was \(type), not SETTINGS (RFC 9113 §3.4)"
        case .malformedFrame(let error): return error.description
        case .frameInsideHeaderBlock(let type): return "\(type) inside a header block"
        case .evenNewStream(let stream): return "HEADERS opening stream \(stream): a client's new stream must be odd (RFC 9113 §5.1.1)"
        case let .streamNotOpen(stream, highest):
            return "HEADERS on stream \(stream), which is not open: a client's new stream must be above \(highest) (RFC 9113 §5.1.1)"
        case .continuationWithoutHeaderBlock: return "CONTINUATION without a header block to continue"
        case .headerBlockTooLarge(let limit): return "a header block of more than \(limit) octets"
        case .windowAboveMaximum: return "a window above 2^31-1"
        case .dataBeyondWindow: return "DATA beyond the flow-control window"
        case .pushPromiseFromClient: return "PUSH_PROMISE from a client (RFC 9113 §8.4)"
        case .dataWithoutRequest(let stream): return "DATA on stream \(stream), which has no open request (RFC 9113 §6.1)"
        case .answeredInHTTP1(let line): return "the server answered in HTTP/1.x (\"\(line)\") although ALPN chose h2 (RFC 7301 §3.2)"
        case .pushWhileDisabled: return "PUSH_PROMISE although SETTINGS_ENABLE_PUSH is 0"
        case let .responseOnUnopenedStream(type, stream, closed):
            return "\(type) on stream \(stream), which \(closed ? "is closed" : "this client never opened") (RFC 9113 §5.1)"
        case .responseWithoutStatus: return "a response without a valid :status (RFC 9113 §8.3.2)"
        case .dataBeforeResponseHeaders: return "DATA before the response's HEADERS (RFC 9113 §8.1)"
        case .responseBodyTooLarge(let limit): return "a response body beyond \(limit) octets"
        case .compression(let error): return "HPACK: \(error)"
        case .malformedRequest(let why): return why.wireText
        case .bodyTooLarge(let limit): return "request body larger than \(limit) bytes"
        case .headerFieldsTooLarge(let limit): return "request header fields larger than \(limit) bytes"
        case .responseHeaderListTooLarge(let limit): return "a response header list larger than \(limit) octets (RFC 9113 §10.5.1)"
        case let .repeatedOversizeHeaderLists(count, limit):
            return "\(count) header lists larger than SETTINGS_MAX_HEADER_LIST_SIZE \(limit) (RFC 9113 §10.5)"
        }
    }
}

/// Why a TLS connection is not good enough for HTTP/2 (RFC 9113 §9.2, §9.2.2).
public enum HTTP2TLSProblem: Sendable, Hashable {
    /// A version below TLS 1.2.
    case versionBelowTLS12(ProtocolVersion)
    /// A suite on the prohibited list: no ephemeral key exchange (`forwardSecret` false) or no AEAD cipher.
    case prohibitedSuite(CipherSuite, forwardSecret: Bool)

    public var wireText: String {
        switch self {
        case .versionBelowTLS12(let version): return "\(version) is below TLS 1.2, the least HTTP/2 over TLS may use (RFC 9113 §9.2)"
        case let .prohibitedSuite(suite, forwardSecret):
            return "\(suite.nameOrHex) is on HTTP/2's prohibited list (RFC 9113 §9.2.2): "
                + (forwardSecret ? "no AEAD cipher" : "no ephemeral key exchange")
        }
    }
}

/// Why a request is malformed (RFC 9113 §8.1.1, §8.2.1, §8.2.2, §8.3, §8.3.1). `field` values come
/// from the peer: a renderer escapes them like any peer text.
public enum HTTP2MalformedRequest: Sendable, Hashable {
    case uppercaseFieldName(String)
    case pseudoHeaderAfterRegular(String)
    case unknownPseudoHeader(String)
    case repeatedPseudoHeader(String)
    case connectionSpecificField(String)
    case missingPseudoHeader(String)
    case contentLengthNotOneNumber(String)
    case contentLengthMismatch(declared: Int, body: Int)

    public var wireText: String {
        switch self {
        case .uppercaseFieldName(let name): return "the field name '\(name)' has uppercase letters (§8.2.1)"
        case .pseudoHeaderAfterRegular(let name): return "the pseudo-header field \(name) follows a regular field (§8.3)"
        case .unknownPseudoHeader(let name): return "\(name) is not a request pseudo-header field (§8.3.1)"
        case .repeatedPseudoHeader(let name): return "\(name) appears twice (§8.3.1)"
        case .connectionSpecificField(let name): return "the connection-specific field '\(name)' (§8.2.2)"
        case .missingPseudoHeader(let name): return "the request has no \(name) (§8.3.1)"
        case .contentLengthNotOneNumber(let value): return "content-length '\(value)' is not one number (§8.1.1)"
        case let .contentLengthMismatch(declared, body): return "content-length \(declared) but a body of \(body) bytes (§8.1.1)"
        }
    }
}
