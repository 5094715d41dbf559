/// RFC 5246 §7.4: `enum { hello_request(0), client_hello(1), server_hello(2), certificate(11), server_key_exchange (12), certificate_request(13), server_hello_done(14), certificate_verify(15), client_key_exchange(16), finished(20), (255) } HandshakeType;`
/// (plus new_session_ticket(4), RFC 5077, and certificate_status(22), RFC 6066, for display).
public struct HandshakeType: CodePoint {
    public static var registry: CodePointRegistry { .handshakeType }
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let helloRequest = HandshakeType(rawValue: 0)
    public static let clientHello = HandshakeType(rawValue: 1)
    public static let serverHello = HandshakeType(rawValue: 2)
    public static let newSessionTicket = HandshakeType(rawValue: 4)
    public static let certificate = HandshakeType(rawValue: 11)
    public static let serverKeyExchange = HandshakeType(rawValue: 12)
    public static let certificateRequest = HandshakeType(rawValue: 13)
    public static let serverHelloDone = HandshakeType(rawValue: 14)
    public static let certificateVerify = HandshakeType(rawValue: 15)
    public static let clientKeyExchange = HandshakeType(rawValue: 16)
    public static let finished = HandshakeType(rawValue: 20)
    public static let certificateStatus = HandshakeType(rawValue: 22)
    /// TLS 1.3 (RFC 8446 §4): end_of_early_data(5), encrypted_extensions(8), key_update(24) and
    /// message_hash(254), the stand-in for a ClientHello in the transcript after a HelloRetryRequest.
    public static let endOfEarlyData = HandshakeType(rawValue: 5)
    public static let encryptedExtensions = HandshakeType(rawValue: 8)
    public static let keyUpdate = HandshakeType(rawValue: 24)
    public static let messageHash = HandshakeType(rawValue: 254)

    public static let names: [UInt8: String] = [
        0: "hello_request",
        1: "client_hello",
        2: "server_hello",
        4: "new_session_ticket",
        11: "certificate",
        12: "server_key_exchange",
        13: "certificate_request",
        14: "server_hello_done",
        15: "certificate_verify",
        16: "client_key_exchange",
        20: "finished",
        22: "certificate_status",
        5: "end_of_early_data",
        8: "encrypted_extensions",
        24: "key_update",
        254: "message_hash",
    ]
}

extension HandshakeType {
    /// The message's name as RFC 5246 §7.4 spells its struct ("ClientHello"), the one table the ladder,
    /// the attacker's targets and the scenario files share; other types print as their code point.
    public var messageName: String { Self.messageNames[rawValue] ?? "\(self)" }

    static let messageNames: [UInt8: String] = [
        0: "HelloRequest", 1: "ClientHello", 2: "ServerHello", 4: "NewSessionTicket", 5: "EndOfEarlyData", 8: "EncryptedExtensions", 24: "KeyUpdate", 11: "Certificate", 12: "ServerKeyExchange",
        13: "CertificateRequest", 14: "ServerHelloDone", 15: "CertificateVerify", 16: "ClientKeyExchange", 20: "Finished",
    ]
}
