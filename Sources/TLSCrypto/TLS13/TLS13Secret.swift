/// A secret of the TLS 1.3 key schedule, by its name in RFC 8446 §7.1's diagram. The raw value
/// is the name the JSON export and the NSS key log family use (`tls13_secret` objects).
public enum TLS13Secret: String, Sendable, Hashable, CaseIterable {
    /// HKDF-Extract(0, PSK): zeros without a PSK.
    case earlySecret = "early_secret"
    /// Derive-Secret(early_secret, "ext binder" | "res binder", ""): keys the PSK binder.
    case binderKey = "binder_key"
    /// Derive-Secret(early_secret, "c e traffic", ClientHello): protects 0-RTT data.
    case clientEarlyTrafficSecret = "client_early_traffic_secret"
    /// Derive-Secret(early_secret, "e exp master", ClientHello).
    case earlyExporterMasterSecret = "early_exporter_master_secret"
    /// Derive-Secret(early_secret, "derived", ""): the salt of the next extraction.
    case derivedFromEarlySecret = "derived_from_early_secret"
    /// HKDF-Extract(derived, (EC)DHE shared secret).
    case handshakeSecret = "handshake_secret"
    /// Derive-Secret(handshake_secret, "c hs traffic", ClientHello…ServerHello).
    case clientHandshakeTrafficSecret = "client_handshake_traffic_secret"
    /// Derive-Secret(handshake_secret, "s hs traffic", ClientHello…ServerHello).
    case serverHandshakeTrafficSecret = "server_handshake_traffic_secret"
    /// Derive-Secret(handshake_secret, "derived", ""): the salt of the last extraction.
    case derivedFromHandshakeSecret = "derived_from_handshake_secret"
    /// HKDF-Extract(derived, 0).
    case masterSecret = "master_secret"
    /// Derive-Secret(master_secret, "c ap traffic", ClientHello…server Finished).
    case clientApplicationTrafficSecret0 = "client_application_traffic_secret_0"
    /// Derive-Secret(master_secret, "s ap traffic", ClientHello…server Finished).
    case serverApplicationTrafficSecret0 = "server_application_traffic_secret_0"
    /// Derive-Secret(master_secret, "exp master", ClientHello…server Finished).
    case exporterMasterSecret = "exporter_master_secret"
    /// Derive-Secret(master_secret, "res master", ClientHello…client Finished): the root of the
    /// PSKs of later resumptions.
    case resumptionMasterSecret = "resumption_master_secret"
    /// HKDF-Expand-Label(resumption_master_secret, "resumption", ticket_nonce, Hash.length)
    /// (RFC 8446 §4.6.1): the PSK one NewSessionTicket stands for, a different one per ticket nonce.
    case resumptionPSK = "resumption_psk"

    /// The label Derive-Secret uses for this secret (RFC 8446 §7.1), or nil for an extracted one.
    /// The binder key's label depends on the PSK's kind, so it is given by ``binderLabel(resumption:)``.
    public var label: String? {
        switch self {
        case .earlySecret, .handshakeSecret, .masterSecret, .binderKey: return nil
        case .resumptionPSK: return "resumption"
        case .clientEarlyTrafficSecret: return "c e traffic"
        case .earlyExporterMasterSecret: return "e exp master"
        case .derivedFromEarlySecret, .derivedFromHandshakeSecret: return "derived"
        case .clientHandshakeTrafficSecret: return "c hs traffic"
        case .serverHandshakeTrafficSecret: return "s hs traffic"
        case .clientApplicationTrafficSecret0: return "c ap traffic"
        case .serverApplicationTrafficSecret0: return "s ap traffic"
        case .exporterMasterSecret: return "exp master"
        case .resumptionMasterSecret: return "res master"
        }
    }

    /// "res binder" for a PSK from an earlier connection's ticket, "ext binder" for one provisioned
    /// outside TLS (RFC 8446 §7.1): the two kinds cannot be substituted for each other.
    public static func binderLabel(resumption: Bool) -> String { resumption ? "res binder" : "ext binder" }

