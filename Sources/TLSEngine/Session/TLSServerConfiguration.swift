import TLSCrypto

/// Everything a ``TLSServer`` is told before a ClientHello arrives: its certificate and key,
/// what it accepts, in its own order of preference (RFC 5246 §7.4.1.3), and its randomness.
public struct TLSServerConfiguration {
    public var identity: TLSIdentity
    /// Suites in the server's preference order; the server picks the first the client offers.
    public var cipherSuites: [CipherSuite]
    public var minimumVersion: ProtocolVersion
    public var maximumVersion: ProtocolVersion
    /// The DHE group (default RFC 3526 group 14, as OpenSSL 3; ``DHGroup/ffdhe2048`` selectable).
    public var dhGroup: DHGroup
    /// The RFC 7919 groups the server accepts when a client names finite-field groups in
    /// supported_groups, in its order of preference; then one of them is used for DHE (RFC 7919 §4).
    public var finiteFieldGroups: [DHGroup] = [.ffdhe2048, .ffdhe3072, .ffdhe4096]
    /// The size of this side's DHE private exponent: 256 bits by default (RFC 7919 §5.2 short exponents,
    /// as OpenSSL does for 2048-bit groups); `.full` draws it uniformly below p − 1.
    public var dhExponentSize: DHKeyPair.ExponentSize = .bits(256)
    /// ECDHE curves in preference order. A client that sends no supported_groups gets secp256r1
    /// when it is listed here (RFC 8422 §4 leaves the choice to the server; P-256 is the curve every
    /// ECC implementation has, and OpenSSL's choice), else the first.
    public var curves: [ECDHCurve]
    /// Accept extended_master_secret (RFC 7627) when the client offers it.
    public var extendedMasterSecret: Bool
    /// Answer a client's encrypt_then_mac (RFC 7366) when the chosen suite is CBC, as OpenSSL does.
    public var encryptThenMAC = true
    public var clientAuthentication: ClientAuthentication
    /// Decides about a client's chain; required when `clientAuthentication` is not `.none`.
    public var clientCertificateEvaluator: (any PeerCertificateEvaluator)?
    /// Signature schemes the server can sign with, in its fallback order.
    public var signatureAlgorithms: [SignatureScheme]
    /// The schemes a CertificateRequest lists, in order: a client's CertificateVerify must use one
    /// (default: OpenSSL 3.0's order without SHA-1, RFC 9155).
    public var certificateRequestSignatureAlgorithms: [SignatureScheme] = SignatureSchemes.certificateRequestDefault
    /// Cache for session resumption; nil turns resumption off (empty session_id).
    public var sessionCache: TLSSessionCache?
    /// Session tickets (RFC 5077): with keys, a client that sends the SessionTicket extension gets
    /// a NewSessionTicket after a full handshake, and a ticket it offers resumes its session when
    /// it opens and matches (otherwise a full handshake, §3.4). nil: the extension is ignored.
    public var sessionTicketKeys: SessionTicketKeys? = nil
    /// ticket_lifetime_hint in seconds (RFC 5077 §3.3), chosen by the driver: the engine reads no clock.
    public var ticketLifetimeHint: UInt32 = 0
    /// How long a session is resumed, by session ID or ticket, after its full handshake; nil: no
    /// limit. The engine reads no clock: the driver passes its reading with each receive
    /// (``TLSServer/receive(_:at:)``); without readings no session's age is known and, with a
    /// lifetime set, none is resumed. With a lifetime, a ticket's hint is the lifetime left.
    public var sessionLifetime: SessionLifetime? = nil
    /// The application protocols this server speaks for ALPN (RFC 7301), in its order of preference.
    /// Empty (the default): the server does not support ALPN and ignores the client's extension.
    public var applicationProtocols: [ProtocolName] = []
    /// Whose order decides when several protocols are in common (RFC 7301 §3.2: the server's).
    public var applicationProtocolSelection: ApplicationProtocolSelection = .serverPreference
    /// The final say once the suite is known (default: RFC 7301's choice by `applicationProtocolSelection`).
    public var applicationProtocolStrategy: ApplicationProtocolStrategy = { $0.choice }
    /// This server also speaks TLS 1.3 (``DualVersionServer``): when it negotiates TLS 1.2 or
    /// older, the last 8 bytes of ServerHello.random are the downgrade sentinel (RFC 8446 §4.1.3).
    public var writesDowngradeSentinel = false
    public var random: RandomSource

    public init(identity: TLSIdentity, random: RandomSource,
                cipherSuites: [CipherSuite] = CipherSuite.allImplementedWithECDSA,
                minimumVersion: ProtocolVersion = .tls12, maximumVersion: ProtocolVersion = .tls12,
                dhGroup: DHGroup = .modp2048, curves: [ECDHCurve] = [.x25519, .secp256r1, .secp384r1, .secp521r1],
                extendedMasterSecret: Bool = true, clientAuthentication: ClientAuthentication = .none,
                clientCertificateEvaluator: (any PeerCertificateEvaluator)? = nil,
                signatureAlgorithms: [SignatureScheme] = SignatureSchemes.defaultOffer,
                sessionCache: TLSSessionCache? = nil) {
        self.identity = identity
        self.random = random
        self.cipherSuites = cipherSuites
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.dhGroup = dhGroup
        self.curves = curves
        self.extendedMasterSecret = extendedMasterSecret
        self.clientAuthentication = clientAuthentication
        self.clientCertificateEvaluator = clientCertificateEvaluator
        self.signatureAlgorithms = signatureAlgorithms
        self.sessionCache = sessionCache
    }
}
