import HTTP2
import TCPSim
import TLSEngine
import Trace

/// One end of one TCP connection: a TLS engine (or none, for plain HTTP) and its bookkeeping.
final class Endpoint {
    enum Engine {
        case client(TLSClient)
        case server(TLSServer)
        case client13(TLS13Client)
        case server13(TLS13Server)
        /// Speaks TLS 1.2 and 1.3: offers both (client) or answers either (server), RFC 8446 §4.2.1.
        case dualClient(DualVersionClient)
        case dualServer(DualVersionServer)
        case plain
    }

    let actor: Actor
    let peer: Actor
    let connection: Int
    let isInitiator: Bool
    var engine: Engine
    var tcp: TCPConnectionID?
    var handshake = Handshake.notStarted
    var closing = Closing.open
    var inbox: [UInt8] = []     // application bytes received, not yet consumed
    /// Virtual time before which this side is still computing (CPU cost).
    var busyUntil: Int64 = 0
    /// The real client's configuration (a weak generator is seeded from the clock when TLS starts).
    var configuration: TLSClientConfiguration?
    var pendingWrites: [(due: Int64, bytes: [UInt8])] = []
    /// The other end of this TCP connection (set by `Leg`).
    weak var other: Endpoint?
    /// Bytes handed to TCP so far (the stream offset of the next byte) and bytes read from it.
    var streamOffset = 0
    var bytesRead = 0
    /// Messages, change_cipher_spec and alerts this side sent, in stream order, with the stream
    /// offset where their record ends; `settled` of them the peer has received or dropped.
    var outgoing: [(content: UndeliveredMessage.Content, end: Int)] = []
    var settled = 0
    /// Why this side stopped processing: the fatal alert it sent or received
    /// (`.arrivedAfterFatalAlertSent` or `.arrivedAfterFatalAlertReceived`).
    var failure: DropReason?
    /// This side sent or received a fatal alert: it processes nothing more (it may have completed
    /// its handshake before, as when a replayed record fails to authenticate).
    var failed: Bool { failure != nil }
    /// This read's record failed to authenticate (bad_record_mac): the first message that arrived
    /// unprocessed in it is the one whose record raised the alert, not one read after it.
    var recordFailed = false
    /// The HTTP/2 connection (mode `h2`), once this side starts speaking it.
    var h2: HTTP2Connection?
    /// The client found HTTP/2 not negotiated (ALPN chose something else): it sends nothing.
    var h2Unavailable = false
    /// A TLS 1.3 server that accepted 0-RTT data: it reads requests before the handshake ends (RFC 8446 §2.3).
    var readsEarlyData = false
    /// Bytes written while this side gathers one flight (nil: writes go out at once): a client's
    /// ClientHello with its 0-RTT data, a server's first flight with its 0.5-RTT answer.
    var heldWrites: [UInt8]?

    /// How far this side's handshake has come.
    enum Handshake {
        /// Nothing yet: an initiator waits for its TCP connection to be established, a responder
        /// for the peer's first flight.
        case notStarted
        /// The initiator sent its first flight (a ClientHello) and waits for the handshake to end.
        /// A TLS responder needs no such mark: it goes from `notStarted` to `completed`.
        case started
        /// Both Finished messages verified (plain HTTP: the TCP connection is established).
        case completed
    }

    /// How far this side has closed its connection: TLS first, then TCP.
    enum Closing {
        case open
        /// Done with TLS: its close_notify is sent, or it had none to send (a failed handshake, plain
        /// HTTP); its TCP close is still to come (it waits for its pending writes).
        case tlsClosed
        /// Its TCP side is closed too (close(2): the FIN is queued). A responder that failed, and an
        /// HTTP/0.9 server ending its response, go here straight from `open`.
        case tcpClosed
    }

    init(actor: Actor, peer: Actor, connection: Int, isInitiator: Bool, engine: Engine) {
        self.actor = actor
        self.peer = peer
        self.connection = connection
        self.isInitiator = isInitiator
        self.engine = engine
    }
}

extension Endpoint.Engine {
    /// The TLS 1.2 engine of either role as the surface both roles share (``TLSEndpoint``): bytes
    /// in, steps out, the negotiated parameters. Nil for TLS 1.3, the dual-version engines (which
    /// hold their own 1.2 engine) and plain HTTP.
    var tls12: (any TLSEndpoint)? {
        switch self {
        case .client(let client): return client
        case .server(let server): return server
        case .client13, .server13, .dualClient, .dualServer, .plain: return nil
        }
    }

    /// Runs `body` on the TLS 1.2 engine of either role through ``TLSEndpoint`` and keeps the
    /// engine it leaves; nil (and nothing run) for TLS 1.3 and plain HTTP.
    mutating func withTLS12<R>(_ body: (inout any TLSEndpoint) -> R) -> R? {
        guard var endpoint = tls12 else { return nil }
        let result = body(&endpoint)
        if let client = endpoint as? TLSClient { self = .client(client) }
        if let server = endpoint as? TLSServer { self = .server(server) }
        return result
    }
}

/// A TCP connection between two endpoints, and the HTTP work it carries.
final class Leg {
    let index: Int
    let initiator: Endpoint
    let responder: Endpoint
    let responderAddress: IPv4Address
    /// The real client's requests on this connection, and how many were sent / answered.
    var requests: [String] = []
    var sent = 0, answered = 0
    /// A MITM's own connection to the server, and the requests waiting to be relayed on it.
    weak var upstream: Leg?
    weak var downstream: Leg?
    var relayQueue: [String] = []
    /// Rounds in a row in which the leg could do nothing more (``Run/isOver(_:)``).
    var quietRounds = 0
    /// The first request went as 0-RTT data (RFC 8446 §2.3).
    var sentEarly = false
    /// An attacker's leg that replays a recorded 0-RTT flight, and whether it was written.
    var replayedFlight: [UInt8]?
    var flightWritten = false

    init(index: Int, initiator: Endpoint, responder: Endpoint, responderAddress: IPv4Address) {
        self.index = index
        self.initiator = initiator
        self.responder = responder
        self.responderAddress = responderAddress
        initiator.other = responder
        responder.other = initiator
    }
}
