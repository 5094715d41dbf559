/// How the client uses connections for its requests (RFC 1945, RFC 9112 §9.3 and §9.3.2).
public enum HTTPConnectionMode: String, Sendable, CaseIterable {
    /// HTTP/0.9 (1991): a connection per request; the request is the one line `GET /path`, with no
    /// headers; the response is the document itself, with no status line or headers, and the
    /// server closing the connection marks its end. Plain TCP only (it predates TLS).
    case http09 = "http/0.9"
    /// HTTP/1.0: a new connection (and TLS handshake) for every request.
    case oneRequestPerConnection = "http/1.0"
    /// HTTP/1.1 keep-alive: one connection; each request waits for the previous response.
    case keepAlive = "keep-alive"
    /// HTTP/1.1 pipelining: one connection; every request is sent back to back, then the responses come.
    case pipelining
    /// HTTP/2 (RFC 9113): one connection; every request at once, each on its own stream (1, 3, 5…)
    /// as HPACK-compressed HEADERS; the server interleaves the responses' frames. Over TLS the
    /// protocol is "h2" (chosen by ALPN); over plain TCP "h2c" with prior knowledge (§3.3).
    case h2
}
