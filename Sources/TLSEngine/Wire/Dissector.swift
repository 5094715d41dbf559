/// A field-level dissector for TLS 1.2 and TLS 1.3 bytes: records (RFC 5246 §6.2, RFC 8446 §5) or bare
/// handshake messages (RFC 5246 §7.4, RFC 8446 §4), as one direction's byte stream or a whole
/// handshake's messages in order. A ServerHello whose supported_versions selects TLS 1.3 makes what
/// follows TLS 1.3: the messages whose shape changed are read by the TLS 1.3 engine's readers, and
/// application_data records are protected (RFC 8446 §5.2).
///
/// Every field gets its offset, length, RFC name and meaning (a typed ``FieldValue``); the leaves
/// cover every input byte exactly once. There is one grammar: a handshake message's body, a
/// ChangeCipherSpec and an alert are read by the engine's own codec and content checks, with a
/// ``FieldRecorder`` on their `ByteReader` that records each read (name, offset, length) as a field;
/// the dissector itself walks only the framing (record headers, handshake headers, records that carry
/// a message in pieces, protected fragments). Bad or truncated input never stops the dissection with an
/// error: the field where the bytes stop carries a typed note, and what is not read is shown as
/// undissected. Whether bytes are acceptable is never decided here: the `TLSError` the engine's
/// `RecordReader`, content checks, `HandshakeReassembler` and codec throw is attached to the field it
/// names (``DissectionNote/refused(_:)``, whose `alert` is the one a TLSLab peer sends). The renderers
/// word every note and value from their catalogue.
/// After a ChangeCipherSpec record, the records that follow in the same stream are shown as
/// opaque ciphertext (split into explicit nonce/IV and ciphertext when the suite is known, and into
/// IV, ciphertext and the MAC sent in the clear under encrypt-then-MAC).
public struct Dissector: Sendable {
    /// Version and key exchange used to read ServerKeyExchange, ClientKeyExchange,
    /// CertificateRequest and digitally-signed fields; a ServerHello in the input updates them.
    public var context: HandshakeDecodingContext
    /// The negotiated suite, if known (a ServerHello in the input sets it).
    public var cipherSuite: CipherSuite?
    /// True when encrypt-then-MAC (RFC 7366) was negotiated: CBC records are then read as
    /// IV ‖ ciphertext ‖ MAC. A ServerHello in the input sets it from its extensions.
    public var encryptThenMAC: Bool

    /// `context.version` `.tls13`: the bytes are TLS 1.3 from the start (bare EncryptedExtensions,
    /// Certificate… messages, or records after the ServerHello), as a ServerHello selecting it would make them.
    public init(context: HandshakeDecodingContext = .init(), cipherSuite: CipherSuite? = nil, encryptThenMAC: Bool = false) {
        var context = context
        if let kx = cipherSuite?.parameters?.keyExchange, context.keyExchange == nil { context.keyExchange = kx }
        if context.version == .tls13, let suite = cipherSuite.flatMap({ TLS13CipherSuite(rawValue: $0.rawValue) }) {
            context.verifyDataLength = suite.hash.length
        }
        self.context = context
        self.cipherSuite = cipherSuite
        self.encryptThenMAC = encryptThenMAC
    }

    /// Dissects a stream of records. `protected`: the stream starts after its sender's
    /// ChangeCipherSpec, so every record's fragment is protected (RFC 5246 §6.2.3).
    public func dissectRecords(_ bytes: [UInt8], protected: Bool = false) -> Dissection {
        let session = DissectionSession(bytes: bytes, context: context, cipherSuite: cipherSuite, encryptThenMAC: encryptThenMAC)
        session.encrypted = protected
        session.records()
        return Dissection(fields: session.cursor.fields, reassembled: session.reassembled)
    }

    /// Dissects handshake messages (each with its 4-byte header) laid end to end.
    public func dissectHandshakeMessages(_ bytes: [UInt8]) -> Dissection {
        let session = DissectionSession(bytes: bytes, context: context, cipherSuite: cipherSuite, encryptThenMAC: encryptThenMAC)
        session.cursor.guarded { () throws(DissectionStop) in
            while !session.cursor.isAtLimit { try session.handshakeMessage() }
        }
        return Dissection(fields: session.cursor.fields)
    }
}
