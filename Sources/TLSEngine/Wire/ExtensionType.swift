/// RFC 5246 §7.4.1.4: `enum { signature_algorithms(13), (65535) } ExtensionType;` with the IANA
/// "TLS ExtensionType Values" names TLSLab knows (RFC 6066, 8422, 7627, 5746, 5077, 7366, 7301, …).
public struct ExtensionType: CodePoint {
    public static var registry: CodePointRegistry { .extensionType }
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let serverName = ExtensionType(rawValue: 0x0000)
    public static let maxFragmentLength = ExtensionType(rawValue: 0x0001)
    public static let statusRequest = ExtensionType(rawValue: 0x0005)
    public static let supportedGroups = ExtensionType(rawValue: 0x000a)
    public static let ecPointFormats = ExtensionType(rawValue: 0x000b)
    public static let signatureAlgorithms = ExtensionType(rawValue: 0x000d)
    public static let useSRTP = ExtensionType(rawValue: 0x000e)
    public static let heartbeat = ExtensionType(rawValue: 0x000f)
    public static let applicationLayerProtocolNegotiation = ExtensionType(rawValue: 0x0010)
    public static let signedCertificateTimestamp = ExtensionType(rawValue: 0x0012)
    public static let padding = ExtensionType(rawValue: 0x0015)
    public static let encryptThenMAC = ExtensionType(rawValue: 0x0016)
    public static let extendedMasterSecret = ExtensionType(rawValue: 0x0017)
    public static let recordSizeLimit = ExtensionType(rawValue: 0x001c)
    public static let sessionTicket = ExtensionType(rawValue: 0x0023)
    public static let preSharedKey = ExtensionType(rawValue: 0x0029)
    public static let earlyData = ExtensionType(rawValue: 0x002a)
    public static let supportedVersions = ExtensionType(rawValue: 0x002b)
    public static let cookie = ExtensionType(rawValue: 0x002c)
    public static let pskKeyExchangeModes = ExtensionType(rawValue: 0x002d)
    public static let certificateAuthorities = ExtensionType(rawValue: 0x002f)
    public static let oidFilters = ExtensionType(rawValue: 0x0030)
    public static let postHandshakeAuth = ExtensionType(rawValue: 0x0031)
    public static let signatureAlgorithmsCert = ExtensionType(rawValue: 0x0032)
    public static let keyShare = ExtensionType(rawValue: 0x0033)
    public static let renegotiationInfo = ExtensionType(rawValue: 0xff01)

    public static let names: [UInt16: String] = [
        0x0000: "server_name",
        0x0001: "max_fragment_length",
        0x0005: "status_request",
        0x000a: "supported_groups",
        0x000b: "ec_point_formats",
        0x000d: "signature_algorithms",
        0x000e: "use_srtp",
        0x000f: "heartbeat",
        0x0010: "application_layer_protocol_negotiation",
        0x0012: "signed_certificate_timestamp",
        0x0015: "padding",
        0x0016: "encrypt_then_mac",
        0x0017: "extended_master_secret",
        0x001c: "record_size_limit",
        0x0023: "session_ticket",
        0x0029: "pre_shared_key",
        0x002a: "early_data",
        0x002b: "supported_versions",
        0x002c: "cookie",
        0x002d: "psk_key_exchange_modes",
        0x002f: "certificate_authorities",
        0x0030: "oid_filters",
        0x0031: "post_handshake_auth",
        0x0032: "signature_algorithms_cert",
        0x0033: "key_share",
        0xff01: "renegotiation_info",
    ]
}
