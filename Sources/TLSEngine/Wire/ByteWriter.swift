/// Appends TLS presentation-language values (RFC 5246 §4) to a byte buffer.
///
/// Vectors are written through `writeVector`, which reserves the length prefix and fills it in
/// once the body is known. A body longer than the prefix can express is a programmer error (the
/// message was built wrongly), so it stops with a precondition failure.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init() { bytes = [] }

    public var count: Int { bytes.count }

    public mutating func writeUInt(_ value: UInt32, width: Int) {
        precondition((1...4).contains(width), "integer width must be 1...4")
        precondition(width == 4 || value < (UInt32(1) << (8 * width)), "value does not fit in \(width) bytes")
        for i in stride(from: width - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i)))
        }
    }

    public mutating func writeUInt8(_ value: UInt8) { bytes.append(value) }
    public mutating func writeUInt16(_ value: UInt16) { writeUInt(UInt32(value), width: 2) }
    public mutating func writeUInt24(_ value: UInt32) { writeUInt(value, width: 3) }
    public mutating func writeUInt32(_ value: UInt32) { writeUInt(value, width: 4) }

    public mutating func writeBytes<C: Collection>(_ data: C) where C.Element == UInt8 {
        bytes.append(contentsOf: data)
    }

    /// Writes a vector: a `lengthBytes`-byte length prefix, then what `body` writes.
    public mutating func writeVector(lengthBytes: Int, _ body: (inout ByteWriter) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: lengthBytes))
        body(&self)
        let length = bytes.count - start - lengthBytes
        precondition(lengthBytes == 4 || length < (1 << (8 * lengthBytes)),
                     "vector of \(length) bytes does not fit a \(lengthBytes)-byte length")
        for i in 0 ..< lengthBytes {
            bytes[start + i] = UInt8(truncatingIfNeeded: length >> (8 * (lengthBytes - 1 - i)))
        }
    }

    /// Writes an `opaque field<..>` vector.
    public mutating func writeOpaque(_ data: [UInt8], lengthBytes: Int) {
        writeVector(lengthBytes: lengthBytes) { $0.writeBytes(data) }
    }

    /// Writes a vector of encodable elements.
    public mutating func writeList<T: TLSCodable>(_ items: [T], lengthBytes: Int) {
        writeVector(lengthBytes: lengthBytes) { w in
            for item in items { item.encode(to: &w) }
        }
    }
}
