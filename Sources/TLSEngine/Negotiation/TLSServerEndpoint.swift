import TLSCrypto

/// A server of either version as the driver that moves its bytes sees it (`tlslab serve`): bytes
/// in with the driver's clock reading, ``TLSStep``s out, and what the handshake fixed. ``TLSServer``
/// (TLS 1.2 and older) and ``TLS13Server`` each answer every member once; ``DualVersionServer``
/// answers with the engine the ClientHello chose, so a driver never asks which version it got.
public protocol TLSServerEndpoint {
    // MARK: - Inspection

    /// The handshake's state by RFC 5246 §7.3's names (TLS 1.3's states by their equivalent, see
    /// ``TLS13State/serverStateName``).
    var stateName: TLSStateName { get }
    /// The handshake's state by its own version's names: RFC 5246 §7.3's for TLS 1.2, RFC 8446
    /// Appendix A's (`WAIT_FINISHED`…) for TLS 1.3 — what a failure report names.
    var handshakeState: HandshakeStateName { get }
    /// The handshake completed and neither side has closed.
    var isConnected: Bool { get }
    var negotiatedVersion: ProtocolVersion? { get }
    /// The cipher suite by its code point in the one registry both versions share (RFC 8446 §B.4 for 1.3).
    var negotiatedCipherSuite: CipherSuite? { get }
    /// The (EC)DHE group of the key exchange, by the name the trace's negotiation gives it: TLS 1.3's
    /// key_share group (RFC 8446 §4.2.8), TLS 1.2's ServerKeyExchange curve or DHE group; nil for
    /// RSA key transport and a resumed TLS 1.2 session (no key exchange).
    var negotiatedGroupName: String? { get }
    /// RFC 7627's extended master secret (TLS 1.2 only: TLS 1.3's key schedule always hashes the transcript).
    var usesExtendedMasterSecret: Bool { get }
    var negotiatedApplicationProtocol: ProtocolName? { get }
    var requestedServerName: String? { get }
    /// The client's certificate chain, when it sent one it was asked for.
    var peerCertificateChain: [[UInt8]] { get }
    /// The handshake resumed a session (TLS 1.2) or was authenticated by a PSK (TLS 1.3, RFC 8446 §2.2).
    var isResumed: Bool { get }
    /// 0-RTT data was accepted (RFC 8446 §4.2.10; always false for TLS 1.2).
    var acceptedEarlyData: Bool { get }

    // MARK: - Inputs

    /// Bytes from the client, in any chunking; `now` is the driver's clock reading in milliseconds,
    /// the server's one clock input (the engine reads none): TLS 1.3's freshness check (RFC 8446
    /// §8.3) reads it as it is, session and ticket lifetimes its whole seconds.
    mutating func receive(_ bytes: [UInt8], atMilliseconds now: UInt64?) -> TLSStep
    /// Application data, once connected.
    mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep
    /// close_notify, unless already closed or failed.
    mutating func close() -> TLSStep
    /// The driver gave up waiting: user_canceled then close_notify mid-handshake, close_notify once connected.
    mutating func cancel() -> TLSStep
}

extension TLSServer: TLSServerEndpoint {
    public var handshakeState: HandshakeStateName { .tls12(stateName) }
    public var negotiatedGroupName: String? { handshake.negotiatedGroupName }
    public var negotiatedCipherSuite: CipherSuite? { negotiatedSuite }
    public var acceptedEarlyData: Bool { false }

    public mutating func receive(_ bytes: [UInt8], atMilliseconds now: UInt64?) -> TLSStep {
        if let now { return receive(bytes, at: SessionTime(milliseconds: now)) }
        return receive(bytes)
    }
}

/// ``TLS13Server`` as a ``TLSServerEndpoint``: its steps as ``TLSStep``s (``TLS13Step/tlsStep(role:)``)
/// and its facts by the names both versions share. A wrapper, not a conformance, because the engine's
/// own `close()` returns its ``TLS13Step``.
public struct TLS13ServerEndpoint: TLSServerEndpoint {
    public var engine: TLS13Server

    public init(_ engine: TLS13Server) { self.engine = engine }

    public var stateName: TLSStateName { engine.state.serverStateName }
    public var handshakeState: HandshakeStateName { .tls13(engine.state) }
    public var isConnected: Bool { engine.state == .connected }
    /// TLS 1.3 from the ClientHello on: only a ClientHello that offers it reaches this engine.
    public var negotiatedVersion: ProtocolVersion? { .tls13 }
    public var negotiatedCipherSuite: CipherSuite? { engine.negotiatedSuite.map { CipherSuite(rawValue: $0.rawValue) } }
    public var negotiatedGroupName: String? { engine.negotiatedGroup.map { "\($0)" } }
    public var usesExtendedMasterSecret: Bool { false }
    public var negotiatedApplicationProtocol: ProtocolName? { engine.negotiatedApplicationProtocol }
    public var requestedServerName: String? { engine.requestedServerName }
    public var peerCertificateChain: [[UInt8]] { engine.peerCertificateChain }
    public var isResumed: Bool { engine.resumed }
    public var acceptedEarlyData: Bool { engine.acceptedEarlyData }

    /// `now` becomes the engine's clock (``TLS13Server/receive(_:atMilliseconds:)``); without one it
    /// keeps its last reading.
    public mutating func receive(_ bytes: [UInt8], atMilliseconds now: UInt64?) -> TLSStep {
        guard let now else { return engine.receive(bytes).tlsStep(role: .server) }
        return engine.receive(bytes, atMilliseconds: now).tlsStep(role: .server)
    }

    public mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep {
        // 0.5-RTT data (RFC 8446 §4.4.4) is the engine's to allow; a driver sends once connected.
        guard engine.state == .connected else { throw .internalError(.applicationDataBeforeHandshake) }
        return engine.send(data).tlsStep(role: .server)
    }

    public mutating func close() -> TLSStep { engine.close().tlsStep(role: .server) }

    public mutating func cancel() -> TLSStep { engine.connection.cancel().tlsStep(role: .server) }
}

extension TLS13State {
    /// A server's TLS 1.3 state (RFC 8446 Appendix A.2) by the TLS 1.2 name of what it waits for:
    /// START waits for a ClientHello; WAIT_CERT and WAIT_CV for the client's Certificate and
    /// CertificateVerify; WAIT_EOED, WAIT_FLIGHT2 and WAIT_FINISHED for the client's flight that ends
    /// with its Finished; the states a server passes through within one input (RECVD_CH, NEGOTIATED)
    /// are named as the wait for that flight too.
    public var serverStateName: TLSStateName {
        switch self {
        case .start: return .expectClientHello
        case .waitClientCertificate: return .expectClientCertificate
        case .waitClientCertificateVerify: return .expectCertificateVerify
        case .connected: return .connected
        case .closed: return .closed
        default: return .expectFinished
        }
    }
}
