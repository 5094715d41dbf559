/// RFC 5246 §7.4.4: `enum { rsa_sign(1), dss_sign(2), rsa_fixed_dh(3), dss_fixed_dh(4), rsa_ephemeral_dh_RESERVED(5), dss_ephemeral_dh_RESERVED(6), fortezza_dms_RESERVED(20), (255) } ClientCertificateType;`
/// (ecdsa_sign(64) and friends from RFC 8422 §5.5).
public struct ClientCertificateType: CodePoint {
    public static var registry: CodePointRegistry { .clientCertificateType }
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let rsaSign = ClientCertificateType(rawValue: 1)
    public static let dssSign = ClientCertificateType(rawValue: 2)
    public static let rsaFixedDH = ClientCertificateType(rawValue: 3)
    public static let dssFixedDH = ClientCertificateType(rawValue: 4)
    public static let rsaEphemeralDHReserved = ClientCertificateType(rawValue: 5)
    public static let dssEphemeralDHReserved = ClientCertificateType(rawValue: 6)
    public static let fortezzaDMSReserved = ClientCertificateType(rawValue: 20)
    public static let ecdsaSign = ClientCertificateType(rawValue: 64)
    public static let rsaFixedECDH = ClientCertificateType(rawValue: 65)
    public static let ecdsaFixedECDH = ClientCertificateType(rawValue: 66)

    public static let names: [UInt8: String] = [
        1: "rsa_sign",
        2: "dss_sign",
        3: "rsa_fixed_dh",
        4: "dss_fixed_dh",
        5: "rsa_ephemeral_dh_RESERVED",
        6: "dss_ephemeral_dh_RESERVED",
        20: "fortezza_dms_RESERVED",
        64: "ecdsa_sign",
        65: "rsa_fixed_ecdh",
        66: "ecdsa_fixed_ecdh",
    ]
}
