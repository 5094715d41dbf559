/// A bounds-checked cursor over received bytes (RFC 5246 §4 presentation language).
///
/// Every read names the field it reads, so an error says where the bytes went wrong. Reads never
/// trap: running past the end throws `DecodeError.truncated`.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    /// Index of the next unread byte in `bytes`.
    public private(set) var position: Int
    /// One past the last byte this reader may read (a sub-reader ends where its vector ends).
    public let end: Int

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
    }

    private init(bytes: [UInt8], start: Int, end: Int) {
        self.bytes = bytes
        self.position = start
        self.end = end
    }

    public var remaining: Int { end - position }
    public var isAtEnd: Bool { position >= end }

    /// Reads `count` bytes.
    public mutating func readBytes(_ count: Int, field: String) throws(DecodeError) -> [UInt8] {
        guard count >= 0, count <= remaining else {
            throw .truncated(field: field, needed: count, available: remaining)
        }
        let out = Array(bytes[position ..< position + count])
        position += count
        return out
    }

    /// Reads everything up to `end`.
    public mutating func readRest() -> [UInt8] {
        let out = Array(bytes[position ..< end])
        position = end
        return out
    }

    /// Reads a big-endian unsigned integer of `width` bytes (1–4 for uint8/16/24/32).
    public mutating func readUInt(width: Int, field: String) throws(DecodeError) -> UInt32 {
        precondition((1...4).contains(width), "integer width must be 1...4")
        guard width <= remaining else {
            throw .truncated(field: field, needed: width, available: remaining)
        }
        var value: UInt32 = 0
        for i in 0 ..< width { value = value << 8 | UInt32(bytes[position + i]) }
        position += width
        return value
    }

    public mutating func readUInt8(field: String) throws(DecodeError) -> UInt8 {
        UInt8(try readUInt(width: 1, field: field))
    }

    public mutating func readUInt16(field: String) throws(DecodeError) -> UInt16 {
        UInt16(try readUInt(width: 2, field: field))
    }

    public mutating func readUInt24(field: String) throws(DecodeError) -> UInt32 {
        try readUInt(width: 3, field: field)
    }

    public mutating func readUInt32(field: String) throws(DecodeError) -> UInt32 {
        try readUInt(width: 4, field: field)
    }

    /// Reads a vector's length prefix of `lengthBytes` bytes and checks it against the RFC's
    /// `<min..max>` and, for vectors of fixed-size elements, against `elementSize`.
    public mutating func readVectorLength(lengthBytes: Int, min: Int, max: Int, elementSize: Int = 1,
                                          field: String) throws(DecodeError) -> Int {
        let length = Int(try readUInt(width: lengthBytes, field: "\(field).length"))
        guard length >= min, length <= max, length % elementSize == 0 else {
            throw .lengthOutOfRange(field: field, length: length, min: min, max: max)
        }
        guard length <= remaining else {
            throw .truncated(field: field, needed: length, available: remaining)
        }
        return length
    }

    /// Reads an `opaque field<min..max>` vector with a `lengthBytes`-byte length prefix.
    public mutating func readOpaque(lengthBytes: Int, min: Int, max: Int,
                                    field: String) throws(DecodeError) -> [UInt8] {
        let length = try readVectorLength(lengthBytes: lengthBytes, min: min, max: max, field: field)
        return try readBytes(length, field: field)
    }

    /// Reads a vector's length prefix and returns a reader over exactly its contents; this reader
    /// moves past the vector. The caller reads the elements and calls `expectEnd` on the sub-reader.
    public mutating func readVector(lengthBytes: Int, min: Int, max: Int, elementSize: Int = 1,
                                    field: String) throws(DecodeError) -> ByteReader {
        let length = try readVectorLength(lengthBytes: lengthBytes, min: min, max: max,
                                          elementSize: elementSize, field: field)
        let sub = ByteReader(bytes: bytes, start: position, end: position + length)
        position += length
        return sub
    }

    /// Reads a vector of fixed-size code points (for example `CipherSuite cipher_suites<2..2^16-2>`).
    public mutating func readList<T: TLSCodable>(of type: T.Type, lengthBytes: Int, min: Int, max: Int,
                                                 elementSize: Int, field: String) throws(DecodeError) -> [T] {
        var sub = try readVector(lengthBytes: lengthBytes, min: min, max: max,
                                 elementSize: elementSize, field: field)
        var out: [T] = []
        out.reserveCapacity(sub.remaining / elementSize)
        while !sub.isAtEnd { out.append(try T(from: &sub)) }
        return out
    }

    /// Throws unless every byte has been read.
    public func expectEnd(field: String) throws(DecodeError) {
        if remaining > 0 { throw .trailingBytes(field: field, count: remaining) }
    }
}
