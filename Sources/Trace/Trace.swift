import HTTP2
import TCPSim
import TLSCrypto
import TLSEngine

/// A run's events in order, and the summary read off them.
public struct Trace: Sendable {
    public var events: [TraceEvent]
    /// Which actor each IP address in the run belongs to (empty: the classic client/server pair).
    public var participants: [IPv4Address: Actor]
    /// Which stream bytes carry which TLS message or record (empty for a real peer's trace).
    public var streamSpans: [StreamSpan]
    /// What the simulation recorded of the exchange as it ran (empty for a real peer's trace).
    public var exchange: RunExchange

    public init(events: [TraceEvent], participants: [IPv4Address: Actor] = [:], streamSpans: [StreamSpan] = [],
                exchange: RunExchange = RunExchange()) {
        self.events = events
        self.participants = participants
        self.streamSpans = streamSpans
        self.exchange = exchange
    }

    /// The actor at an address: from `participants`, else nil.
    public func actor(at address: IPv4Address) -> Actor? { participants[address] }

    /// True when an attacker acts in the run (its own column in the ladder).
    public var hasAttacker: Bool { events.contains { $0.actor == .attacker } }

    /// The first connection's values as each side derived them (the whole run's outcome for a
    /// single connection). `nil` for what a side never obtained.
    public var summary: RunSummary { summary(connection: 0) }

    /// One summary per connection, in order.
    public var summaries: [RunSummary] {
        let count = (events.map(\.connection).max() ?? 0) + 1
        return (0..<count).map { summary(connection: $0) }
    }

    public func summary(connection: Int) -> RunSummary {
        var s = RunSummary()
        for event in events where event.connection == connection {
            if case .http(.responseReceived) = event.kind, event.actor == .client { s.responsesReceived += 1 }
            if case .http(.failed(let why)) = event.kind, s.exchangeFailure == nil { s.exchangeFailure = why }
            guard case .tls(let tls) = event.kind else { continue }
            let side = event.actor
            if side == .client || side == .server { s.usedTLS = true }
            if side == .client { s.clientTraced = true }
            if side == .server { s.serverTraced = true }
            if side != .client && side != .server { s.othersTraced = true }
            switch tls {
            // A one-sided trace (a real peer): the other side's random as this side received it.
            case .handshakeReceived(.clientHello(let ch), _) where side == .server:
                s.receivedClientRandom = s.receivedClientRandom ?? ch.random.bytes
            // A HelloRetryRequest's random is RFC 8446 §4.1.3's constant, not the server's random.
            case .handshakeReceived(.serverHello(let sh), _) where side == .client && !sh.isHelloRetryRequest:
                s.receivedServerRandom = s.receivedServerRandom ?? sh.random.bytes
            case .handshakeSent(.clientHello(let ch), _) where side == .client:
                s.clientRandom = s.clientRandom ?? ch.random.bytes
            case .handshakeSent(.serverHello(let sh), _) where side == .server && !sh.isHelloRetryRequest:
                s.serverRandom = s.serverRandom ?? sh.random.bytes
            // The peer's signatures as the verifying side checked them: the server's over its key
            // exchange parameters (RFC 5246 §7.4.3) and the client's CertificateVerify (§7.4.8).
            case .signature(let sig) where side == .client && sig.purpose == .serverKeyExchange && !sig.created:
                s.serverKeyExchangeSignature = s.serverKeyExchangeSignature ?? sig
            case .signature(let sig) where side == .server && sig.purpose == .certificateVerify && !sig.created:
                s.certificateVerifySignature = s.certificateVerifySignature ?? sig
            case .negotiated(let n) where side == .client || side == .server:
                if side == .client || s.cipherSuite == nil {
                    s.cipherSuite = n.cipherSuite
                    s.version = n.version
                    s.extendedMasterSecret = n.extendedMasterSecret
                    s.resumed = n.resumed
                    s.applicationProtocol = n.applicationProtocol
                }
            case .sessionResumed(_, let master) where side == .client || side == .server:
                // The abbreviated handshake derives no new master secret: it reuses the session's.
                if side == .client { s.clientMaster = master } else { s.serverMaster = master }
            case .derived(.masterSecret(let pre, _, _, _, let master)):
                if side == .client { s.clientPreMaster = pre; s.clientMaster = master }
                if side == .server { s.serverPreMaster = pre; s.serverMaster = master }
            case .derived(.verifyData(let sender, _, _, let data)):
                if sender == .client, side == .client { s.clientVerifyData = data }
                if sender == .server, side == .server { s.serverVerifyData = data }
            case .handshakeCompleted:
                if side == .client { s.clientCompleted = true } else if side == .server { s.serverCompleted = true }
            case .alertSent(let alert, let cause) where alert.isFatal && s.failure == nil:
                s.failure = RunSummary.Failure(alert: alert.alertDescription, sentBy: side, cause: cause)
            default:
                break
            }
        }
        // Only a real peer's trace (one side, nobody in between) takes the other side's random as received.
        if !s.othersTraced, !s.clientTraced { s.clientRandom = s.clientRandom ?? s.receivedClientRandom }
        if !s.othersTraced, !s.serverTraced { s.serverRandom = s.serverRandom ?? s.receivedServerRandom }
        return s
    }

