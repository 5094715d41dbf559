/// RFC 5246 §6.2.1–§6.2.3: one record on the wire,
/// ```
/// struct {
///     ContentType type;
///     ProtocolVersion version;
///     uint16 length;
///     opaque fragment[TLSPlaintext.length];   // or TLSCiphertext's protected fragment
/// } TLSPlaintext;
/// ```
/// The same framing carries TLSCompressed and TLSCiphertext; only the length limit differs
/// (2^14 for plaintext, 2^14 + 2048 for protected records).
public struct TLSRecord: TLSCodable, Hashable {
    public var contentType: ContentType
    public var version: ProtocolVersion
    public var fragment: [UInt8]

    /// The record header's size: type, version, length.
    public static let headerLength = 5
    /// RFC 5246 §6.2.1: "The length MUST NOT exceed 2^14."
    public static let maxPlaintextLength = 1 << 14
    /// RFC 5246 §6.2.3: "The length MUST NOT exceed 2^14 + 2048."
    public static let maxCiphertextLength = (1 << 14) + 2048

    public init(contentType: ContentType, version: ProtocolVersion = .tls12, fragment: [UInt8]) {
        self.contentType = contentType
        self.version = version
        self.fragment = fragment
    }

    public func encode(to writer: inout ByteWriter) {
        contentType.encode(to: &writer)
        version.encode(to: &writer)
        writer.writeOpaque(fragment, lengthBytes: 2)
    }

    /// Reads one record with the protected-record limit; `RecordReader` applies the tighter
    /// plaintext limit before encryption is on.
    public init(from reader: inout ByteReader) throws(DecodeError) {
        try self.init(from: &reader, limit: Self.maxCiphertextLength)
    }

    public init(from reader: inout ByteReader, limit: Int) throws(DecodeError) {
        let header = try RecordHeader(from: &reader, limit: limit)
        contentType = header.contentType
        version = header.version
        fragment = try reader.readBytes(header.length, field: "fragment")
    }

    /// Splits `payload` into records of at most `maxFragmentLength` bytes (RFC 5246 §6.2.1: a
    /// handshake message may span records and a record may hold several messages). An empty
    /// payload gives no record.
    public static func fragment(_ payload: [UInt8], contentType: ContentType, version: ProtocolVersion = .tls12,
                                maxFragmentLength: Int = maxPlaintextLength) -> [TLSRecord] {
        precondition(maxFragmentLength >= 1 && maxFragmentLength <= maxPlaintextLength,
                     "fragment limit must be 1...2^14")
        return stride(from: 0, to: payload.count, by: maxFragmentLength).map { start in
            TLSRecord(contentType: contentType, version: version,
                      fragment: Array(payload[start ..< min(start + maxFragmentLength, payload.count)]))
        }
    }
}
