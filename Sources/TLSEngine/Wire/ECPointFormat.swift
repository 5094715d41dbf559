/// RFC 8422 §5.1.2: `enum { uncompressed (0), deprecated (1..2), reserved (248..255) } ECPointFormat;`
/// (the deprecated values keep their RFC 4492 names for display).
public struct ECPointFormat: CodePoint {
    public static var registry: CodePointRegistry { .ecPointFormat }
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let uncompressed = ECPointFormat(rawValue: 0)
    public static let ansiX962CompressedPrime = ECPointFormat(rawValue: 1)
    public static let ansiX962CompressedChar2 = ECPointFormat(rawValue: 2)

    public static let names: [UInt8: String] = [
        0: "uncompressed",
        1: "ansiX962_compressed_prime",
        2: "ansiX962_compressed_char2",
    ]
}
