/// RFC 5246 §4.7: `struct { SignatureAndHashAlgorithm algorithm; opaque signature<0..2^16-1>; } DigitallySigned;`
///
/// TLS 1.0 and 1.1 (RFC 4346 §4.7) send only the signature; `algorithm` is then nil.
public struct DigitallySigned: Hashable, Sendable {
    /// The two algorithm bytes, read as a scheme (see `SignatureScheme.hashAndSignature`).
    public var algorithm: SignatureScheme?
    public var signature: [UInt8]

    public init(algorithm: SignatureScheme?, signature: [UInt8]) {
        self.algorithm = algorithm
        self.signature = signature
    }

    public func encode(to writer: inout ByteWriter) {
        algorithm?.encode(to: &writer)
        writer.writeOpaque(signature, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader, context: HandshakeDecodingContext) throws(DecodeError) {
        algorithm = context.signsWithAlgorithm ? try reader.readCodePoint(SignatureScheme.self, field: "algorithm") : nil
        signature = try reader.readOpaque(lengthBytes: 2, min: 0, max: 0xffff, field: "signature")
    }
}
