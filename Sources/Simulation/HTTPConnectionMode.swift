/// How the client uses connections for its requests (RFC 1945, RFC 9112 §9.3 and §9.3.2).
public enum HTTPConnectionMode: String, Sendable, CaseIterable {
    /// HTTP/1.0: a new connection (and TLS handshake) for every request.
    case oneRequestPerConnection = "http/1.0"
    /// HTTP/1.1 keep-alive: one connection; each request waits for the previous response.
    case keepAlive = "keep-alive"
    /// HTTP/1.1 pipelining: one connection; every request is sent back to back, then the responses come.
    case pipelining
}
