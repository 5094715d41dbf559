/// RFC 5246 §7.4.1.2: `uint8 CipherSuite[2];` — named as in the IANA "TLS Cipher Suites" registry.
///
/// `parameters` gives the negotiated algorithms for the suites TLSLab implements (RFC 5246
/// Appendix A.5 and C, RFC 5288, RFC 5289, RFC 7905); the other names are for display only.
public struct CipherSuite: CodePoint {
    public static var registry: CodePointRegistry { .cipherSuite }
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    // Implemented by TLSLab.
    public static let TLS_RSA_WITH_AES_128_CBC_SHA = CipherSuite(rawValue: 0x002f)
    public static let TLS_RSA_WITH_AES_128_GCM_SHA256 = CipherSuite(rawValue: 0x009c)
    public static let TLS_RSA_WITH_AES_256_GCM_SHA384 = CipherSuite(rawValue: 0x009d)
    public static let TLS_DHE_RSA_WITH_AES_128_GCM_SHA256 = CipherSuite(rawValue: 0x009e)
    public static let TLS_DHE_RSA_WITH_AES_128_CBC_SHA256 = CipherSuite(rawValue: 0x0067)
    public static let TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 = CipherSuite(rawValue: 0xc02f)
    public static let TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 = CipherSuite(rawValue: 0xc030)
    public static let TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 = CipherSuite(rawValue: 0xc02b)
    public static let TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 = CipherSuite(rawValue: 0xc02c)
    public static let TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA = CipherSuite(rawValue: 0xc009)
    public static let TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA = CipherSuite(rawValue: 0xc00a)
    public static let TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256 = CipherSuite(rawValue: 0xc023)
    public static let TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384 = CipherSuite(rawValue: 0xc024)
    // CBC suites beyond the default offer (RFC 5246 Appendix A.5, RFC 4492 §6, RFC 5289 §3.2):
    // what TLS 1.2 peers and conformance suites still offer by default.
    public static let TLS_DHE_RSA_WITH_AES_128_CBC_SHA = CipherSuite(rawValue: 0x0033)
    public static let TLS_RSA_WITH_AES_256_CBC_SHA = CipherSuite(rawValue: 0x0035)
    public static let TLS_DHE_RSA_WITH_AES_256_CBC_SHA = CipherSuite(rawValue: 0x0039)
    public static let TLS_RSA_WITH_AES_128_CBC_SHA256 = CipherSuite(rawValue: 0x003c)
    public static let TLS_RSA_WITH_AES_256_CBC_SHA256 = CipherSuite(rawValue: 0x003d)
    public static let TLS_DHE_RSA_WITH_AES_256_CBC_SHA256 = CipherSuite(rawValue: 0x006b)
    public static let TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA = CipherSuite(rawValue: 0xc013)
    public static let TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA = CipherSuite(rawValue: 0xc014)
    public static let TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256 = CipherSuite(rawValue: 0xc027)
    public static let TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384 = CipherSuite(rawValue: 0xc028)
    // RFC 7905 (ChaCha20-Poly1305) and RFC 5288 (AES-256-GCM with DHE): accepted by a server by
    // default and offered by `tlslab connect`, never in the simulation's default offer.
    public static let TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 = CipherSuite(rawValue: 0xcca8)
    public static let TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 = CipherSuite(rawValue: 0xcca9)
    public static let TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256 = CipherSuite(rawValue: 0xccaa)
    public static let TLS_DHE_RSA_WITH_AES_256_GCM_SHA384 = CipherSuite(rawValue: 0x009f)

    // Signalling values.
    /// RFC 5746 §3.3: the client supports secure renegotiation (instead of an empty renegotiation_info).
    public static let TLS_EMPTY_RENEGOTIATION_INFO_SCSV = CipherSuite(rawValue: 0x00ff)
    /// RFC 7507 §2: the client is retrying with a lower version than it supports.
    public static let TLS_FALLBACK_SCSV = CipherSuite(rawValue: 0x5600)
    /// RFC 5246 §A.5: the initial state of a connection; never negotiated.
    public static let TLS_NULL_WITH_NULL_NULL = CipherSuite(rawValue: 0x0000)

    /// The suites TLSLab implements, in the default server preference order (forward secret and
    /// AEAD first).
    public static let implemented: [CipherSuite] = [
        .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256,
        .TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_RSA_WITH_AES_128_CBC_SHA,
    ]

    /// The CBC suites TLSLab also implements but does not offer or accept unless asked
    /// (`--suite`, `suites:`): forward-secret first, then by key size and MAC, as OpenSSL orders them.
    /// Kept out of ``implemented`` so that the default ClientHello (and every recorded run) stays as it is.
    public static let additionalCBC: [CipherSuite] = [
        .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384,
        .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
        .TLS_DHE_RSA_WITH_AES_256_CBC_SHA256, .TLS_DHE_RSA_WITH_AES_128_CBC_SHA, .TLS_DHE_RSA_WITH_AES_256_CBC_SHA,
        .TLS_RSA_WITH_AES_128_CBC_SHA256, .TLS_RSA_WITH_AES_256_CBC_SHA256, .TLS_RSA_WITH_AES_256_CBC_SHA,
    ]