    /// Every TLS session's key-log entry, in the order the sessions began: one per side that sent a
    /// ClientHello on a connection (one per connection, two behind a MITM: client↔attacker and
    /// attacker↔server), resumed ones included, each paired by ``KeyLogPairing`` from that side's
    /// events — the pairing a real peer's recorder uses as it runs.
    public var keyLogEntries: [KeyLogEntry] {
        var pairings: [SessionSide: KeyLogPairing] = [:]
        var order: [SessionSide] = []
        for e in events {
            guard case .tls(let tls) = e.kind else { continue }
            let side = SessionSide(actor: e.actor, connection: e.connection, peer: e.peer)
            if pairings[side] == nil {
                switch tls {
                case .handshakeSent(.clientHello, _), .tls13(.handshakeSent(.clientHello, _)): order.append(side)
                default: continue
                }
            }
            pairings[side, default: KeyLogPairing()].add(tls)
        }
        return order.compactMap { pairings[$0]?.entry }
    }

    /// Every TLS 1.2 session's client_random and master secret (``keyLogEntries``): what an NSS key
    /// log lists (`CLIENT_RANDOM <client_random> <master_secret>`).
    public var sessionSecrets: [(clientRandom: [UInt8], masterSecret: [UInt8])] {
        keyLogEntries.compactMap { entry in entry.masterSecret.map { (entry.clientRandom, $0) } }
    }

    /// One end of one TLS session: who, on which connection, facing whom.
    struct SessionSide: Hashable {
        var actor: Actor
        var connection: Int
        var peer: Actor?
    }

