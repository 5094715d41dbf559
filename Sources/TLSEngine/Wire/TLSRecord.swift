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

/// The 5-byte record header (RFC 5246 §6.2.1), checked: a content type of RFC 5246 (else
/// unexpected_message), major version 3 (else decode_error), length within `limit` (else
/// record_overflow). An SSL 2.0 CLIENT-HELLO (RFC 5246 Appendix E.2) is reported as such.
public struct RecordHeader: Hashable, Sendable {
    public var contentType: ContentType
    public var version: ProtocolVersion
    public var length: Int

    public init(contentType: ContentType, version: ProtocolVersion, length: Int) {
        self.contentType = contentType
        self.version = version
        self.length = length
    }

    /// Checks the header's first bytes as soon as they arrive, so garbage is refused without
    /// waiting for a whole header: nil means "fine so far".
    static func earlyError(_ prefix: ArraySlice<UInt8>) -> DecodeError? {
        guard let first = prefix.first else { return nil }
        if first & 0x80 != 0 {
            // SSL 2.0: a 2-byte length with the high bit set, then msg_type 1 (CLIENT-HELLO).
            let third = prefix.dropFirst(2).first
            if third == nil { return nil }
            if third == 1 { return .sslv2ClientHello }
        }
        guard ContentType(rawValue: first).isTLS12Defined else { return .unexpectedContentType(first) }
        if let major = prefix.dropFirst().first, major != 3 {
            return .malformed(field: "record.version", reason: "major version \(major) is not 3: not a TLS record")
        }
        return nil
    }

    public init(from reader: inout ByteReader, limit: Int) throws(DecodeError) {
        let available = Array(reader.bytes[reader.position ..< min(reader.end, reader.position + 3)])
        if let error = Self.earlyError(available[...]) { throw error }
        contentType = try ContentType(from: &reader)
        version = try ProtocolVersion(from: &reader)
        length = Int(try reader.readUInt16(field: "record.length"))
        guard length <= limit else { throw .recordOverflow(length: length, limit: limit) }
    }
}
