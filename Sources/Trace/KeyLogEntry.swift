import TLSCrypto
import TLSEngine

/// One connection's secrets for an NSS key log: TLS 1.2's master secret (one `CLIENT_RANDOM
/// <client_random> <master_secret>` line), or TLS 1.3's labelled secrets (`CLIENT_HANDSHAKE_TRAFFIC_SECRET
/// <client_random> <secret>` and the others, RFC 8446 §7.1), each keyed by the connection's client_random.
public struct KeyLogEntry: Sendable, Hashable {
    public enum Secrets: Sendable, Hashable {
        /// TLS 1.2: every record key comes from the master secret (RFC 5246 §6.3).
        case tls12(masterSecret: [UInt8])
        /// TLS 1.3: the key schedule's steps, in the order it made them; a record key comes from one
        /// traffic secret of its direction and phase (RFC 8446 §7.3).
        case tls13([TLS13KeyScheduleStep])
    }

    public var clientRandom: [UInt8]
    public var secrets: Secrets

    public init(clientRandom: [UInt8], secrets: Secrets) {
        self.clientRandom = clientRandom
        self.secrets = secrets
    }

    /// The TLS 1.2 master secret, when the connection spoke TLS 1.2.
    public var masterSecret: [UInt8]? {
        if case .tls12(let secret) = secrets { return secret }
        return nil
    }
}

/// The one place a TLS session's client_random is paired with its secrets for an NSS key log.
/// Fed the TLS events of one side of one session in order, it keeps:
/// - the client_random of the first ClientHello that side sent or received (the decoded message,
///   or a TLS 1.3 ClientHello's bytes: type ‖ length ‖ legacy_version ‖ random, RFC 8446 §4.1.2);
/// - TLS 1.2's master secret, the last one derived or resumed: a resumed connection hashes its own
///   new randoms with the session's master secret (RFC 5246 Appendix F.1.4), found however the
///   session was offered (by ID, or in a ticket whose session ID the client made up, RFC 5077 §3.4);
/// - TLS 1.3's secrets that have a key-log label, in the order the key schedule made them.
///
/// A real peer's recorder feeds it every event as it goes by, kept in the trace or not
/// (`TraceRecorder`); ``Trace/keyLogEntries`` feeds one per side of each session of a run.
public struct KeyLogPairing: Sendable, Hashable {
    private var clientRandom: [UInt8]?
    private var masterSecret: [UInt8]?
    private var tls13Secrets: [TLS13KeyScheduleStep] = []

    public init() {}

    public mutating func add(_ event: TLSEvent) {
        switch event {
        case .handshakeSent(.clientHello(let hello), _), .handshakeReceived(.clientHello(let hello), _):
            clientRandom = clientRandom ?? hello.random.bytes
        case .derived(.masterSecret(_, _, _, _, let secret)), .sessionResumed(_, let secret):
            masterSecret = secret
        case .tls13(.handshakeSent(.clientHello, let bytes)), .tls13(.handshakeReceived(.clientHello, let bytes)):
            if clientRandom == nil, bytes.count >= 38 { clientRandom = Array(bytes[6..<38]) }
        case .tls13(.keySchedule(let step)) where step.secret.keyLogLabel != nil:
            tls13Secrets.append(step)
        default:
            break
        }
    }

    /// The session's entry: nil until there is a client_random and a secret a key log lists.
    public var entry: KeyLogEntry? {
        guard let clientRandom else { return nil }
        if let masterSecret { return KeyLogEntry(clientRandom: clientRandom, secrets: .tls12(masterSecret: masterSecret)) }
        guard !tls13Secrets.isEmpty else { return nil }
        return KeyLogEntry(clientRandom: clientRandom, secrets: .tls13(tls13Secrets))
    }
}
