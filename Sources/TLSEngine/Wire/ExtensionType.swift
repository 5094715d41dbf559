/// RFC 5246 §7.4.1.4: `enum { signature_algorithms(13), (65535) } ExtensionType;` with the IANA
/// "TLS ExtensionType Values" names TLSLab knows (RFC 6066, 8422, 7627, 5746, 5077, 7366, 7301, …).
public struct ExtensionType: CodePoint {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let serverName = ExtensionType(rawValue: 0)
    public static let maxFragmentLength = ExtensionType(rawValue: 1)
    public static let statusRequest = ExtensionType(rawValue: 5)
    public static let supportedGroups = ExtensionType(rawValue: 10)
    public static let ecPointFormats = ExtensionType(rawValue: 11)
    public static let signatureAlgorithms = ExtensionType(rawValue: 13)
    public static let useSRTP = ExtensionType(rawValue: 14)
    public static let heartbeat = ExtensionType(rawValue: 15)
    public static let applicationLayerProtocolNegotiation = ExtensionType(rawValue: 16)
    public static let signedCertificateTimestamp = ExtensionType(rawValue: 18)
    public static let padding = ExtensionType(rawValue: 21)
    public static let encryptThenMAC = ExtensionType(rawValue: 22)
    public static let extendedMasterSecret = ExtensionType(rawValue: 23)
    public static let recordSizeLimit = ExtensionType(rawValue: 28)
    public static let sessionTicket = ExtensionType(rawValue: 35)
    public static let preSharedKey = ExtensionType(rawValue: 41)
    public static let supportedVersions = ExtensionType(rawValue: 43)
    public static let pskKeyExchangeModes = ExtensionType(rawValue: 45)
    public static let signatureAlgorithmsCert = ExtensionType(rawValue: 50)
    public static let keyShare = ExtensionType(rawValue: 51)
    public static let renegotiationInfo = ExtensionType(rawValue: 65281)

    public static let names: [UInt16: String] = [
        0: "server_name",
        1: "max_fragment_length",
        5: "status_request",
        10: "supported_groups",
        11: "ec_point_formats",
        13: "signature_algorithms",
        14: "use_srtp",
        15: "heartbeat",
        16: "application_layer_protocol_negotiation",
        18: "signed_certificate_timestamp",
        21: "padding",
        22: "encrypt_then_mac",
        23: "extended_master_secret",
        28: "record_size_limit",
        35: "session_ticket",
        41: "pre_shared_key",
        43: "supported_versions",
        45: "psk_key_exchange_modes",
        50: "signature_algorithms_cert",
        51: "key_share",
        65281: "renegotiation_info",
    ]
}
