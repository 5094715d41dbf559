/// One whole handshake message as received (RFC 5246 §7.4 `Handshake`), before its body is
/// interpreted: what `HandshakeReassembler` yields. `bytes` (header and body) is what the
/// handshake transcript hashes; `decode(context:)` interprets the body once the receiver knows
/// the negotiated key exchange.
public struct RawHandshakeMessage: Hashable, Sendable {
    public let type: HandshakeType
    public let body: [UInt8]
    /// The bytes as received when they were not in TLS form: an SSL 2.0-compatible CLIENT-HELLO
    /// (RFC 5246 Appendix E.2), whose own bytes enter the transcript; `body` is its ClientHello.
    public let receivedBytes: [UInt8]?

    public init(type: HandshakeType, body: [UInt8], receivedBytes: [UInt8]? = nil) {
        precondition(body.count <= HandshakeMessage.maxBodyLength, "a handshake body is at most 2^24-1 bytes")
        self.type = type
        self.body = body
        self.receivedBytes = receivedBytes
    }

    /// The exact received bytes: msg_type, uint24 length, body (or the SSL 2.0 form's own bytes).
    public var bytes: [UInt8] {
        if let receivedBytes { return receivedBytes }
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
