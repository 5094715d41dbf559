/// RFC 5246 §7.4.1.4.1: `enum { none(0), md5(1), sha1(2), sha224(3), sha256(4), sha384(5), sha512(6), (255) } HashAlgorithm;`
/// (intrinsic(8), RFC 8446 §4.2.3, marks the SignatureScheme values with no separate hash byte).
public struct HashAlgorithm: CodePoint {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let none = HashAlgorithm(rawValue: 0)
    public static let md5 = HashAlgorithm(rawValue: 1)
    public static let sha1 = HashAlgorithm(rawValue: 2)
    public static let sha224 = HashAlgorithm(rawValue: 3)
    public static let sha256 = HashAlgorithm(rawValue: 4)
    public static let sha384 = HashAlgorithm(rawValue: 5)
    public static let sha512 = HashAlgorithm(rawValue: 6)
    public static let intrinsic = HashAlgorithm(rawValue: 8)

    public static let names: [UInt8: String] = [
        0: "none",
        1: "md5",
        2: "sha1",
        3: "sha224",
        4: "sha256",
        5: "sha384",
        6: "sha512",
        8: "intrinsic",
    ]
}
