/// A ClientHello read once by a ``DualVersionServer`` and handed to the engine of the version it
/// chose: the records it arrived in, the message (its bytes start the transcript), its decoded
/// form, and what followed it, so nothing is read or decoded twice.
struct ClientHelloHandoff {
    /// The plaintext handshake records that carried the ClientHello, in order.
    var records: [TLSRecord]
    var message: RawHandshakeMessage
    var hello: ClientHello
    /// Handshake bytes after the ClientHello in its last record.
    var handshakeRest: [UInt8]
    /// Bytes received after that record, not yet cut into records.
    var unread: [UInt8]
}

/// Reads the first handshake message off a byte stream with the shared record reader and handshake
/// reassembler, keeping the records and the raw bytes until a side that speaks two versions has
/// decided which engine goes on (``DualVersionServer``, ``DualVersionClient``).
struct FirstMessageReader {
    enum Outcome {
        /// More bytes are needed.
        case needMore
        /// The first handshake message, whole, with what came with it and after it.
        case message(records: [TLSRecord], message: RawHandshakeMessage, handshakeRest: [UInt8], unread: [UInt8])
        /// Anything else (an alert, another content type, bytes that do not parse, an SSL 2.0
        /// CLIENT-HELLO): the stream goes as received to the engine that reads it as today.
        case notAHandshakeMessage
    }

    private var reader = RecordReader()
    private var reassembler = HandshakeReassembler()
    private var fragments: [UInt8] = []
    private(set) var records: [TLSRecord] = []
    /// Every byte received so far, for an engine that reads the stream itself.
    private(set) var received: [UInt8] = []

    mutating func append(_ bytes: [UInt8]) -> Outcome {
        received += bytes
        // RFC 5246 Appendix E.2: a first byte with the high bit set starts an SSL 2.0 CLIENT-HELLO.
        if let first = received.first, first & 0x80 != 0 { return .notAHandshakeMessage }
        reader.append(bytes)
        while true {
            let record: TLSRecord
            do {
                guard let next = try reader.next() else { return .needMore }
                record = next
            } catch {
                return .notAHandshakeMessage
            }
            guard record.contentType == .handshake else { return .notAHandshakeMessage }
            records.append(record)
            fragments += record.fragment
            reassembler.append(record.fragment)
            do {
                guard let message = try reassembler.next() else { continue }
                let rest = Array(fragments.suffix(reassembler.bufferedByteCount))
                let unread = Array(received.suffix(reader.bufferedByteCount))
                return .message(records: records, message: message, handshakeRest: rest, unread: unread)
            } catch {
                return .notAHandshakeMessage
            }
        }
    }
}
