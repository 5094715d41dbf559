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
                throw DecodeError.malformed(field: "record.length", reason: "zero-length \(header.contentType) fragment")
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

    /// Every whole record now available.
    public mutating func drain() throws(DecodeError) -> [TLSRecord] {
        var out: [TLSRecord] = []
        while let record = try next() { out.append(record) }
        return out
    }
}
