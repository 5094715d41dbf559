/// Where a handshake waits, by the name its own version's state machine gives it: RFC 5246 §7.3's
/// message flow for TLS 1.2 and earlier, RFC 8446 Appendix A's states for TLS 1.3.
public enum HandshakeStateName: Sendable, Hashable {
    case tls12(TLSStateName)
    case tls13(TLS13State)

    /// The state's name: `expectServerHello` (TLS 1.2) or `WAIT_EE` (TLS 1.3, as Appendix A spells it).
    public var name: String {
        switch self {
        case .tls12(let state): return state.rawValue
        case .tls13(let state): return state.rawValue
        }
    }
}

/// A TLS client of either version as its driver sees it — ``TLSClient`` (TLS 1.2 and earlier),
/// ``TLS13Client`` (TLS 1.3 only) or ``DualVersionClient`` (both offered, RFC 8446 §4.2.1): bytes in,
/// ``TLSStep``s out, and what the handshake settled. A driver runs any of them through this and
/// re-derives nothing the engine knows. No I/O, no clock: the caller passes the time.
public protocol TLSClientEndpoint {
    /// Sends the ClientHello. `now` decides whether a TLS 1.2 session's ticket is still worth
    /// offering (RFC 5077 §3.3).
    mutating func start(at now: SessionTime) -> TLSStep
    /// Bytes from the server, in any chunking; `now` stamps a TLS 1.2 ticket received.
    mutating func receive(_ bytes: [UInt8], at now: SessionTime) -> TLSStep
    /// Application data, once connected.
    mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep
    /// close_notify (RFC 5246 §7.2.1, RFC 8446 §6.1), unless already closed or failed.
    mutating func sendCloseNotify() -> TLSStep

    /// The handshake completed and the connection is open.
    var isConnected: Bool { get }
    /// The connection is over: closed, or failed with a fatal alert.
    var hasEnded: Bool { get }
    /// Where the handshake waits, in its version's own terms.
    var handshakeState: HandshakeStateName { get }
    /// The version, once the ServerHello fixed it.
    var negotiatedVersion: ProtocolVersion? { get }
    /// The cipher suite, once the ServerHello fixed it.
    var negotiatedCipherSuite: CipherSuite? { get }
    /// The application protocol ALPN agreed on (RFC 7301), nil when none.
    var negotiatedApplicationProtocol: ProtocolName? { get }
    /// TLS 1.2: the master secret is the extended one (RFC 7627); false in TLS 1.3, where the
    /// key schedule always covers the transcript (RFC 8446 §7.1).
    var usesExtendedMasterSecret: Bool { get }
    /// The handshake resumed: a TLS 1.2 session (RFC 5246 §7.3) or a TLS 1.3 PSK (RFC 8446 §2.2).
    var isResumed: Bool { get }
    /// TLS 1.2: the session established or resumed, to offer later.
    var session: TLSSession? { get }
    /// TLS 1.3: the tickets the server sent after the handshake (RFC 8446 §4.6.1), each with its PSK.
    var tls13Tickets: [TLS13ResumptionTicket] { get }

    /// TLS 1.3: the ClientHello offered 0-RTT data (early_data, RFC 8446 §4.2.10).
    var offersEarlyData: Bool { get }
    /// TLS 1.3: 0-RTT data right after the ClientHello, within the ticket's max_early_data_size
    /// (RFC 8446 §2.3); an empty step when none was offered.
    mutating func sendAsEarlyData(_ data: [UInt8]) -> TLSStep
    /// TLS 1.3: the server's EncryptedExtensions accepted the 0-RTT data; nil before it arrived
    /// or when none was offered.
    var earlyDataAccepted: Bool? { get }
}

extension TLSClientEndpoint {
    public var offersEarlyData: Bool { false }
    public mutating func sendAsEarlyData(_ data: [UInt8]) -> TLSStep { TLSStep() }
    public var earlyDataAccepted: Bool? { nil }
}

extension TLSClient: TLSClientEndpoint {
    public mutating func sendCloseNotify() -> TLSStep { close() }
    public var hasEnded: Bool { stateName == .closed || stateName == .failed }
    public var handshakeState: HandshakeStateName { .tls12(stateName) }
    public var negotiatedCipherSuite: CipherSuite? { negotiatedSuite }
    public var tls13Tickets: [TLS13ResumptionTicket] { [] }
}

extension TLS13Client: TLSClientEndpoint {
    public mutating func start(at now: SessionTime) -> TLSStep { start().tlsStep(role: .client) }
    public mutating func receive(_ bytes: [UInt8], at now: SessionTime) -> TLSStep { receive(bytes).tlsStep(role: .client) }
    public mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep { send(data).tlsStep(role: .client) }
    public mutating func sendCloseNotify() -> TLSStep {
        let step: TLS13Step = close()
        return step.tlsStep(role: .client)
    }
    public var isConnected: Bool { state == .connected }
    public var hasEnded: Bool { state == .closed }
    public var handshakeState: HandshakeStateName { .tls13(state) }
    public var negotiatedVersion: ProtocolVersion? { negotiatedSuite == nil ? nil : .tls13 }
    public var negotiatedCipherSuite: CipherSuite? { negotiatedSuite.map { CipherSuite(rawValue: $0.rawValue) } }
    public var usesExtendedMasterSecret: Bool { false }
    public var isResumed: Bool { resumed }
    public var session: TLSSession? { nil }
    public var tls13Tickets: [TLS13ResumptionTicket] { tickets }
    public var offersEarlyData: Bool { earlyData.offered }
    public mutating func sendAsEarlyData(_ data: [UInt8]) -> TLSStep {
        let step: TLS13Step = sendEarlyData(data)
        return step.tlsStep(role: .client)
    }
    public var earlyDataAccepted: Bool? {
        guard earlyData.offered, state != .waitServerHello, state != .start else { return nil }
        return earlyData.accepted
    }
}

extension DualVersionClient: TLSClientEndpoint {
    public mutating func start(at now: SessionTime) -> TLSStep {
        self.now = now
        return start()
    }
    public mutating func receive(_ bytes: [UInt8], at now: SessionTime) -> TLSStep {
        self.now = now
        return receive(bytes)
    }
    public mutating func sendCloseNotify() -> TLSStep { close() }

    /// The engine that speaks once the ServerHello chose; before that, the TLS 1.3 engine (both wait
    /// for the ServerHello).
    private var speaking: any TLSClientEndpoint {
        if case .tls12 = phase { return tls12 }
        return tls13
    }

    public var hasEnded: Bool { speaking.hasEnded }
    public var handshakeState: HandshakeStateName { speaking.handshakeState }
    public var negotiatedCipherSuite: CipherSuite? { negotiatedVersion == nil ? nil : speaking.negotiatedCipherSuite }
    public var negotiatedApplicationProtocol: ProtocolName? { negotiatedVersion == nil ? nil : speaking.negotiatedApplicationProtocol }
    public var usesExtendedMasterSecret: Bool { speaking.usesExtendedMasterSecret }
    public var isResumed: Bool { speaking.isResumed }
    public var session: TLSSession? { speaking.session }
    public var tls13Tickets: [TLS13ResumptionTicket] { speaking.tls13Tickets }
}
