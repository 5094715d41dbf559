import TLSCrypto

/// One end of a TLS connection — ``TLSClient`` or ``TLSServer`` — seen from the outside: bytes in,
/// ``TLSStep``s out (the records to write and the events), and what the handshake negotiated.
/// A driver can run either role through it; each role adds its own inputs and findings (the
/// client's `start()` and `session`, the server's `receive(_:at:)`, `peerCertificateChain` and
/// `requestedServerName`).
///
/// No I/O: the caller moves the bytes. Any error sends a fatal alert (``TLSError/alert``) and ends
/// in ``TLSStateName/failed``.
public protocol TLSEndpoint {
    // MARK: - Inspection

    /// The handshake's state, by the name RFC 5246 §7.3's message flow gives it.
    var stateName: TLSStateName { get }
    /// The handshake completed and neither side has closed.
    var isConnected: Bool { get }
    /// The alert that ended the connection, when it failed.
    var failureAlert: Alert? { get }
    /// The protocol version, once ServerHello fixed it.
    var negotiatedVersion: ProtocolVersion? { get }
    /// The cipher suite, once ServerHello fixed it.
    var negotiatedSuite: CipherSuite? { get }
    /// The 48-byte master secret (RFC 5246 §8.1), once derived or taken from a resumed session.
    var masterSecret: [UInt8]? { get }
    /// The keys and IVs cut from the key block (RFC 5246 §6.3).
    var keyBlock: KeyBlock? { get }
    /// The master secret is the extended one, over the session hash (RFC 7627).
    var usesExtendedMasterSecret: Bool { get }
    /// CBC records are encrypt-then-MAC (RFC 7366).
    var usesEncryptThenMAC: Bool { get }
    /// The handshake was the abbreviated one, resuming a session (RFC 5246 §7.3).
    var isResumed: Bool { get }
    /// The application protocol the server chose with ALPN (RFC 7301), nil when none was negotiated.
    var negotiatedApplicationProtocol: ProtocolName? { get }

    // MARK: - Inputs

    /// Bytes from TCP, in any chunking: every complete record and message is handled in order.
    mutating func receive(_ bytes: [UInt8]) -> TLSStep
    /// The peer sent nothing more: TCP delivered end of stream, or the caller's timeout fired while
    /// this side waited. Before the handshake finished this is fatal — decode_error when part of a
    /// record or handshake message is buffered, handshake_failure otherwise (the reasons are in
    /// ``TLSEvent/endOfStream(state:bufferedBytes:)`` and the alert's cause) — so a stalled
    /// handshake never ends silently. Before a client's `start()`, or once connected, closed or
    /// failed, it only records the event.
    mutating func receiveEndOfStream() -> TLSStep
    /// Application data, once connected (RFC 5246 §10).
    mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep
    /// close_notify (RFC 5246 §7.2.1), unless already closed or failed.
    mutating func close() -> TLSStep
}

/// How ``TLSClient`` and ``TLSServer`` implement ``TLSEndpoint``, written once: each holds its
/// role's handshake (``ClientHandshake``, ``ServerHandshake``: its states, its messages, what it
/// keeps) and the shell both roles share (``HandshakeMachine``: records in, one fatal alert for any
/// error, one function that changes state) answers every ``TLSEndpoint`` member. The associated
/// type fixes each role's handshake at compile time, so a role's own members reach it without a
/// cast, and a client can never hold a server's handshake.
protocol TLSEndpointCore: TLSEndpoint {
    associatedtype Handshake: HandshakeMachine
    var handshake: Handshake { get set }
}

extension TLSEndpointCore {
    /// The connection's keys, secrets and negotiated parameters (RFC 5246 §6.1's security parameters).
    var context: ConnectionContext {
        get { handshake.context }
        set { handshake.context = newValue }
    }

    public var stateName: TLSStateName { handshake.state.name }
    public var isConnected: Bool { handshake.state.isConnected }
    public var failureAlert: Alert? { handshake.state.failureAlert }
    public var negotiatedVersion: ProtocolVersion? { context.suite == nil ? nil : context.version }
    public var negotiatedSuite: CipherSuite? { context.suite?.suite }
    public var masterSecret: [UInt8]? { context.masterSecret }
    public var keyBlock: KeyBlock? { context.keyBlock }
    public var usesExtendedMasterSecret: Bool { context.extendedMasterSecret }
    public var usesEncryptThenMAC: Bool { context.encryptThenMAC }
    public var isResumed: Bool { context.resumed }
    public var negotiatedApplicationProtocol: ProtocolName? { context.applicationProtocol }

    public mutating func receive(_ bytes: [UInt8]) -> TLSStep {
        handshake.receive(bytes)
    }

    public mutating func receiveEndOfStream() -> TLSStep {
        handshake.receiveEndOfStream()
    }

    public mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep {
        try handshake.sendApplicationData(data)
    }

    public mutating func close() -> TLSStep {
        handshake.close()
    }
}
