/// RFC 5246 §7.4.8:
/// `struct { digitally-signed struct { opaque handshake_messages[handshake_messages_length]; } } CertificateVerify;`
public struct CertificateVerify: Hashable, Sendable {
    public var signature: DigitallySigned

    public init(signature: DigitallySigned) { self.signature = signature }

    public func encode(to writer: inout ByteWriter) { signature.encode(to: &writer) }

    public init(from reader: inout ByteReader, context: HandshakeDecodingContext) throws(DecodeError) {
        signature = try DigitallySigned(from: &reader, context: context)
    }
}
