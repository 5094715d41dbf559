/// RFC 5246 §7.1: `struct { enum { change_cipher_spec(1), (255) } type; } ChangeCipherSpec;`
/// Any other value is a decode_error.
public struct ChangeCipherSpec: TLSCodable, Hashable {
    public static let value: UInt8 = 1

    public init() {}

    public func encode(to writer: inout ByteWriter) { writer.writeUInt8(Self.value) }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let v = try reader.readUInt8(field: "change_cipher_spec.type")
        guard v == Self.value else {
            throw .malformed(field: "change_cipher_spec.type", reason: .changeCipherSpecValue(v))
        }
    }
}
