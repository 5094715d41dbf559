import TLSEngine

/// What `tlslab serve` logs for one connection, as facts (the words are the catalogue's:
/// `Explanations.serveLogLine`): who connected and what was negotiated, or why the exchange failed.
/// The same facts make the page it serves (`Explanations.servePage`).
/// Everything the client controls (request line, certificate subject, ALPN name) is held as received;
/// the renderer escapes it.
public struct ServeLogEntry: Sendable, Hashable {
    /// The client's address and port.
    public var peer: String
    /// nil when the handshake completed and the request was answered.
    public var failure: ExchangeFailure?
    /// The version and suite negotiated, as their protocol names (nil when unknown).
    public var version: String?
    public var suite: String?
    public var extendedMasterSecret: Bool
    public var applicationProtocol: String?
    /// The subject of the client's certificate (mutual TLS).
    public var clientSubject: String?
    /// The first line of the HTTP request, if one was read.
    public var requestLine: String?
    /// The status of each response sent, each once, in order; empty when none was sent.
    public var statuses: [String]
    /// Why this version (RFC 8446 §4.2.1), as the server's ``VersionChoice`` says; nil when no
    /// ClientHello was read.
    public var versionReason: VersionChoice.Reason?
    /// The (EC)DHE group by its protocol name (x25519, secp256r1, ffdhe2048…), nil without one.
    public var group: String?
    /// TLS 1.3: the handshake was authenticated by a PSK from a ticket (RFC 8446 §2.2); TLS 1.2: a
    /// session was resumed (RFC 5246 §7.3).
    public var resumed = false
    /// TLS 1.3: 0-RTT data was accepted (RFC 8446 §4.2.10).
    public var earlyDataAccepted = false
    /// The host name the client asked for (RFC 6066 §3), as received.
    public var serverName: String?

    public init(peer: String, failure: ExchangeFailure?, version: String?, suite: String?, extendedMasterSecret: Bool,
                applicationProtocol: String?, clientSubject: String?, requestLine: String?, statuses: [String]) {
        self.peer = peer
        self.failure = failure
        self.version = version
        self.suite = suite
        self.extendedMasterSecret = extendedMasterSecret
        self.applicationProtocol = applicationProtocol
        self.clientSubject = clientSubject
        self.requestLine = requestLine
        self.statuses = statuses
    }
}
