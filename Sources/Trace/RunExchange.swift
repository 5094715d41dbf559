import HTTP2

/// What a simulated run's exchange came to, recorded by the simulation at the moment each thing
/// happened, so that no reader has to look for it among the events: how the client chose HTTP/2,
/// the first HTTP/2 connection error a side sent, the first connection's first response as the
/// server sent it and as the client read it, whether any response was read, and whether a
/// CertificateRequest reached the client. Empty for a trace that no simulation made.
public struct RunExchange: Sendable, Hashable {
    /// How the client chose HTTP/2 the first time it did: ALPN's "h2" over TLS (RFC 9113 §3.2,
    /// RFC 7301) or prior knowledge over TCP (h2c, §3.3); nil when no connection spoke HTTP/2.
    public var http2Negotiation: HTTP2Negotiation?
    /// The first connection error (RFC 9113 §5.4.1) a side sent, in GOAWAY; nil when none did.
    public var http2ConnectionErrorSent: HTTP2ErrorCode?
    /// The first connection's first response as the server sent it (an HTTP/2 response as its
    /// fields and body in text); nil when the server sent none there.
    public var firstResponseSent: String?
    /// The first connection's first response as the client read it; nil when it read none there.
    public var firstResponseRead: String?
    /// Some side read a response, on any connection (an on-path attacker's client leg included).
    public var responseRead = false
    /// A CertificateRequest (RFC 5246 §7.4.4) reached the client on some connection.
    public var certificateRequestReachedClient = false

    public init() {}
}
