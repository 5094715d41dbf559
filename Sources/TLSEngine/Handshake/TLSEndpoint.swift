import TLSCrypto

/// One end of a TLS connection — ``TLSClient`` or ``TLSServer`` — seen from the outside: bytes in,
/// ``TLSStep``s out (the records to write and the events), and what the handshake negotiated.
/// Everything both roles offer is written once here; each role adds its own inputs and findings
/// (the client's `start()` and `session`, the server's `peerCertificateChain` and
/// `requestedServerName`).
///
/// No I/O: the caller moves the bytes. Any error sends a fatal alert (``TLSError/alert``) and ends
/// in ``TLSStateName/failed``.
public protocol TLSEndpoint {
    /// The connection's state machine. Its storage is TLSEngine's own: a caller reads and drives it
    /// only through the members below and the role's own.
    var core: TLSEndpointCore<Self> { get set }
}

/// The state machine inside a ``TLSEndpoint``: the role's handshake (its states, its messages, what
/// it keeps) behind the shell both roles share (``HandshakeMachine``: records in, one fatal alert
/// for any error, one function that changes state). `Endpoint` says whose core it is, so that a
/// client's core can never be given to a server.
public struct TLSEndpointCore<Endpoint: TLSEndpoint> {
    /// A ``ClientHandshake`` in a ``TLSClient``'s core, a ``ServerHandshake`` in a ``TLSServer``'s
    /// (each role's initializer puts it there; nothing else can make a core).
    var machine: any HandshakeMachine

    init(_ machine: some HandshakeMachine) {
        self.machine = machine
    }

    /// The connection's keys, secrets and negotiated parameters (RFC 5246 §6.1's security parameters).
    var context: ConnectionContext { machine.context }
}

extension TLSEndpoint {
    // MARK: - Inspection

    /// The handshake's state, by the name RFC 5246 §7.3's message flow gives it.
    public var stateName: TLSStateName { core.machine.state.name }
    /// The handshake completed and neither side has closed.
    public var isConnected: Bool { core.machine.state.isConnected }
    /// The alert that ended the connection, when it failed.
    public var failureAlert: Alert? { core.machine.state.failureAlert }
    /// The protocol version, once ServerHello fixed it.
    public var negotiatedVersion: ProtocolVersion? { core.context.suite == nil ? nil : core.context.version }
    /// The cipher suite, once ServerHello fixed it.
    public var negotiatedSuite: CipherSuite? { core.context.suite?.suite }
    /// The 48-byte master secret (RFC 5246 §8.1), once derived or taken from a resumed session.
    public var masterSecret: [UInt8]? { core.context.masterSecret }
    /// The keys and IVs cut from the key block (RFC 5246 §6.3).
    public var keyBlock: KeyBlock? { core.context.keyBlock }
    /// The master secret is the extended one, over the session hash (RFC 7627).
    public var usesExtendedMasterSecret: Bool { core.context.extendedMasterSecret }
    /// CBC records are encrypt-then-MAC (RFC 7366).
    public var usesEncryptThenMAC: Bool { core.context.encryptThenMAC }
    /// The handshake was the abbreviated one, resuming a session (RFC 5246 §7.3).
    public var isResumed: Bool { core.context.resumed }
    /// The application protocol the server chose with ALPN (RFC 7301), nil when none was negotiated.
    public var negotiatedApplicationProtocol: ProtocolName? { core.context.applicationProtocol }

    // MARK: - Inputs

    /// Bytes from TCP, in any chunking: every complete record and message is handled in order.
    public mutating func receive(_ bytes: [UInt8]) -> TLSStep {
        core.machine.receive(bytes)
    }

    /// The peer sent nothing more: TCP delivered end of stream, or the caller's timeout fired while
    /// this side waited. Before the handshake finished this is fatal — decode_error when part of a
    /// record or handshake message is buffered, handshake_failure otherwise (the reasons are in
    /// ``TLSEvent/endOfStream(state:bufferedBytes:)`` and the alert's cause) — so a stalled
    /// handshake never ends silently. Before a client's `start()`, or once connected, closed or
    /// failed, it only records the event.
    public mutating func receiveEndOfStream() -> TLSStep {
        core.machine.receiveEndOfStream()
    }

    /// Application data, once connected (RFC 5246 §10).
    public mutating func sendApplicationData(_ data: [UInt8]) throws(TLSError) -> TLSStep {
        try core.machine.sendApplicationData(data)
    }

    /// close_notify (RFC 5246 §7.2.1), unless already closed or failed.
    public mutating func close() -> TLSStep {
        core.machine.close()
    }
}
