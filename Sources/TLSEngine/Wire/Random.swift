/// RFC 5246 §7.4.1.2: `struct { uint32 gmt_unix_time; opaque random_bytes[28]; } Random;`
public struct Random: TLSCodable, Hashable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// `bytes` must be 32 bytes long (a programmer error otherwise).
    public init(_ bytes: [UInt8]) {
        precondition(bytes.count == 32, "a Random is 32 bytes")
        self.bytes = bytes
    }

    /// The first four bytes as a time (modern clients fill them with random bytes too).
    public var gmtUnixTime: UInt32 { bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) } }
    /// The remaining 28 bytes.
    public var randomBytes: ArraySlice<UInt8> { bytes[4...] }

    public var description: String { Hex.string(bytes) }

    public func encode(to writer: inout ByteWriter) { writer.writeBytes(bytes) }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        guard reader.recorder != nil else {
            bytes = try reader.readBytes(32, field: "random")
            return
        }
        // Dissecting: the two fields of the struct (the same 32 bytes, the same error when they stop short).
        bytes = try reader.readStructure("random") { (r: inout ByteReader) throws(DecodeError) -> [UInt8] in
            let available = r.remaining
            let time = try? r.readBytes(4, field: "gmt_unix_time", as: .unixTime)
            let rest = time == nil ? nil : try? r.readBytes(28, field: "random_bytes", as: .hex)
            guard let time, let rest else { throw .truncated(field: "random", needed: 32, available: available) }
            return time + rest
        }
    }
}
