/// RFC 5246 §7.2: `enum { close_notify(0), unexpected_message(10), ... (255) } AlertDescription;`
/// Every RFC 5246 description, the reserved SSL 3.0/TLS 1.0 ones, and inappropriate_fallback
/// (RFC 7507), unsupported_extension and unrecognized_name (RFC 6066), no_application_protocol
/// (RFC 7301 §3.2), and the descriptions TLS 1.3 added (RFC 8446 §6): missing_extension,
/// bad_certificate_status_response, unknown_psk_identity, certificate_required.
public struct AlertDescription: CodePoint {
    public static var registry: CodePointRegistry { .alertDescription }
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let closeNotify = AlertDescription(rawValue: 0)
    public static let unexpectedMessage = AlertDescription(rawValue: 10)
    public static let badRecordMAC = AlertDescription(rawValue: 20)
    public static let decryptionFailedReserved = AlertDescription(rawValue: 21)
    public static let recordOverflow = AlertDescription(rawValue: 22)
    public static let decompressionFailure = AlertDescription(rawValue: 30)
    public static let handshakeFailure = AlertDescription(rawValue: 40)
    public static let noCertificateReserved = AlertDescription(rawValue: 41)
    public static let badCertificate = AlertDescription(rawValue: 42)
    public static let unsupportedCertificate = AlertDescription(rawValue: 43)
    public static let certificateRevoked = AlertDescription(rawValue: 44)
    public static let certificateExpired = AlertDescription(rawValue: 45)
    public static let certificateUnknown = AlertDescription(rawValue: 46)
    public static let illegalParameter = AlertDescription(rawValue: 47)
    public static let unknownCA = AlertDescription(rawValue: 48)
    public static let accessDenied = AlertDescription(rawValue: 49)
    public static let decodeError = AlertDescription(rawValue: 50)
    public static let decryptError = AlertDescription(rawValue: 51)
    public static let exportRestrictionReserved = AlertDescription(rawValue: 60)
    public static let protocolVersion = AlertDescription(rawValue: 70)
    public static let insufficientSecurity = AlertDescription(rawValue: 71)
    public static let internalError = AlertDescription(rawValue: 80)
    public static let inappropriateFallback = AlertDescription(rawValue: 86)
    public static let userCanceled = AlertDescription(rawValue: 90)
    public static let noRenegotiation = AlertDescription(rawValue: 100)
    /// RFC 8446 §6.2: a message lacks an extension this version requires in it.
    public static let missingExtension = AlertDescription(rawValue: 109)
    public static let unsupportedExtension = AlertDescription(rawValue: 110)
    public static let unrecognizedName = AlertDescription(rawValue: 112)
    public static let badCertificateStatusResponse = AlertDescription(rawValue: 113)
    public static let unknownPSKIdentity = AlertDescription(rawValue: 115)
    /// RFC 8446 §6.2: the server requires a client certificate and the client sent none.
    public static let certificateRequired = AlertDescription(rawValue: 116)
    /// RFC 7301 §3.2: the server supports none of the application protocols the client offered.
    public static let noApplicationProtocol = AlertDescription(rawValue: 120)

    public static let names: [UInt8: String] = [
        0: "close_notify",
        10: "unexpected_message",
        20: "bad_record_mac",
        21: "decryption_failed_RESERVED",
        22: "record_overflow",
        30: "decompression_failure",
        40: "handshake_failure",
        41: "no_certificate_RESERVED",
        42: "bad_certificate",
        43: "unsupported_certificate",
        44: "certificate_revoked",
        45: "certificate_expired",
        46: "certificate_unknown",
        47: "illegal_parameter",
        48: "unknown_ca",
        49: "access_denied",
        50: "decode_error",
        51: "decrypt_error",
        60: "export_restriction_RESERVED",
        70: "protocol_version",
        71: "insufficient_security",
        80: "internal_error",
        86: "inappropriate_fallback",
        90: "user_canceled",
        100: "no_renegotiation",
        109: "missing_extension",
        110: "unsupported_extension",
        112: "unrecognized_name",
        113: "bad_certificate_status_response",
        115: "unknown_psk_identity",
        116: "certificate_required",
        120: "no_application_protocol",
    ]
}
