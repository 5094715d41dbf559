/// Why a dissected field deserves a remark, as a fact with typed values: where the bytes stop, what
/// the engine answers to them, how a record's bytes relate to the messages they carry. The engine
/// holds no words; the renderers word each case from their catalogue (`dissect.note.*`).
public enum DissectionNote: Hashable, Sendable {
    // MARK: Where the bytes stop (measured by the dissector)

    /// The input ends inside this field: it needs `needed` bytes, `available` remain.
    case truncated(needed: Int, available: Int)
    /// The field runs past the end of the vector or structure that holds it.
    case overrun(needed: Int, available: Int)
    /// A length prefix announces more bytes than follow.
    case declaresMore(declared: Int, present: Int)
    /// Bytes left after the structure named `after` should have ended.
    case trailingBytes(count: Int, after: String)
    /// Bytes after a problem noted above, which the dissector does not follow.
    case notDissected
    /// Bytes of a whole message after the field the engine refused: a receiver reads no further.
    case notReadAfterRefusal

    // MARK: The engine's verdict

    /// The engine refuses these bytes with this error (its codec, record reader, reassembler or
    /// record checks, the same code a TLSLab peer runs); `TLSError.alert` is the alert it sends.
    case refused(TLSError)
    /// A TLS 1.3 peer refuses these bytes, which decode, for breaking a rule of RFC 8446 that needs no
    /// state (an extension §4.2's table does not list for the message, a KeyUpdate request that is
    /// neither 0 nor 1); `TLS13Failure.alert` is the alert it sends.
    case refusedInTLS13(TLS13Failure)

    // MARK: Records and the handshake messages they carry (RFC 5246 §6.2.1)

    /// This record's bytes continue the handshake message begun in record `fromRecord`.
    case continuesMessage(fromRecord: Int)
    /// The first `present` of the `total` bytes of a handshake message; the rest is in later records.
    case messageStarts(HandshakeType, present: Int, total: Int)
    /// Fewer than 4 bytes: the start of a handshake message's header, continued in the next record.
    case headerStarts(HandshakeType)
    /// A message put together from the fragments of these records (offsets relative to the message).
    case reassembled(records: [Int])
    /// A handshake message type TLSLab does not model: its body is shown as it is.
    case notModelled(HandshakeType)

    // MARK: Protected records (RFC 5246 §6.2.3)

    /// A protected record of this content type, read without knowing the suite.
    case encrypted(ContentType)
    /// AES-GCM (RFC 5288 §3): ciphertext followed by the 16-byte tag.
    case gcmCiphertext
    /// ChaCha20-Poly1305 (RFC 7905 §2): ciphertext and 16-byte tag; no explicit nonce.
    case chaChaCiphertext
    /// CBC with MAC-then-encrypt (RFC 5246 §6.2.3.2): content, MAC, padding and padding_length, encrypted.
    case blockCiphered
    /// CBC with encrypt-then-MAC (RFC 7366 §3): content, padding and padding_length, encrypted.
    case encryptThenMACCiphertext
    /// The encrypt-then-MAC tag, sent in the clear (RFC 7366 §3), of this HMAC (`HMAC-SHA1`…).
    case encryptThenMACTag(mac: String)

    // MARK: TLS 1.3 (RFC 8446 §5)

    /// TLSCiphertext.encrypted_record: an application_data record after TLS 1.3's ServerHello, the
    /// AEAD-protected TLSInnerPlaintext (content, real content type, zero padding) and its tag (§5.2).
    case tls13EncryptedRecord
    /// A ChangeCipherSpec in TLS 1.3: sent for middlebox compatibility, it changes no keys (§5, Appendix D.4).
    case compatibilityChangeCipherSpec
    /// A TLS 1.3 hello's random: 32 opaque random bytes, no gmt_unix_time (§4.1.2, §4.1.3).
    case tls13Random
    /// A HelloRetryRequest's random: the fixed value SHA-256("HelloRetryRequest") (§4.1.3).
    case helloRetryRequestRandom

    /// The case without its values: what a test enumerates and a catalogue words.
    public enum Kind: String, CaseIterable, Sendable {
        case truncated, overrun, declaresMore, trailingBytes, notDissected, notReadAfterRefusal, refused, continuesMessage, messageStarts,
             headerStarts, reassembled, notModelled, encrypted, gcmCiphertext, chaChaCiphertext, blockCiphered,
             encryptThenMACCiphertext, encryptThenMACTag, refusedInTLS13, tls13EncryptedRecord, compatibilityChangeCipherSpec,
             tls13Random, helloRetryRequestRandom
    }

    public var kind: Kind {
        switch self {
        case .truncated: return .truncated
        case .overrun: return .overrun
        case .declaresMore: return .declaresMore
        case .trailingBytes: return .trailingBytes
        case .notDissected: return .notDissected
        case .notReadAfterRefusal: return .notReadAfterRefusal
        case .refused: return .refused
        case .continuesMessage: return .continuesMessage
        case .messageStarts: return .messageStarts
        case .headerStarts: return .headerStarts
        case .reassembled: return .reassembled
        case .notModelled: return .notModelled
        case .encrypted: return .encrypted
        case .gcmCiphertext: return .gcmCiphertext
        case .chaChaCiphertext: return .chaChaCiphertext
        case .blockCiphered: return .blockCiphered
        case .encryptThenMACCiphertext: return .encryptThenMACCiphertext
        case .encryptThenMACTag: return .encryptThenMACTag
        case .refusedInTLS13: return .refusedInTLS13
        case .tls13EncryptedRecord: return .tls13EncryptedRecord
        case .compatibilityChangeCipherSpec: return .compatibilityChangeCipherSpec
        case .tls13Random: return .tls13Random
        case .helloRetryRequestRandom: return .helloRetryRequestRandom
        }
    }

    /// The engine's error, for a verdict.
    public var refusal: TLSError? {
        if case .refused(let error) = self { return error }
        return nil
    }

    /// The alert the refusal sends, for an engine's verdict of either version.
    public var refusalAlert: AlertDescription? {
        switch self {
        case .refused(let error): return error.alert
        case .refusedInTLS13(let failure): return failure.alert
        default: return nil
        }
    }
}
