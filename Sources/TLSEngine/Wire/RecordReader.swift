/// Cuts a byte stream, delivered in arbitrary chunks as TCP delivers it, into whole records
/// (RFC 5246 §6.2.1). Errors are sticky: after one, the stream is unusable and every call
/// throws it again.
public struct RecordReader: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: DecodeError?

    /// Set once this direction's records are protected (after ChangeCipherSpec): the length
    /// limit rises from 2^14 to 2^14 + 2048 (RFC 5246 §6.2.3).
    public var isProtected = false

    public init() {}

    /// The current length limit.
    public var limit: Int { isProtected ? TLSRecord.maxCiphertextLength : TLSRecord.maxPlaintextLength }

    /// Bytes received but not yet returned as records.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds bytes as they arrive.
    public mutating func append<C: Collection>(_ chunk: C) where C.Element == UInt8 {
        buffer.append(contentsOf: chunk)
    }

    /// The next whole record, or nil when more bytes are needed.
    public mutating func next() throws(DecodeError) -> TLSRecord? {
        if let failure { throw failure }
        do throws(DecodeError) {
            let pending = buffer[start...]
            if let error = RecordHeader.earlyError(pending) { throw error }
            guard pending.count >= TLSRecord.headerLength else { return nil }
            var r = ByteReader(Array(pending.prefix(TLSRecord.headerLength)))
            let header = try RecordHeader(from: &r, limit: limit)
            if !isProtected, header.length == 0, header.contentType != .applicationData {
                // RFC 5246 §6.2.1: no zero-length handshake, alert or change_cipher_spec fragments.
                throw DecodeError.malformed(field: "record.length", reason: .zeroLengthFragment(header.contentType))
            }
            guard pending.count >= TLSRecord.headerLength + header.length else { return nil }
            let fragStart = start + TLSRecord.headerLength
            let record = TLSRecord(contentType: header.contentType, version: header.version,
                                   fragment: Array(buffer[fragStart ..< fragStart + header.length]))
            start = fragStart + header.length
            if start > 4096, start * 2 > buffer.count {
                buffer.removeFirst(start)
                start = 0
            }
            return record
        } catch {
            failure = error
            throw error
        }
    }

    /// What the stream starts with, for a server that accepts an SSL 2.0-compatible CLIENT-HELLO as
    /// its first bytes (RFC 5246 Appendix E.2).
    public enum SSLv2Start: Equatable, Sendable {
        /// Not one (a TLS record, or something the record checks will refuse).
        case notSSLv2
        /// Too few bytes yet to tell, or the message is not complete.
        case needMoreBytes
        /// The whole message: the 2-byte header (high bit set) and msg_type through challenge.
        case clientHello(wire: [UInt8])
    }

    /// The longest SSL 2.0 CLIENT-HELLO accepted (msg_length): 2^14, TLSPlaintext's limit.
    public static let maxSSLv2ClientHelloLength = 1 << 14

    /// Takes an SSL 2.0 CLIENT-HELLO off the front of the stream, when that is what starts it: a
    /// first byte with the high bit set (a 2-byte length) and msg_type 1.
    public mutating func takeSSLv2ClientHello() throws(DecodeError) -> SSLv2Start {
        if let failure { throw failure }
        let pending = buffer[start...]
        guard let first = pending.first else { return .needMoreBytes }
        guard first & 0x80 != 0 else { return .notSSLv2 }
        guard pending.count >= 3 else { return .needMoreBytes }
        guard pending[start + 2] == 1 else { return .notSSLv2 }
        let length = Int(first & 0x7f) << 8 | Int(pending[start + 1])
        // msg_type, version, three lengths, one cipher spec and a 16-byte challenge at least.
        guard length >= 9 + 3 + 16 else {
            let error = DecodeError.lengthOutOfRange(field: "v2.msg_length", length: length, min: 28, max: Self.maxSSLv2ClientHelloLength)
            failure = error
            throw error
        }
        // It stands for a handshake record's content, so TLSPlaintext's bound applies (RFC 5246
        // §6.2.1); OpenSSL likewise answers record_overflow when it exceeds its record buffer. Refused
        // at once: a header claiming more (a first byte from 0xc1 on, such as garbage that happens to
        // have a 1 in its third byte) would otherwise keep the server waiting for bytes that never come.
        guard length <= Self.maxSSLv2ClientHelloLength else {
            let error = DecodeError.recordOverflow(length: length, limit: Self.maxSSLv2ClientHelloLength)
            failure = error
            throw error
        }
        guard pending.count >= 2 + length else { return .needMoreBytes }
        let wire = Array(pending.prefix(2 + length))
        start += 2 + length
        return .clientHello(wire: wire)
    }

    /// Every whole record now available.
    public mutating func drain() throws(DecodeError) -> [TLSRecord] {
        var out: [TLSRecord] = []
        while let record = try next() { out.append(record) }
        return out
    }
}
