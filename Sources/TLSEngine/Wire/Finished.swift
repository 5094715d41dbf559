/// RFC 5246 §7.4.9: `struct { opaque verify_data[verify_data_length]; } Finished;`
/// verify_data = PRF(master_secret, finished_label, Hash(handshake_messages))[0..verify_data_length-1].
public struct Finished: Hashable, Sendable {
    public var verifyData: [UInt8]

    public init(verifyData: [UInt8]) { self.verifyData = verifyData }

    public func encode(to writer: inout ByteWriter) { writer.writeBytes(verifyData) }

    /// Reads the rest of the body, which must be exactly `context.verifyDataLength` bytes.
    public init(from reader: inout ByteReader, context: HandshakeDecodingContext) throws(DecodeError) {
        verifyData = try reader.readBytes(context.verifyDataLength, field: "verify_data", as: .hex)
    }
}