    /// Counts over the whole run: connections, handshakes, requests, round trips and time.
    public var statistics: RunStatistics {
        var st = RunStatistics()
        // False only for a real client's trace (`tlslab serve`): no event of the client at all.
        let clientTraced = events.contains { $0.actor == .client }
        var clientWaiting = false
        // The same count per connection: each one's own round trips until its first response.
        var waitingOn = Set<Int>(), tripsOn: [Int: Int] = [:], firstByteOn: [Int: Int] = [:]
        var connections = Set<Int>()
        var streams = Set<UInt32>()
        for e in events {
            switch e.kind {
            case .tcp(.sent(let p)) where e.actor == .client:
                let s = p.segment
                if s.flags.contains(.syn), s.ack == nil { connections.insert(e.connection) }
                if !s.payload.isEmpty || s.flags.contains(.syn) || s.flags.contains(.fin) {
                    clientWaiting = true
                    waitingOn.insert(e.connection)
                }
            case .tcp(.delivered(let p)) where e.actor == .client:
                let s = p.segment
                let carries = !s.payload.isEmpty || s.flags.contains(.syn) || s.flags.contains(.fin)
                if clientWaiting, carries {
                    st.roundTrips += 1
                    clientWaiting = false
                }
                if waitingOn.contains(e.connection), carries {
                    tripsOn[e.connection, default: 0] += 1
                    waitingOn.remove(e.connection)
                }
            case .tcp(.sent(let p)):
                st.bytesOnWire += p.segment.payload.count
                continue
            case .tls(.handshakeCompleted(let resumed)) where e.actor == .client || (e.actor == .server && !clientTraced):
                if resumed { st.abbreviatedHandshakes += 1 } else { st.fullHandshakes += 1 }
            case .http(.requestSent) where e.actor == .client:
                st.requests += 1
            case .http(.requestReceived) where e.actor == .server:
                st.requestsServed += 1
                if !clientTraced { st.requests += 1 }   // a real client (`tlslab serve`): its requests as received
            case .http(.responseSent) where e.actor == .server && !clientTraced:
                st.responses += 1
            case .http(.responseReceived) where e.actor == .client:
                st.responses += 1
                // The segment that brought the response's first byte ended the round trip counted last.
                if st.roundTripsToFirstByte == nil { st.roundTripsToFirstByte = st.roundTrips }
                if firstByteOn[e.connection] == nil { firstByteOn[e.connection] = tripsOn[e.connection, default: 0] }
                st.lastResponseTime = e.time
            case .compute(_, let d):
                st.cpuTime += d
            case .http2(.connectionError(let code, _)) where st.http2Error == nil,
                 .http2(.peerConnectionError(let code, _)) where st.http2Error == nil:
                st.http2Error = code.name
            case .http2(.frameSent(let f)) where e.actor == .client || e.actor == .server:
                st.usedHTTP2 = true
                if f.streamID != 0 { streams.insert(f.streamID) }
                if case .pushPromise(let promised, _) = f.frame.payload { streams.insert(promised); st.pushedResponses += 1 }
                if let hpack = f.hpack {
                    st.hpackRawBytes += hpack.rawSize
                    st.hpackEncodedBytes += hpack.encodedSize
                    if e.actor == .client, f.frame.type == .headers { st.requestHeaderBlocks.append(hpack.encodedSize) }
                }
            default:
                break
            }
            if case .tcp(.sent(let p)) = e.kind, e.actor == .client { st.bytesOnWire += p.segment.payload.count }
        }
        // A real peer's trace has no simulated TCP: one connection when a handshake began.
        st.connections = connections.isEmpty && events.contains(where: { if case .tls = $0.kind { true } else { false } }) ? 1 : connections.count
        st.http2Streams = streams.count
        st.roundTripsToFirstByteByConnection = firstByteOn.keys.sorted().compactMap { firstByteOn[$0] }
        st.duration = events.last?.time ?? 0
        return st
    }
}

/// Counts over a whole run (several connections and requests).
public struct RunStatistics: Sendable, Hashable {
    public var connections = 0
    public var fullHandshakes = 0
    public var abbreviatedHandshakes = 0
    /// Requests the client made: a request sent again after REFUSED_STREAM is the same request.
    public var requests = 0
    public var responses = 0
    /// Requests a server read, on every connection (a request that never reached it is not one).
    public var requestsServed = 0
    /// Round trips the client waited for: a client segment carrying something (SYN, data, FIN)
    /// answered by a server segment carrying something. Measured on the trace, not computed from
    /// a formula: TCP's handshake, each TLS flight, each request and the close each count.
    public var roundTrips = 0
    /// The round trips counted when the client received its first response (nil: none came) —
    /// what a user waits before the first byte, without the close.
    public var roundTripsToFirstByte: Int?
    /// The same for each connection that received a response, counted from its own SYN, in order:
    /// a resumed connection's is one less than a full handshake's.
    public var roundTripsToFirstByteByConnection: [Int] = []
    /// Virtual time (µs) when the client received its last response.
    public var lastResponseTime: Int64?
    /// Virtual time (µs) of the last event (TIME-WAIT included).
    public var duration: Int64 = 0
    /// Virtual CPU time charged for public-key operations (µs).
    public var cpuTime: Int64 = 0
    /// TCP payload bytes sent by every host.
    public var bytesOnWire = 0
    /// HTTP/2 only: the run used it; how many streams it opened (requests and pushes); the header
    /// blocks' octets of names and values vs. HPACK-encoded, over every block either side sent;
    /// each request's encoded header block size, in order; how many responses were pushed.
    public var usedHTTP2 = false
    public var http2Streams = 0
    public var hpackRawBytes = 0
    public var hpackEncodedBytes = 0
    public var requestHeaderBlocks: [Int] = []
    public var pushedResponses = 0
    /// HTTP/2 only: the error code of the first connection error (GOAWAY other than NO_ERROR, RFC 9113
    /// §5.4.1), by name; nil when no side ended a connection with one.
    public var http2Error: String?
}

