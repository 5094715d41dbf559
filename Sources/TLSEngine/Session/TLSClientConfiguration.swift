import TLSCrypto

/// Everything a ``TLSClient`` is told before it starts: what it offers in its ClientHello
/// (RFC 5246 §7.4.1.2), whom it trusts, and where its randomness comes from.
public struct TLSClientConfiguration {
    /// cipher_suites, in the client's order of preference.
    public var cipherSuites: [CipherSuite]
    /// The lowest and highest version the client accepts (client_version = the highest).
    public var minimumVersion: ProtocolVersion
    public var maximumVersion: ProtocolVersion
    /// server_name (RFC 6066 §3), and the name the certificate evaluator checks.
    public var serverName: String?
    /// Offer extended_master_secret (RFC 7627).
    public var offerExtendedMasterSecret: Bool
    /// Offer encrypt_then_mac (RFC 7366) when a CBC suite is offered. Off by default: the
    /// simulation's ClientHello stays as recorded; `tlslab connect` offers it, as OpenSSL does.
    public var offerEncryptThenMAC = false
    /// Send the SessionTicket extension (RFC 5077 §3.2): empty to ask for a ticket, or the ticket of
    /// ``session`` to resume by it. Off by default: the simulation's ClientHello stays as recorded;
    /// `tlslab connect` sends it, as OpenSSL's and GnuTLS's clients do.
    public var offerSessionTicket = false
    /// signature_algorithms (RFC 5246 §7.4.1.4.1), in preference order.
    public var signatureAlgorithms: [SignatureScheme]
    /// supported_groups for ECDHE (RFC 8422 §5.1.1), in preference order.
    public var supportedGroups: [NamedGroup]
    /// RFC 7919 §3: finite-field groups named in supported_groups (after the curves) when a DHE suite
    /// is offered, in preference order. Empty by default: once a client names one, a server MUST use
    /// one of them for DHE (RFC 7919 §4), so the simulation's ClientHello stays as recorded and its
    /// lessons' own DH groups (teaching groups, RFC 3526 MODP) stay reachable. `tlslab connect`
    /// names ffdhe2048 and ffdhe3072.
    public var finiteFieldGroups: [NamedGroup] = []
    /// What the client does when it named finite-field groups and the ServerKeyExchange carries a
    /// group that is none of them.
    public var unofferedDHGroups: UnofferedDHGroupPolicy = .acceptIfLargeEnough
    /// Send an empty renegotiation_info (RFC 5746 §3.4).
    public var sendRenegotiationInfo: Bool
    /// application_layer_protocol_negotiation (RFC 7301): the protocols offered, most preferred
    /// first. Empty (the default) sends no ALPN extension at all.
    public var applicationProtocols: [ProtocolName] = []
    /// A certificate and key for mutual TLS; nil sends an empty Certificate when asked.
    public var identity: TLSIdentity?
    /// The application cancels the client-certificate challenge (NSURLSession's
    /// CancelAuthenticationChallenge): a CertificateRequest ends the handshake with user_canceled
    /// instead of an answer.
    public var cancelsCertificateRequest = false
    /// A session to resume (its ID goes in the ClientHello).
    public var session: TLSSession?
    /// Decides about the server's certificate chain.
    public var certificateEvaluator: any PeerCertificateEvaluator
    /// Every random value of the client (randoms, premaster, DH/ECDH keys, CBC IVs, PSS salts).
    public var random: RandomSource
    /// The size of the client's DHE private exponent (see ``TLSServerConfiguration/dhExponentSize``).
    public var dhExponentSize: DHKeyPair.ExponentSize = .bits(256)
    /// The smallest server DH prime accepted (smaller → handshake_failure, as OpenSSL's "dh key too small").
    public var minimumDHPrimeBits: Int

    public init(certificateEvaluator: any PeerCertificateEvaluator, random: RandomSource,
                cipherSuites: [CipherSuite] = CipherSuite.implemented,
                minimumVersion: ProtocolVersion = .tls12, maximumVersion: ProtocolVersion = .tls12,
                serverName: String? = nil, offerExtendedMasterSecret: Bool = true,
                signatureAlgorithms: [SignatureScheme] = SignatureSchemes.defaultOffer,
                supportedGroups: [NamedGroup] = [.x25519, .secp256r1],
                sendRenegotiationInfo: Bool = true, identity: TLSIdentity? = nil,
                session: TLSSession? = nil, minimumDHPrimeBits: Int = 1024) {
        self.certificateEvaluator = certificateEvaluator
        self.random = random
        self.cipherSuites = cipherSuites
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.serverName = serverName
        self.offerExtendedMasterSecret = offerExtendedMasterSecret
        self.signatureAlgorithms = signatureAlgorithms
        self.supportedGroups = supportedGroups
        self.sendRenegotiationInfo = sendRenegotiationInfo
        self.identity = identity
        self.session = session
        self.minimumDHPrimeBits = minimumDHPrimeBits
    }
}

/// RFC 7919 §3 leaves a DH group the client did not name (a non-compliant or older server's own
/// parameters) to the client's local policy.
public enum UnofferedDHGroupPolicy: String, Sendable, Hashable, CaseIterable {
    /// Accept it when dh_p has at least ``TLSClientConfiguration/minimumDHPrimeBits`` (as the
    /// OpenSSL and GnuTLS clients do).
    case acceptIfLargeEnough
    /// Refuse it with insufficient_security.
    case refuse
}
