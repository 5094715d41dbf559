/// RFC 5246 §7.4.1.4.1: `enum { anonymous(0), rsa(1), dsa(2), ecdsa(3), (255) } SignatureAlgorithm;`
/// (ed25519(7) and ed448(8) from RFC 8422 for display).
public struct SignatureAlgorithm: CodePoint {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let anonymous = SignatureAlgorithm(rawValue: 0)
    public static let rsa = SignatureAlgorithm(rawValue: 1)
    public static let dsa = SignatureAlgorithm(rawValue: 2)
    public static let ecdsa = SignatureAlgorithm(rawValue: 3)
    public static let ed25519 = SignatureAlgorithm(rawValue: 7)
    public static let ed448 = SignatureAlgorithm(rawValue: 8)

    public static let names: [UInt8: String] = [
        0: "anonymous",
        1: "rsa",
        2: "dsa",
        3: "ecdsa",
        7: "ed25519",
        8: "ed448",
    ]
}
