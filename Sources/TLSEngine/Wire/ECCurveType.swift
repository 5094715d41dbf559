/// RFC 8422 §5.4: `enum { deprecated (1..2), named_curve (3), reserved(248..255) } ECCurveType;`
public struct ECCurveType: CodePoint {
    public static var registry: CodePointRegistry { .ecCurveType }
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let explicitPrime = ECCurveType(rawValue: 1)
    public static let explicitChar2 = ECCurveType(rawValue: 2)
    public static let namedCurve = ECCurveType(rawValue: 3)

    public static let names: [UInt8: String] = [
        1: "explicit_prime",
        2: "explicit_char2",
        3: "named_curve",
    ]
}
