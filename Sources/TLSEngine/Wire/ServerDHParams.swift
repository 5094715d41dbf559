/// RFC 5246 §7.4.3:
/// ```
/// struct {
///     opaque dh_p<1..2^16-1>;
///     opaque dh_g<1..2^16-1>;
///     opaque dh_Ys<1..2^16-1>;
/// } ServerDHParams;     /* Ephemeral DH parameters */
/// ```
/// Big-endian unsigned integers, kept as bytes (the crypto layer turns them into numbers).
public struct ServerDHParams: TLSCodable, Hashable {
    public var p: [UInt8]
    public var g: [UInt8]
    public var ys: [UInt8]

    public init(p: [UInt8], g: [UInt8], ys: [UInt8]) {
        self.p = p
        self.g = g
        self.ys = ys
    }

    public func encode(to writer: inout ByteWriter) {
        writer.writeOpaque(p, lengthBytes: 2)
        writer.writeOpaque(g, lengthBytes: 2)
        writer.writeOpaque(ys, lengthBytes: 2)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        p = try reader.readOpaque(lengthBytes: 2, min: 1, max: 0xffff, field: "dh_p")
        g = try reader.readOpaque(lengthBytes: 2, min: 1, max: 0xffff, field: "dh_g")
        ys = try reader.readOpaque(lengthBytes: 2, min: 1, max: 0xffff, field: "dh_Ys")
    }
}
