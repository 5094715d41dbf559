/// A bounds-checked cursor over received bytes (RFC 5246 §4 presentation language).
///
/// Every read names the field it reads, so an error says where the bytes went wrong. Reads never
/// trap: running past the end throws `DecodeError.truncated`. When the dissector runs the codec, a
/// ``FieldRecorder`` receives every read (its name, offset, length and how to show it); the engine's
/// readers have none, and a read then only checks that the recorder is nil.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    /// Index of the next unread byte in `bytes`.
    public private(set) var position: Int
    /// One past the last byte this reader may read (a sub-reader ends where its vector ends).
    public let end: Int
    /// Receives the fields read, when dissecting; nil in the engine.
    var recorder: FieldRecorder?

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
    }

    init(_ bytes: [UInt8], recorder: FieldRecorder?) {
        self.init(bytes)
        self.recorder = recorder
    }

    /// A reader of `bytes[start ..< end]` whose positions are those of `bytes` (the dissector reads
    /// headers where they are in its input).
    init(bytes: [UInt8], start: Int, end: Int, recorder: FieldRecorder?) {
        self.bytes = bytes
        self.position = start
        self.end = end
        self.recorder = recorder
    }

    public var remaining: Int { end - position }
    public var isAtEnd: Bool { position >= end }

    /// Reads `count` bytes.
    public mutating func readBytes(_ count: Int, field: String) throws(DecodeError) -> [UInt8] {
        try readBytes(count, field: field, as: .bytes)
    }

    /// Reads `count` bytes, shown as `display` when dissecting.
    mutating func readBytes(_ count: Int, field: String, as display: FieldDisplay) throws(DecodeError) -> [UInt8] {
        recorder?.read(field, at: position, count: count, display: display)
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

    /// Reads everything up to `end` as the field `field` (nothing is recorded when it is empty).
    mutating func readRest(field: String, as display: FieldDisplay = .bytes) -> [UInt8] {
        if remaining > 0 { recorder?.read(field, at: position, count: remaining, display: display) }
        return readRest()
    }

    /// Reads a big-endian unsigned integer of `width` bytes (1–4 for uint8/16/24/32).
    public mutating func readUInt(width: Int, field: String) throws(DecodeError) -> UInt32 {
        try readUInt(width: width, field: field, as: .number)
    }

    /// Reads a big-endian unsigned integer, shown as `display` when dissecting.
    /// `recordedAs`: the name a dissection gives the field, when not the one errors give it.
    mutating func readUInt(width: Int, field: String, recordedAs recordedName: String? = nil, as display: FieldDisplay,
                           notes: (UInt32) -> [DissectionNote] = { _ in [] }) throws(DecodeError) -> UInt32 {
        precondition((1...4).contains(width), "integer width must be 1...4")
        guard width <= remaining else {
            recorder?.read(recordedName ?? field, at: position, count: width, display: display)
            throw .truncated(field: field, needed: width, available: remaining)
        }
        var value: UInt32 = 0
        for i in 0 ..< width { value = value << 8 | UInt32(bytes[position + i]) }
        if let recorder { recorder.read(recordedName ?? field, at: position, count: width, notes: notes(value), display: display) }
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

    /// Reads a code point named `field` (the registry's name shows when dissecting).
    /// `recordedAs`: the name a dissection gives the field, when not the one errors give it.
    mutating func readCodePoint<T: CodePoint>(_ type: T.Type, field: String, recordedAs recordedName: String? = nil) throws(DecodeError) -> T {
        let raw = try readUInt(width: T.wireSize, field: field, recordedAs: recordedName, as: recorder == nil ? .number : .registry(T.self))
        return T(rawValue: T.RawValue(truncatingIfNeeded: raw))
    }

    /// Reads a vector's length prefix of `lengthBytes` bytes and checks it against the RFC's
    /// `<min..max>` and, for vectors of fixed-size elements, against `elementSize`.
    public mutating func readVectorLength(lengthBytes: Int, min: Int, max: Int, elementSize: Int = 1,
                                          field: String) throws(DecodeError) -> Int {
        try readVectorLength(lengthBytes: lengthBytes, min: min, max: max, elementSize: elementSize, field: field, recordedAs: nil)
    }

    mutating func readVectorLength(lengthBytes: Int, min: Int, max: Int, elementSize: Int = 1, field: String,
                                   recordedAs recordedName: String?) throws(DecodeError) -> Int {
        let available = remaining - lengthBytes
        let length = Int(try readUInt(width: lengthBytes, field: "\(field).length",
                                      recordedAs: recorder == nil ? nil : recordedName.map { "\($0).length" }, as: .number, notes: { n in
            Int(n) > available ? [.declaresMore(declared: Int(n), present: Swift.max(available, 0))] : []
        }))
        guard length >= min, length <= max, length % elementSize == 0 else {
            throw .lengthOutOfRange(field: field, length: length, min: min, max: max)
        }
        guard length <= remaining else {
            // A dissection of a message the input cuts short reads on into the bytes there are (the
            // length's note says how many are missing); a receiver never reads a message before it is whole.
            if let recorder, recorder.inputIsCut, end == bytes.count { return remaining }
            throw .truncated(field: field, needed: length, available: remaining)
        }
        return length
    }

    /// Reads an `opaque field<min..max>` vector with a `lengthBytes`-byte length prefix.
    public mutating func readOpaque(lengthBytes: Int, min: Int, max: Int,
                                    field: String) throws(DecodeError) -> [UInt8] {
        try readOpaque(lengthBytes: lengthBytes, min: min, max: max, field: field, as: .sized)
    }

    /// Reads an opaque vector, its contents shown as `display` when dissecting (an empty vector
    /// records its length only).
    mutating func readOpaque(lengthBytes: Int, min: Int, max: Int, field: String,
                             as display: FieldDisplay) throws(DecodeError) -> [UInt8] {
        let length = try readVectorLength(lengthBytes: lengthBytes, min: min, max: max, field: field)
        if length == 0 { return [] }
        return try readBytes(length, field: field, as: display)
    }

    /// Reads a vector's length prefix and returns a reader over exactly its contents; this reader
    /// moves past the vector. The caller reads the elements and calls `expectEnd` on the sub-reader.
    public mutating func readVector(lengthBytes: Int, min: Int, max: Int, elementSize: Int = 1,
                                    field: String) throws(DecodeError) -> ByteReader {
        let length = try readVectorLength(lengthBytes: lengthBytes, min: min, max: max,
                                          elementSize: elementSize, field: field)
        let sub = ByteReader(bytes: bytes, start: position, end: position + length, recorder: recorder)
        position += length
        return sub
    }

    /// Reads a vector's length prefix, then its contents with `body` on a reader over exactly them,
    /// which must read them all. When dissecting, the contents are a structure named `field`
    /// (`pushPath`: the names read inside are prefixed with `field.`).
    mutating func readVector<T>(lengthBytes: Int, min: Int, max: Int, elementSize: Int = 1, field: String,
                                recordedAs recordedName: String? = nil, value: FieldValue = .none, pushPath: Bool = false,
                                _ body: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> T {
        let length = try readVectorLength(lengthBytes: lengthBytes, min: min, max: max, elementSize: elementSize,
                                          field: field, recordedAs: recordedName)
        var sub = ByteReader(bytes: bytes, start: position, end: position + length, recorder: recorder)
        position += length
        guard let recorder else {
            let result = try body(&sub)
            try sub.expectEnd(field: field)
            return result
        }
        recorder.open(recordedName ?? field, at: sub.position, value: value, length: sub.remaining, pushPath: pushPath)
        defer { recorder.close() }
        let result = try body(&sub)
        try sub.expectEnd(field: field)
        return result
    }

    /// Reads a structure named `name` with `body` (when dissecting, its fields become children of
    /// one field; `pushPath`: their names are prefixed with `name.`).
    mutating func readStructure<T>(_ name: String, value: FieldValue = .none, pushPath: Bool = true,
                                   _ body: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard let recorder else { return try body(&self) }
        recorder.open(name, at: position, value: value, length: nil, pushPath: pushPath)
        defer { recorder.close() }
        return try body(&self)
    }

    /// Reads a vector of fixed-size code points (for example `CipherSuite cipher_suites<2..2^16-2>`);
    /// when dissecting, element `i` is the field `field[i]`.
    public mutating func readList<T: CodePoint>(of type: T.Type, lengthBytes: Int, min: Int, max: Int,
                                                elementSize: Int, field: String) throws(DecodeError) -> [T] {
        try readVector(lengthBytes: lengthBytes, min: min, max: max, elementSize: elementSize,
                       field: field) { (sub: inout ByteReader) throws(DecodeError) -> [T] in
            var out: [T] = []
            out.reserveCapacity(sub.remaining / elementSize)
            if sub.recorder == nil {
                while !sub.isAtEnd { out.append(try T(from: &sub)) }
            } else {
                while !sub.isAtEnd { out.append(try sub.readCodePoint(T.self, field: "\(field)[\(out.count)]")) }
            }
            return out
        }
    }

    /// Throws unless every byte has been read.
    public func expectEnd(field: String) throws(DecodeError) {
        if remaining > 0 {
            recorder?.trailing(at: position, count: remaining, after: field)
            throw .trailingBytes(field: field, count: remaining)
        }
    }
}