/// The outcome of a run and the secrets each side ended with.
public struct RunSummary: Sendable, Hashable {
    public struct Failure: Sendable, Hashable {
        public var alert: AlertDescription
        public var sentBy: Actor
        /// Why it was sent, as a fact (``AlertCause/description`` is the JSON contract's English line).
        public var cause: AlertCause
    }

    /// Each random as its owner sent it (an on-path attacker may change it on the way).
    public var clientRandom: [UInt8]?
    public var serverRandom: [UInt8]?
    public var clientPreMaster: [UInt8]?
    public var serverPreMaster: [UInt8]?
    public var clientMaster: [UInt8]?
    public var serverMaster: [UInt8]?
    /// Each side's own Finished verify_data, as that side computed and sent it.
    public var clientVerifyData: [UInt8]?
    public var serverVerifyData: [UInt8]?
    public var cipherSuite: CipherSuite?
    public var version: ProtocolVersion?
    public var extendedMasterSecret = false
    public var resumed = false
    /// The application protocol ALPN agreed on (RFC 7301), nil when none was negotiated.
    public var applicationProtocol: ProtocolName?
    public var clientCompleted = false
    public var serverCompleted = false
    public var failure: Failure?
    /// The first ServerKeyExchange signature the client checked, and the first CertificateVerify
    /// signature the server checked, as each saw it on the wire (nil: none was checked).
    public var serverKeyExchangeSignature: SignatureTrace?
    public var certificateVerifySignature: SignatureTrace?
    /// False for plain HTTP (no TLS message at all).
    public var usedTLS = false
    /// The client's side is in the trace (false only for a traced real server, `tlslab serve`), and
    /// the server's (false only for `tlslab connect`).
    public var clientTraced = false
    public var serverTraced = false
    /// Someone besides client and server (an attacker's own TLS sessions) is in the trace.
    public var othersTraced = false
    /// The randoms as the traced side received them (used when the sender is not traced).
    var receivedClientRandom: [UInt8]?
    var receivedServerRandom: [UInt8]?
    /// A real peer's exchange failed after what the TLS events show (``HTTPEvent/failed(_:)``).
    public var exchangeFailure: ExchangeFailure?
    public var responsesReceived = 0

    public init() {}

    // The summary's values are per side, never merged. A value one side produces (a random, a
    // verify_data) is that side's, as it sent it. The shared secrets (premaster, master) are the
    // client's view: what the client derived on its connection (behind a MITM: its session with
    // the attacker), nil when the client never derived one — even if the server did, and even if
    // the server derived a different one (a tampered handshake). Only a trace without the client
    // (a real client, `tlslab serve`) shows the server's. Whether the sides agree: `sidesAgree`.

    public var preMasterSecret: [UInt8]? { clientTraced ? clientPreMaster : serverPreMaster }
    public var masterSecret: [UInt8]? { clientTraced ? clientMaster : serverMaster }

    /// True when both sides obtained the master secret and it is the same (false when they
    /// differ — a tampered handshake — or when one side never derived it).
    public var sidesAgree: Bool { clientMaster != nil && clientMaster == serverMaster }
}
