/// RFC 5246 §7.2: `enum { warning(1), fatal(2), (255) } AlertLevel;`
public struct AlertLevel: CodePoint {
    public static var registry: CodePointRegistry { .alertLevel }
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let warning = AlertLevel(rawValue: 1)
    public static let fatal = AlertLevel(rawValue: 2)

    public static let names: [UInt8: String] = [
        1: "warning",
        2: "fatal",
    ]
}
