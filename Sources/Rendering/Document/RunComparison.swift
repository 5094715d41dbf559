import TLSEngine
import Trace

/// Two runs as facts to set side by side: what each negotiated, how many round trips its client
/// waited before the first byte of a response, which handshake messages crossed in the clear,
/// what an eavesdropper on the path could read, and what the server's key, stolen later, opens.
/// Every value is read from the run's own trace (its events and the bytes its network carried);
/// the words are `ComparisonPrinter`'s.
public struct RunComparison: Sendable {
    /// How the run's shared secret was agreed, as the negotiated suite or key share says.
    public enum KeyExchange: Sendable, Hashable {
        /// RSA key transport: the client encrypts the premaster secret to the server's certificate key.
        case rsaKeyTransport
        /// An ephemeral (EC)DHE exchange: a finite-field group (`DHE`) or a named curve.
        case ephemeral(String)
        /// No TLS key exchange completed (plain HTTP, a failed handshake before one).
        case none
    }

    /// What a key stolen from the server after the run opens of the recorded connection.
    public enum StolenKeyOpens: Sendable, Hashable {
        /// The premaster secret, so every key and record: it was encrypted to that key.
        case everything
        /// Nothing: the key only signed; the ephemeral private values are gone.
        case nothing
        /// No TLS session to open.
        case notApplicable
    }

    public struct Side: Sendable {
        public var name: String
        public var version: ProtocolVersion?
        public var suite: CipherSuite?
        public var keyExchange: KeyExchange
        public var roundTripsToFirstByte: Int?
        /// Handshake messages of the first connection whose exact bytes crossed the wire (in the
        /// clear), and those that did not (sent inside protected records).
        public var clearMessages: [HandshakeType] = []
        public var clearBytes = 0
        public var protectedMessages: [HandshakeType] = []
        public var protectedBytes = 0
        /// Whether the eavesdropper read it in the clear (nil: the run never sent it).
        public var serverNameInClear: Bool?
        public var certificateInClear: Bool?
        public var suiteInClear: Bool?
        public var stolenKeyOpens: StolenKeyOpens
        /// Who knew which secret at the end of the run.
        public var knowledge: KnowledgeTable
    }

    public var first: Side
    public var second: Side

    public init(_ first: (name: String, trace: Trace), _ second: (name: String, trace: Trace)) {
        self.first = Self.side(first.name, first.trace)
        self.second = Self.side(second.name, second.trace)
    }

    /// Round trips to the first response byte of the run's last connection that got one, counted
    /// from its own SYN: for a run of one connection the run's own count; for a resumption or
    /// 0-RTT run the resumed connection's, the one the run is about.
    static func roundTripsToFirstByte(_ statistics: RunStatistics) -> Int? {
        statistics.roundTripsToFirstByteByConnection.last ?? statistics.roundTripsToFirstByte
    }

    static func side(_ name: String, _ trace: Trace) -> Side {
        let summary = trace.summary
        var keyExchange = KeyExchange.none
        if let parameters = summary.cipherSuite?.parameters {
            switch parameters.keyExchange {
            case .rsa: keyExchange = .rsaKeyTransport
            case .dheRSA: keyExchange = .ephemeral("DHE")
            case .ecdheRSA, .ecdheECDSA: keyExchange = .ephemeral(Self.curve(trace) ?? "ECDHE")
            }
        } else if let group = Self.tls13Group(trace) {
            keyExchange = .ephemeral(group)
        }
        var side = Side(name: name, version: summary.version, suite: summary.cipherSuite, keyExchange: keyExchange,
                        roundTripsToFirstByte: Self.roundTripsToFirstByte(trace.statistics),
                        stolenKeyOpens: keyExchange == .rsaKeyTransport ? .everything : keyExchange == .none ? .notApplicable : .nothing,
                        knowledge: trace.knowledge)
        for message in trace.sentHandshakeMessages(connection: 0) {
            let clear = message.inClear
            if clear {
                side.clearMessages.append(message.type)
                side.clearBytes += message.bytes.count
            } else {
                side.protectedMessages.append(message.type)
                side.protectedBytes += message.bytes.count
            }
            switch message.type {
            case .clientHello where side.serverNameInClear == nil && message.namesAServer: side.serverNameInClear = clear
            case .certificate where message.actor == .server && side.certificateInClear == nil: side.certificateInClear = clear
            case .serverHello where side.suiteInClear == nil: side.suiteInClear = clear
            default: break
            }
        }
        return side
    }

    /// The curve of a TLS 1.2 ECDHE exchange, as the server's ServerKeyExchange named it.
    static func curve(_ trace: Trace) -> String? {
        for e in trace.events where e.connection == 0 && e.actor == .server {
            if case .tls(.handshakeSent(.serverKeyExchange(let ske), _)) = e.kind, case .ecdhe(let p) = ske.params { return p.namedGroup.description }
        }
        return nil
    }

    /// The group of a TLS 1.3 key share both sides used.
    static func tls13Group(_ trace: Trace) -> String? {
        for e in trace.events where e.connection == 0 {
            if case .tls(.tls13(.sharedSecret(let group, _, _, _, _))) = e.kind { return group.description }
        }
        return nil
    }
}
