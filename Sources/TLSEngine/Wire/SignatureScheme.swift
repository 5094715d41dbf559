/// RFC 8446 §4.2.3 `SignatureScheme`: the TLS 1.3 names of the two bytes that TLS 1.2 sends as
/// `SignatureAndHashAlgorithm` (RFC 5246 §7.4.1.4.1): the first byte is the hash, the second the
/// signature algorithm, except for the RSA-PSS and EdDSA values, whose first byte is 8 (intrinsic).
/// The DSA and SHA-224 values are TLS 1.2 (hash, signature) pairs that RFC 8446 only reserves;
/// they carry descriptive names here because OpenSSL still offers them.
public struct SignatureScheme: CodePoint {
    public static var registry: CodePointRegistry { .signatureScheme }
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let rsaPKCS1SHA1 = SignatureScheme(rawValue: 0x0201)
    public static let ecdsaSHA1 = SignatureScheme(rawValue: 0x0203)
    public static let rsaPKCS1SHA256 = SignatureScheme(rawValue: 0x0401)
    public static let ecdsaSECP256r1SHA256 = SignatureScheme(rawValue: 0x0403)
    public static let rsaPKCS1SHA384 = SignatureScheme(rawValue: 0x0501)
    public static let ecdsaSECP384r1SHA384 = SignatureScheme(rawValue: 0x0503)
    public static let rsaPKCS1SHA512 = SignatureScheme(rawValue: 0x0601)
    public static let ecdsaSECP521r1SHA512 = SignatureScheme(rawValue: 0x0603)
    public static let rsaPSSRSAESHA256 = SignatureScheme(rawValue: 0x0804)
    public static let rsaPSSRSAESHA384 = SignatureScheme(rawValue: 0x0805)
    public static let rsaPSSRSAESHA512 = SignatureScheme(rawValue: 0x0806)
    public static let ed25519 = SignatureScheme(rawValue: 0x0807)
    public static let ed448 = SignatureScheme(rawValue: 0x0808)
    public static let rsaPSSPSSSHA256 = SignatureScheme(rawValue: 0x0809)
    public static let rsaPSSPSSSHA384 = SignatureScheme(rawValue: 0x080a)
    public static let rsaPSSPSSSHA512 = SignatureScheme(rawValue: 0x080b)
    public static let dsaSHA1 = SignatureScheme(rawValue: 0x0202)
    public static let rsaPKCS1SHA224 = SignatureScheme(rawValue: 0x0301)
    public static let dsaSHA224 = SignatureScheme(rawValue: 0x0302)
    public static let ecdsaSHA224 = SignatureScheme(rawValue: 0x0303)
    public static let dsaSHA256 = SignatureScheme(rawValue: 0x0402)
    public static let dsaSHA384 = SignatureScheme(rawValue: 0x0502)
    public static let dsaSHA512 = SignatureScheme(rawValue: 0x0602)
    public static let rsaPKCS1MD5 = SignatureScheme(rawValue: 0x0101)

    public static let names: [UInt16: String] = [
        0x0201: "rsa_pkcs1_sha1",
        0x0203: "ecdsa_sha1",
        0x0401: "rsa_pkcs1_sha256",
        0x0403: "ecdsa_secp256r1_sha256",
        0x0501: "rsa_pkcs1_sha384",
        0x0503: "ecdsa_secp384r1_sha384",
        0x0601: "rsa_pkcs1_sha512",
        0x0603: "ecdsa_secp521r1_sha512",
        0x0804: "rsa_pss_rsae_sha256",
        0x0805: "rsa_pss_rsae_sha384",
        0x0806: "rsa_pss_rsae_sha512",
        0x0807: "ed25519",
        0x0808: "ed448",
        0x0809: "rsa_pss_pss_sha256",
        0x080a: "rsa_pss_pss_sha384",
        0x080b: "rsa_pss_pss_sha512",
        0x0202: "dsa_sha1",
        0x0301: "rsa_pkcs1_sha224",
        0x0302: "dsa_sha224",
        0x0303: "ecdsa_sha224",
        0x0402: "dsa_sha256",
        0x0502: "dsa_sha384",
        0x0602: "dsa_sha512",
        0x0101: "rsa_pkcs1_md5",
    ]

    /// The TLS 1.2 reading of the same two bytes (RFC 5246 §7.4.1.4.1).
    public var hashAndSignature: SignatureAndHashAlgorithm {
        SignatureAndHashAlgorithm(hash: .init(rawValue: UInt8(rawValue >> 8)),
                                  signature: .init(rawValue: UInt8(rawValue & 0xff)))
    }

    /// True for RSASSA-PSS with an rsaEncryption key (the schemes OpenSSL prefers in TLS 1.2).
    public var isRSAPSS: Bool { (0x0804...0x0806).contains(rawValue) || (0x0809...0x080b).contains(rawValue) }

    /// True for RSASSA-PKCS1-v1_5.
    public var isRSAPKCS1: Bool { rawValue & 0xff == 0x01 && rawValue >> 8 <= 6 }
}
