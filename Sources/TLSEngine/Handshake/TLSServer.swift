/// The server side of a TLS 1.2 (and 1.0/1.1) handshake as a value (RFC 5246 §7.3): it answers
/// a ClientHello with ServerHello, Certificate, [ServerKeyExchange], [CertificateRequest],
/// ServerHelloDone — or, resuming a cached session or a ticket's (RFC 5077), with ServerHello,
/// ChangeCipherSpec and Finished first. No I/O; any error sends a fatal alert and ends in `failed`.
/// What both roles offer (``receive(_:)``, ``close()``, the negotiated parameters…) is
/// ``TLSEndpoint``'s; the server adds what it learnt of the client. Its handshake is
/// ``ServerHandshake``.
public struct TLSServer: TLSEndpoint {
    public var core: TLSEndpointCore<TLSServer>

    public init(configuration: TLSServerConfiguration) {
        core = TLSEndpointCore(ServerHandshake(configuration: configuration))
    }

    /// The client's chain, when it sent one (mutual TLS, RFC 5246 §7.4.6).
    public var peerCertificateChain: [[UInt8]] { core.handshake.clientCertificateChain }
    /// The server_name the client asked for (RFC 6066 §3).
    public var requestedServerName: String? { core.context.serverName }
}

extension TLSEndpointCore where Endpoint == TLSServer {
    /// The server's handshake: ``TLSServer/init(configuration:)`` put it there, and a server's core
    /// holds nothing else.
    var handshake: ServerHandshake {
        get { machine as! ServerHandshake }
        set { machine = newValue }
    }
}
