/// Joins handshake-record fragments into whole handshake messages (RFC 5246 §6.2.1: "multiple
/// client messages of the same ContentType MAY be coalesced into a single TLSPlaintext record,
/// or a single message MAY be fragmented across several records").
public struct HandshakeReassembler: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: DecodeError?

    /// The largest body accepted (a uint24 allows 16 MiB; a certificate chain is far smaller).
    public let maxMessageLength: Int

    public init(maxMessageLength: Int = 1 << 18) {
        self.maxMessageLength = maxMessageLength
    }

    /// True while part of a message is buffered. RFC 5246 §7.4 lets nothing else (for example a
    /// ChangeCipherSpec) come in between, so the state machine should then refuse other records.
    public var hasPartialMessage: Bool { start < buffer.count }

    /// How many bytes of an incomplete message are buffered.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds the fragment of one handshake record.
    public mutating func append(_ fragment: [UInt8]) {
        buffer.append(contentsOf: fragment)
    }

    /// The next whole message, or nil when more fragments are needed.
    public mutating func next() throws(DecodeError) -> RawHandshakeMessage? {
        if let failure { throw failure }
        let available = buffer.count - start
        guard available >= HandshakeMessage.headerLength else { return nil }
        var header = ByteReader(Array(buffer[start ..< start + HandshakeMessage.headerLength]))
        let length = try HandshakeMessage.readHeader(from: &header).length
        guard length <= maxMessageLength else {
            let error = DecodeError.handshakeMessageTooLarge(length: length, limit: maxMessageLength)
            failure = error
            throw error
        }
        guard available >= HandshakeMessage.headerLength + length else { return nil }
        let bodyStart = start + HandshakeMessage.headerLength
        let message = RawHandshakeMessage(type: HandshakeType(rawValue: buffer[start]),
                                          body: Array(buffer[bodyStart ..< bodyStart + length]))
        start = bodyStart + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return message
    }

    /// Every whole message now available.
    public mutating func drain() throws(DecodeError) -> [RawHandshakeMessage] {
        var out: [RawHandshakeMessage] = []
        while let message = try next() { out.append(message) }
        return out
    }
}
