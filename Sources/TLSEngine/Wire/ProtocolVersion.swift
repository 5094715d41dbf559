/// RFC 5246 §6.2.1: `struct { uint8 major; uint8 minor; } ProtocolVersion;` — {3,3} is TLS 1.2,
/// {3,2} TLS 1.1, {3,1} TLS 1.0, {3,0} SSL 3.0 (RFC 5246 Appendix E).
public struct ProtocolVersion: CodePoint {
    public static var registry: CodePointRegistry { .protocolVersion }
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(major: UInt8, minor: UInt8) { rawValue = UInt16(major) << 8 | UInt16(minor) }

    public var major: UInt8 { UInt8(rawValue >> 8) }
    public var minor: UInt8 { UInt8(rawValue & 0xff) }

    public static let ssl30 = ProtocolVersion(rawValue: 0x0300)
    public static let tls10 = ProtocolVersion(rawValue: 0x0301)
    public static let tls11 = ProtocolVersion(rawValue: 0x0302)
    public static let tls12 = ProtocolVersion(rawValue: 0x0303)
    public static let tls13 = ProtocolVersion(rawValue: 0x0304)

    public static let names: [UInt16: String] = [
        0x0300: "SSL 3.0",
        0x0301: "TLS 1.0",
        0x0302: "TLS 1.1",
        0x0303: "TLS 1.2",
        0x0304: "TLS 1.3",
    ]
}