    /// The AEAD suites beyond the default offer (RFC 7905 ChaCha20-Poly1305, RFC 5288 AES-256-GCM with
    /// DHE), RSA-authenticated. Kept out of ``implemented`` so that the default ClientHello (and every
    /// recorded run) stays as it is; a server accepts them after the default list.
    public static let additionalAEAD: [CipherSuite] = [
        .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_DHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    /// Every suite TLSLab can negotiate with an RSA certificate: the default list, then
    /// ``additionalAEAD``, then ``additionalCBC``.
    public static let allImplemented: [CipherSuite] = implemented + additionalAEAD + additionalCBC

    /// The ECDSA-authenticated suites (RFC 8422 §6, RFC 5289 §3.2), for a server whose certificate
    /// has an EC key: AEAD first, then CBC as ``additionalCBC`` orders it. Not in ``implemented`` or
    /// ``allImplemented`` (the RSA-authenticated ones), so the default ClientHello stays as it is.
    public static let implementedECDSA: [CipherSuite] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256, .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384,
        .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,
    ]

    /// What `tlslab connect` offers by default: the ECDSA AEAD suites, then ``implemented``.
    public static let offerWithECDSA: [CipherSuite] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    ] + implemented

    /// Every suite TLSLab can negotiate (``allImplementedWithECDSA``), in the order OpenSSL 3.0's
    /// DEFAULT list prefers them (`openssl ciphers -s -tls1_2 DEFAULT`: AES-256-GCM before AES-128-GCM,
    /// then the CBC suites with SHA-384/SHA-256, then SHA-1; ECDHE_ECDSA, ECDHE_RSA, DHE_RSA within
    /// each; static RSA last). What `tlslab connect` offers by default, so that a server accepting any
    /// one suite TLSLab implements finds it in the ClientHello.
    public static let openSSLOrder: [CipherSuite] = [
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, .TLS_DHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        .TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, .TLS_DHE_RSA_WITH_AES_256_CBC_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, .TLS_DHE_RSA_WITH_AES_256_CBC_SHA,
        .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, .TLS_DHE_RSA_WITH_AES_128_CBC_SHA,
        .TLS_RSA_WITH_AES_256_GCM_SHA384, .TLS_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_RSA_WITH_AES_256_CBC_SHA256, .TLS_RSA_WITH_AES_128_CBC_SHA256,
        .TLS_RSA_WITH_AES_256_CBC_SHA, .TLS_RSA_WITH_AES_128_CBC_SHA,
    ]

    /// Every suite TLSLab can negotiate, with either kind of certificate: what a server accepts by
    /// default (it skips those its certificate key cannot authenticate).
    public static let allImplementedWithECDSA: [CipherSuite] = implementedECDSA + allImplemented

    /// True for the SCSVs, which are not real suites.
    public var isSignalingValue: Bool { self == .TLS_EMPTY_RENEGOTIATION_INFO_SCSV || self == .TLS_FALLBACK_SCSV }

    public static let names: [UInt16: String] = [
        0x0000: "TLS_NULL_WITH_NULL_NULL",
        0x0001: "TLS_RSA_WITH_NULL_MD5",
        0x0002: "TLS_RSA_WITH_NULL_SHA",
        0x0004: "TLS_RSA_WITH_RC4_128_MD5",
        0x0005: "TLS_RSA_WITH_RC4_128_SHA",
        0x000a: "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
        0x0016: "TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA",
        0x002f: "TLS_RSA_WITH_AES_128_CBC_SHA",
        0x0033: "TLS_DHE_RSA_WITH_AES_128_CBC_SHA",
        0x0035: "TLS_RSA_WITH_AES_256_CBC_SHA",
        0x0039: "TLS_DHE_RSA_WITH_AES_256_CBC_SHA",
        0x003c: "TLS_RSA_WITH_AES_128_CBC_SHA256",
        0x003d: "TLS_RSA_WITH_AES_256_CBC_SHA256",
        0x0067: "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256",
        0x006b: "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256",
        0x009c: "TLS_RSA_WITH_AES_128_GCM_SHA256",
        0x009d: "TLS_RSA_WITH_AES_256_GCM_SHA384",
        0x009e: "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256",
        0x009f: "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384",
        0x00ff: "TLS_EMPTY_RENEGOTIATION_INFO_SCSV",
        0x1301: "TLS_AES_128_GCM_SHA256",
        0x1302: "TLS_AES_256_GCM_SHA384",
        0x1303: "TLS_CHACHA20_POLY1305_SHA256",
        0x5600: "TLS_FALLBACK_SCSV",
        0xc009: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
        0xc00a: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
        0xc013: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
        0xc014: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
        0xc023: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
        0xc024: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
        0xc027: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
        0xc028: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
        0xc02b: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        0xc02c: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        0xc02f: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        0xc030: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        0xcca8: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        0xcca9: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        0xccaa: "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    ]
}