    /// The label of this secret in the NSS key log format that Wireshark reads (the SSLKEYLOGFILE
    /// format, draft-ietf-tls-keylogfile §3), when it has one.
    public var keyLogLabel: String? {
        switch self {
        case .clientEarlyTrafficSecret: return "CLIENT_EARLY_TRAFFIC_SECRET"
        case .clientHandshakeTrafficSecret: return "CLIENT_HANDSHAKE_TRAFFIC_SECRET"
        case .serverHandshakeTrafficSecret: return "SERVER_HANDSHAKE_TRAFFIC_SECRET"
        case .clientApplicationTrafficSecret0: return "CLIENT_TRAFFIC_SECRET_0"
        case .serverApplicationTrafficSecret0: return "SERVER_TRAFFIC_SECRET_0"
        case .earlyExporterMasterSecret: return "EARLY_EXPORTER_SECRET"
        case .exporterMasterSecret: return "EXPORTER_SECRET"
        default: return nil
        }
    }
}

/// Which handshake messages a Derive-Secret's transcript hash covers (RFC 8446 §7.1's
/// "Messages" argument): it binds each secret to the exact handshake so far.
public enum TLS13TranscriptPoint: String, Sendable, Hashable {
    /// The empty string: "derived" and the binder key.
    case empty
    /// ClientHello alone (early secrets: the server has said nothing yet).
    case clientHello = "client_hello"
    /// ClientHello…ServerHello (the handshake traffic secrets).
    case serverHello = "server_hello"
    /// ClientHello…server Finished (application traffic secrets, exporter).
    case serverFinished = "server_finished"
    /// ClientHello…client Finished (resumption master secret).
    case clientFinished = "client_finished"
}

/// One step of the key schedule as it happened: what was computed from what (RFC 8446 §7.1).
public struct TLS13KeyScheduleStep: Sendable, Hashable {
    /// What the input keying material of an extraction was.
    public enum InputKeyingMaterial: String, Sendable, Hashable {
        /// Hash.length zero bytes: no PSK (early secret) or nothing more to add (master secret).
        case zeros
        /// The pre-shared key (a resumption ticket's PSK or an external one).
        case preSharedKey = "pre_shared_key"
        /// The (EC)DHE shared secret of the key_share exchange.
        case sharedSecret = "shared_secret"
    }

    /// How the secret was computed.
    public enum Derivation: Sendable, Hashable {
        /// HKDF-Extract(salt, IKM); `salt` is the previous "derived" secret (nil: zeros, for the
        /// early secret).
        case extract(salt: TLS13Secret?, ikm: InputKeyingMaterial)
        /// Derive-Secret(`from`, `label`, Messages) over the transcript up to `through`.
        case deriveSecret(from: TLS13Secret, label: String, through: TLS13TranscriptPoint, transcriptHash: [UInt8])
        /// HKDF-Expand-Label(`from`, `label`, `context`, Hash.length): a context that is not a
        /// transcript hash (the ticket nonce of a resumption PSK, RFC 8446 §4.6.1).
        case expandLabel(from: TLS13Secret, label: String, context: [UInt8])
    }

    public var secret: TLS13Secret
    public var derivation: Derivation
    public var value: [UInt8]
    /// HKDF's hash (the suite's, RFC 8446 §7.1).
    public var hash: TLS13Hash
    /// The values the step was computed from, so that it can be redone: the HMAC key, which is an
    /// extraction's salt (Hash.length zeros for the early secret) or the Secret an expansion expands;
    /// an extraction's IKM (Hash.length zeros when there is none); an expansion's encoded
    /// `HkdfLabel` (its `info`).
    public var key: [UInt8]
    public var inputKeyingMaterial: [UInt8]?
    public var hkdfLabel: [UInt8]?

    public init(secret: TLS13Secret, derivation: Derivation, value: [UInt8], hash: TLS13Hash, key: [UInt8],
                inputKeyingMaterial: [UInt8]? = nil, hkdfLabel: [UInt8]? = nil) {
        self.secret = secret
        self.derivation = derivation
        self.value = value
        self.hash = hash
        self.key = key
        self.inputKeyingMaterial = inputKeyingMaterial
        self.hkdfLabel = hkdfLabel
    }
}
