/// The server side of a TLS 1.2 (and 1.0/1.1) handshake as a value (RFC 5246 §7.3): it answers
/// a ClientHello with ServerHello, Certificate, [ServerKeyExchange], [CertificateRequest],
/// ServerHelloDone — or, resuming a cached session or a ticket's (RFC 5077), with ServerHello,
/// ChangeCipherSpec and Finished first. No I/O; any error sends a fatal alert and ends in `failed`.
/// What both roles offer (``receive(_:)``, ``close()``, the negotiated parameters…) is
/// ``TLSEndpoint``'s, written once in ``TLSEndpointCore``; the server adds the driver's clock
/// reading and what it learnt of the client. Its handshake is ``ServerHandshake``.
public struct TLSServer: TLSEndpointCore {
    var handshake: ServerHandshake

    public init(configuration: TLSServerConfiguration) {
        handshake = ServerHandshake(configuration: configuration)
    }

    /// ``receive(_:)`` with the driver's clock reading taken when the bytes arrived (the engine
    /// reads no clock): a session made now is stamped with it, and one offered for resumption is
    /// measured against it and the configuration's ``TLSServerConfiguration/sessionLifetime``.
    public mutating func receive(_ bytes: [UInt8], at now: SessionTime) -> TLSStep {
        handshake.clock = now
        return handshake.receive(bytes)
    }

    /// The driver gave up waiting for the client (a read timeout or deadline): user_canceled and
    /// close_notify in an unfinished handshake, close_notify once connected (RFC 5246 §7.2.2, §7.2.1).
    public mutating func cancel() -> TLSStep {
        handshake.cancel()
    }

    /// The client's chain, when it sent one (mutual TLS, RFC 5246 §7.4.6).
    public var peerCertificateChain: [[UInt8]] { handshake.clientCertificateChain }
    /// The server_name the client asked for (RFC 6066 §3).
    public var requestedServerName: String? { context.serverName }
}
