/// RFC 8422 §5.1.1 and RFC 7919 §2: `enum { secp256r1 (23), secp384r1 (24), secp521r1 (25), x25519(29), x448(30), ffdhe2048(256), ..., (0xFFFF) } NamedGroup;`
public struct NamedGroup: CodePoint {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let secp256r1 = NamedGroup(rawValue: 23)
    public static let secp384r1 = NamedGroup(rawValue: 24)
    public static let secp521r1 = NamedGroup(rawValue: 25)
    public static let x25519 = NamedGroup(rawValue: 29)
    public static let x448 = NamedGroup(rawValue: 30)
    public static let ffdhe2048 = NamedGroup(rawValue: 256)
    public static let ffdhe3072 = NamedGroup(rawValue: 257)
    public static let ffdhe4096 = NamedGroup(rawValue: 258)
    public static let ffdhe6144 = NamedGroup(rawValue: 259)
    public static let ffdhe8192 = NamedGroup(rawValue: 260)

    public static let names: [UInt16: String] = [
        23: "secp256r1",
        24: "secp384r1",
        25: "secp521r1",
        29: "x25519",
        30: "x448",
        256: "ffdhe2048",
        257: "ffdhe3072",
        258: "ffdhe4096",
        259: "ffdhe6144",
        260: "ffdhe8192",
    ]

    /// True for the finite-field groups of RFC 7919 (256–511).
    public var isFiniteField: Bool { (256...511).contains(rawValue) }
}
