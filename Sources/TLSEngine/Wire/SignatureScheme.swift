/// RFC 8446 §4.2.3 `SignatureScheme`: the TLS 1.3 names of the two bytes that TLS 1.2 sends as
/// `SignatureAndHashAlgorithm` (RFC 5246 §7.4.1.4.1): the first byte is the hash, the second the
/// signature algorithm, except for the RSA-PSS and EdDSA values, whose first byte is 8 (intrinsic).
public struct SignatureScheme: CodePoint {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let rsaPKCS1SHA1 = SignatureScheme(rawValue: 513)
    public static let ecdsaSHA1 = SignatureScheme(rawValue: 515)
    public static let rsaPKCS1SHA256 = SignatureScheme(rawValue: 1025)
    public static let ecdsaSECP256r1SHA256 = SignatureScheme(rawValue: 1027)
    public static let rsaPKCS1SHA384 = SignatureScheme(rawValue: 1281)
    public static let ecdsaSECP384r1SHA384 = SignatureScheme(rawValue: 1283)
    public static let rsaPKCS1SHA512 = SignatureScheme(rawValue: 1537)
    public static let ecdsaSECP521r1SHA512 = SignatureScheme(rawValue: 1539)
    public static let rsaPSSRSAESHA256 = SignatureScheme(rawValue: 2052)
    public static let rsaPSSRSAESHA384 = SignatureScheme(rawValue: 2053)
    public static let rsaPSSRSAESHA512 = SignatureScheme(rawValue: 2054)
    public static let ed25519 = SignatureScheme(rawValue: 2055)
    public static let ed448 = SignatureScheme(rawValue: 2056)
    public static let rsaPSSPSSSHA256 = SignatureScheme(rawValue: 2057)
    public static let rsaPSSPSSSHA384 = SignatureScheme(rawValue: 2058)
    public static let rsaPSSPSSSHA512 = SignatureScheme(rawValue: 2059)
    public static let dsaSHA1 = SignatureScheme(rawValue: 514)
    public static let rsaPKCS1SHA224 = SignatureScheme(rawValue: 769)
    public static let dsaSHA224 = SignatureScheme(rawValue: 770)
    public static let ecdsaSHA224 = SignatureScheme(rawValue: 771)
    public static let dsaSHA256 = SignatureScheme(rawValue: 1026)
    public static let rsaPKCS1MD5 = SignatureScheme(rawValue: 257)

    public static let names: [UInt16: String] = [
        513: "rsa_pkcs1_sha1",
        515: "ecdsa_sha1",
        1025: "rsa_pkcs1_sha256",
        1027: "ecdsa_secp256r1_sha256",
        1281: "rsa_pkcs1_sha384",
        1283: "ecdsa_secp384r1_sha384",
        1537: "rsa_pkcs1_sha512",
        1539: "ecdsa_secp521r1_sha512",
        2052: "rsa_pss_rsae_sha256",
        2053: "rsa_pss_rsae_sha384",
        2054: "rsa_pss_rsae_sha512",
        2055: "ed25519",
        2056: "ed448",
        2057: "rsa_pss_pss_sha256",
        2058: "rsa_pss_pss_sha384",
        2059: "rsa_pss_pss_sha512",
        514: "dsa_sha1",
        769: "rsa_pkcs1_sha224",
        770: "dsa_sha224",
        771: "ecdsa_sha224",
        1026: "dsa_sha256",
        257: "rsa_pkcs1_md5",
    ]

    /// The TLS 1.2 reading of the same two bytes (RFC 5246 §7.4.1.4.1).
    public var hashAndSignature: SignatureAndHashAlgorithm {
        SignatureAndHashAlgorithm(hash: HashAlgorithm(rawValue: UInt8(rawValue >> 8)),
                                  signature: SignatureAlgorithm(rawValue: UInt8(rawValue & 0xff)))
    }

    /// True for RSASSA-PSS with an rsaEncryption key (the schemes OpenSSL prefers in TLS 1.2).
    public var isRSAPSS: Bool { (0x0804...0x0806).contains(rawValue) || (0x0809...0x080b).contains(rawValue) }

    /// True for RSASSA-PKCS1-v1_5.
    public var isRSAPKCS1: Bool { rawValue & 0xff == 0x01 && rawValue >> 8 <= 6 }
}
