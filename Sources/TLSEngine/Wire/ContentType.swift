/// RFC 5246 §6.2.1: `enum { change_cipher_spec(20), alert(21), handshake(22), application_data(23), (255) } ContentType;`
public struct ContentType: CodePoint {
    public static var registry: CodePointRegistry { .contentType }
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let changeCipherSpec = ContentType(rawValue: 20)
    public static let alert = ContentType(rawValue: 21)
    public static let handshake = ContentType(rawValue: 22)
    public static let applicationData = ContentType(rawValue: 23)
    public static let heartbeat = ContentType(rawValue: 24)

    public static let names: [UInt8: String] = [
        20: "change_cipher_spec",
        21: "alert",
        22: "handshake",
        23: "application_data",
        24: "heartbeat",
    ]

    /// The content types RFC 5246 defines (heartbeat, RFC 6520, is named but not accepted).
    public var isTLS12Defined: Bool { (20...23).contains(rawValue) }
}
