/// One whole handshake message as received (RFC 5246 §7.4 `Handshake`), before its body is
/// interpreted: what `HandshakeReassembler` yields. `bytes` (header and body) is what the
/// handshake transcript hashes; `decode(context:)` interprets the body once the receiver knows
/// the negotiated key exchange.
public struct RawHandshakeMessage: Hashable, Sendable {
    public let type: HandshakeType
    public let body: [UInt8]

    public init(type: HandshakeType, body: [UInt8]) {
        precondition(body.count <= HandshakeMessage.maxBodyLength, "a handshake body is at most 2^24-1 bytes")
        self.type = type
        self.body = body
    }

    /// The exact received bytes: msg_type, uint24 length, body.
    public var bytes: [UInt8] {
        var w = ByteWriter()
        type.encode(to: &w)
        w.writeOpaque(body, lengthBytes: 3)
        return w.bytes
    }

    /// Interprets the body.
    public func decode(context: HandshakeDecodingContext) throws(DecodeError) -> HandshakeMessage {
        var r = ByteReader(body)
        let message = try HandshakeMessage.decodeBody(type: type, from: &r, context: context)
        try r.expectEnd(field: "\(type)")
        return message
    }
}
