import TLSCrypto
import TLSEngine
import Trace

extension RunDocument {
    /// One TLS record as it travels (RFC 5246 §6.2): the record header and fragment field by field,
    /// and for a protected record what it decrypts to and the values its protection used, so a
    /// reader can redo the decryption from what a page shows.
    public struct RecordBytes: Sendable, Hashable {
        /// The record as on the wire (header and fragment), dissected; for a handshake record in the
        /// clear only its 5-byte header, since the step's own bytes are the messages it carries.
        public var wire: MessageBytes
        /// `wire` holds the header alone: the fragment is the handshake message(s) the step shows.
        public var headerOnly = false
        /// Nil while the record travels in the clear.
        public var protection: Protection?

        /// How a protected record was sealed (RFC 5246 §6.2.3).
        public struct Protection: Sendable, Hashable {
            /// The bulk cipher of the negotiated suite.
            public var cipher: BulkCipher
            /// The record's sequence number in its direction (§6.1: zero after ChangeCipherSpec).
            public var sequenceNumber: UInt64
            /// AES-GCM: salt ‖ explicit nonce (RFC 5288 §3). ChaCha20-Poly1305: the key block's IV
            /// XOR the padded sequence number (RFC 7905 §2). CBC: the record's IV.
            public var nonceOrIV: [UInt8]
            /// AEAD: the additional data; CBC: the MAC's header (seq_num ‖ type ‖ version ‖ length).
            public var additionalData: [UInt8]
            /// The GCM or Poly1305 tag, or the HMAC.
            public var authenticator: [UInt8]
            /// The sender's write key from the key block (RFC 5246 §6.3), when the trace holds it.
            public var writeKey: [UInt8]?
            /// The TLSPlaintext the sender sealed (type, version, length, fragment), dissected; in
            /// TLS 1.3 the TLSInnerPlaintext (content ‖ type ‖ zeros, RFC 8446 §5.2).
            public var plaintext: MessageBytes
            /// A TLS 1.3 record (RFC 8446 §5.2–§5.3): the nonce is the write IV XOR the sequence
            /// number, the additional data the record's own header.
            public var tls13 = false
            /// TLS 1.3: the sender's write IV (§7.3), which the nonce is built from.
            public var writeIV: [UInt8]?
            /// TLS 1.3: the traffic secret the write key and IV were expanded from (`server_handshake_traffic_secret`…).
            public var trafficSecret: String?
        }
    }
}

/// Which step shows each record a party sends: a handshake record beside the first message it
/// carries (the messages are written before the record that carries them is sealed); a
/// ChangeCipherSpec, alert or application-data record beside the step that sends it (sealed just
/// before that step's event).
struct RecordPlacement {
    struct Side: Hashable {
        var actor: Actor
        var connection: Int
    }

    /// Handshake messages a side has sent that no record has carried yet: their step and the bytes left.
    private var uncarried: [Side: [(step: Int, bytes: Int)]] = [:]
    /// Records sealed before the step that sends their content.
    private var waiting: [Side: [RunDocument.RecordBytes]] = [:]
    /// The key block each side derived (the write key of a protected record).
    private var keys: [Side: KeyBlock] = [:]
    /// The sides that sent a ClientHello (they write with the client's key).
    private var clients: Set<Side> = []
    /// What each side negotiated (the suite reads a protected record's fields; encrypt-then-MAC, RFC 7366, how CBC records are laid out).
    private var negotiated: [Side: NegotiationTrace] = [:]
    /// The step of each side's latest send (a TLS 1.3 record is sealed just after the event that sends its content).
    var lastSend: [Side: Int] = [:]
    /// TLS 1.3: each side's record AEAD and current write keys (RFC 8446 §7.3).
    var tls13AEAD: [Side: TLS13AEAD] = [:]
    var tls13WriteKeys: [Side: (keys: TLS13TrafficKeys, secret: TLS13Secret)] = [:]

    /// Takes in `event` (step `step` of the document) and returns the records to attach to steps
    /// (step index → records).
    mutating func place(_ event: TraceEvent, step: Int) -> [(step: Int, record: RunDocument.RecordBytes)] {
        let side = Side(actor: event.actor, connection: event.connection)
        guard case .tls(let tls) = event.kind else { return [] }
        switch tls {
        case .handshakeSent(let message, let wire):
            lastSend[side] = step
            if case .clientHello = message { clients.insert(side) }
            uncarried[side, default: []].append((step, wire.count))
        case .negotiated(let n):
            negotiated[side] = n
        case .derived(.keyBlock(_, _, _, let block)):
            keys[side] = block
        case .recordSent(let record):
            let bytes = recordBytes(record, side: side)
            if record.contentType == .handshake, var queue = uncarried[side], let first = queue.first {
                var left = record.plaintext.count
                while left > 0, !queue.isEmpty {
                    let take = min(left, queue[0].bytes)
                    queue[0].bytes -= take
                    left -= take
                    if queue[0].bytes == 0 { queue.removeFirst() }
                }
                uncarried[side] = queue
                return [(first.step, bytes)]
            }
            waiting[side, default: []].append(bytes)
        case .changeCipherSpecSent, .alertSent, .applicationDataSent:
            lastSend[side] = step
            let records = waiting.removeValue(forKey: side) ?? []
            return records.map { (step, $0) }
        case .tls13(let fact):
            return placeTLS13(fact, side: side)
        default:
            break
        }
        return []
    }

    private func recordBytes(_ record: RecordTrace, side: Side) -> RunDocument.RecordBytes {
        let suite = negotiated[side]?.cipherSuite
        let dissector = Dissector(cipherSuite: suite, encryptThenMAC: negotiated[side]?.encryptThenMAC ?? false)
        let dissection = dissector.dissectRecords(record.wire, protected: record.crypto != nil)
        if record.crypto == nil, record.contentType == .handshake, record.wire.count >= 5 {
            // The header's leaves only; the fragment's messages are the step's own bytes.
            let header = dissection.fields.map { f in
                var f = f
                f.children = f.children.filter { $0.end <= 5 }
                f.length = 5
                return f
            }
            return RunDocument.RecordBytes(wire: RunDocument.MessageBytes(bytes: Array(record.wire.prefix(5)), dissection: Dissection(fields: header)),
                                           headerOnly: true)
        }
        let wire = RunDocument.MessageBytes(bytes: record.wire, dissection: dissection)
        guard let crypto = record.crypto, let cipher = suite?.parameters?.cipher else { return RunDocument.RecordBytes(wire: wire) }
        // TLSPlaintext (RFC 5246 §6.2.1): the same type and version, the plaintext's length.
        let header: [UInt8] = [record.contentType.rawValue, record.version.major, record.version.minor,
                               UInt8(crypto.plaintext.count >> 8), UInt8(crypto.plaintext.count & 0xff)]
        let plain = header + crypto.plaintext
        let plaintext = RunDocument.MessageBytes(bytes: plain, dissection: dissector.dissectRecords(plain))
        let key = keys[side].map { clients.contains(side) ? $0.clientWriteKey : $0.serverWriteKey }
        return RunDocument.RecordBytes(wire: wire, protection: .init(
            cipher: cipher, sequenceNumber: crypto.sequenceNumber, nonceOrIV: crypto.nonceOrIV,
            additionalData: crypto.additionalData, authenticator: crypto.authenticator, writeKey: key, plaintext: plaintext))
    }
}
