/// RFC 5246 §7.4.1.2: `enum { null(0), (255) } CompressionMethod;` (deflate(1) from RFC 3749, for display).
public struct CompressionMethod: CodePoint {
    public static var registry: CodePointRegistry { .compressionMethod }
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let null = CompressionMethod(rawValue: 0)
    public static let deflate = CompressionMethod(rawValue: 1)

    public static let names: [UInt8: String] = [
        0: "null",
        1: "deflate",
    ]
}
