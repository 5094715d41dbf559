/// RFC 8422 §5.1.1 and RFC 7919 §2: `enum { secp256r1 (23), secp384r1 (24), secp521r1 (25), x25519(29), x448(30), ffdhe2048(256), ..., (0xFFFF) } NamedGroup;`
public struct NamedGroup: CodePoint {
    public static var registry: CodePointRegistry { .namedGroup }
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let secp256r1 = NamedGroup(rawValue: 0x0017)
    public static let secp384r1 = NamedGroup(rawValue: 0x0018)
    public static let secp521r1 = NamedGroup(rawValue: 0x0019)
    public static let x25519 = NamedGroup(rawValue: 0x001d)
    public static let x448 = NamedGroup(rawValue: 0x001e)
    public static let ffdhe2048 = NamedGroup(rawValue: 0x0100)
    public static let ffdhe3072 = NamedGroup(rawValue: 0x0101)
    public static let ffdhe4096 = NamedGroup(rawValue: 0x0102)
    public static let ffdhe6144 = NamedGroup(rawValue: 0x0103)
    public static let ffdhe8192 = NamedGroup(rawValue: 0x0104)

    public static let names: [UInt16: String] = [
        0x0017: "secp256r1",
        0x0018: "secp384r1",
        0x0019: "secp521r1",
        0x001d: "x25519",
        0x001e: "x448",
        0x0100: "ffdhe2048",
        0x0101: "ffdhe3072",
        0x0102: "ffdhe4096",
        0x0103: "ffdhe6144",
        0x0104: "ffdhe8192",
    ]

    /// True for the finite-field groups of RFC 7919 (256–511).
    public var isFiniteField: Bool { (256...511).contains(rawValue) }
}
