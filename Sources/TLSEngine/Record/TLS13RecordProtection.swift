import Crypto
import TLSCrypto

/// A TLS 1.3 cipher suite (RFC 8446 §B.4): only the AEAD and the hash, because the key exchange
/// and the signature are negotiated apart (key_share, signature_algorithms).
public enum TLS13CipherSuite: UInt16, Sendable, Hashable, CaseIterable {
    case aes128GCMSHA256 = 0x1301
    case aes256GCMSHA384 = 0x1302
    case chacha20Poly1305SHA256 = 0x1303

    /// The IANA name.
    public var name: String {
        switch self {
        case .aes128GCMSHA256: return "TLS_AES_128_GCM_SHA256"
        case .aes256GCMSHA384: return "TLS_AES_256_GCM_SHA384"
        case .chacha20Poly1305SHA256: return "TLS_CHACHA20_POLY1305_SHA256"
        }
    }

    /// The HKDF and transcript hash.
    public var hash: TLS13Hash { self == .aes256GCMSHA384 ? .sha384 : .sha256 }

    /// The record AEAD.
    public var aead: TLS13AEAD {
        switch self {
        case .aes128GCMSHA256: return .aes128GCM
        case .aes256GCMSHA384: return .aes256GCM
        case .chacha20Poly1305SHA256: return .chacha20Poly1305
        }
    }
}

/// The AEAD that protects TLS 1.3 records (RFC 8446 §5.2).
public enum TLS13AEAD: String, Sendable, Hashable, CaseIterable {
    case aes128GCM = "AES_128_GCM"
    case aes256GCM = "AES_256_GCM"
    case chacha20Poly1305 = "CHACHA20_POLY1305"

    public var keyLength: Int { self == .aes128GCM ? 16 : 32 }
    /// iv_length: max(8 bytes, N_MIN) = 12 for all three (RFC 8446 §5.3, RFC 5116 §5).
    public var ivLength: Int { 12 }
    public var tagLength: Int { 16 }
}

/// Why a TLS 1.3 protected record was refused (RFC 8446 §5.2, §5.4, §6.2).
public enum TLS13RecordError: Error, Hashable, Sendable {
    /// The AEAD tag does not verify: wrong keys or sequence number, or changed bytes → bad_record_mac.
    case authenticationFailed
    /// The encrypted record is longer than 2^14 + 256 bytes, or its TLSInnerPlaintext than
    /// 2^14 + 1 → record_overflow.
    case recordOverflow(length: Int)
    /// The record is shorter than the tag → bad_record_mac (it cannot be authentic).
    case tooShort(length: Int)
    /// The decrypted TLSInnerPlaintext holds only zeros: no content type → unexpected_message.
    case noContentType
    /// The 64-bit sequence number would wrap; the keys must change first (§5.3).
    case sequenceNumberExhausted
    /// Keys of the wrong length for the AEAD.
    case invalidKeys

    /// The alert RFC 8446 requires.
    public var alert: AlertDescription {
        switch self {
        case .authenticationFailed, .tooShort: return .badRecordMAC
        case .recordOverflow: return .recordOverflow
        case .noContentType: return .unexpectedMessage
        case .sequenceNumberExhausted, .invalidKeys: return .internalError
        }
    }
}

/// Every value one TLS 1.3 record's protection used, for the teaching trace.
public struct TLS13RecordDetail: Sendable, Hashable {
    public var sequenceNumber: UInt64
    /// write_iv XOR the sequence number, left-padded to iv_length (§5.3): nothing is sent.
    public var nonce: [UInt8]
    /// opaque_type(23) ‖ legacy_record_version(03 03) ‖ length: the record header itself (§5.2).
    public var additionalData: [UInt8]
    /// The real content type, sealed inside the encryption (§5.2).
    public var contentType: ContentType
    /// The content (a handshake message, an alert, application data).
    public var content: [UInt8]
    /// Zero bytes after the content type: padding that hides the content's length (§5.4).
    public var paddingLength: Int
    /// The whole record as it travels: header and encrypted_record (ciphertext ‖ tag).
    public var record: [UInt8]
}

/// One direction of TLS 1.3 record protection (RFC 8446 §5.2–§5.4): a traffic key and IV and the
/// sequence number, which starts at 0 whenever the key changes.
///
///     struct { opaque content[length]; ContentType type; uint8 zeros[padding]; } TLSInnerPlaintext;
///     struct { ContentType opaque_type = application_data; ProtocolVersion legacy_record_version = 0x0303;
///              uint16 length; opaque encrypted_record[length]; } TLSCiphertext;
///
/// Every protected record says application_data 03 03 in its clear header, whatever it carries:
/// an observer learns neither the content type nor the version, and middleboxes that know only
/// TLS 1.2 let it through.
public struct TLS13RecordProtector: Sendable, Hashable {
    public let aead: TLS13AEAD
    public let keys: TLS13TrafficKeys
    public private(set) var sequenceNumber: UInt64 = 0

    /// 2^14: the largest TLSInnerPlaintext content (§5.1).
    public static let maxPlaintextLength = 1 << 14
    /// 2^14 + 256: the largest encrypted_record (§5.2).
    public static let maxCiphertextLength = (1 << 14) + 256

    public init(aead: TLS13AEAD, keys: TLS13TrafficKeys) throws(TLS13RecordError) {
        guard keys.key.count == aead.keyLength, keys.iv.count == aead.ivLength else { throw .invalidKeys }
        self.aead = aead
        self.keys = keys
    }

    /// The per-record nonce: the sequence number as a 64-bit big-endian value, left-padded with
    /// zeros to iv_length, XORed with write_iv (§5.3). Unique per record without sending any of it.
    public func nonce(sequenceNumber seq: UInt64) -> [UInt8] {
        var padded = [UInt8](repeating: 0, count: keys.iv.count)
        for i in 0..<8 { padded[keys.iv.count - 1 - i] = UInt8(truncatingIfNeeded: seq >> (8 * UInt64(i))) }
        return zip(keys.iv, padded).map { $0 ^ $1 }
    }

    /// The record header that is the AEAD's additional data: opaque_type, legacy_record_version
    /// and length as they travel (§5.2), so a changed header byte fails the tag like any other.
    static func header(length: Int, version: ProtocolVersion = .tls12) -> [UInt8] {
        [ContentType.applicationData.rawValue, version.major, version.minor, UInt8((length >> 8) & 0xff), UInt8(length & 0xff)]
    }

    /// Seals `content` of `contentType` with `padding` zero bytes into one record.
    public mutating func seal(contentType: ContentType, content: [UInt8], padding: Int = 0) throws(TLS13RecordError) -> TLS13RecordDetail {
        guard content.count <= Self.maxPlaintextLength, padding >= 0,
              content.count + 1 + padding <= Self.maxPlaintextLength + 1 else {
            throw .recordOverflow(length: content.count + 1 + padding)
        }
        guard sequenceNumber < UInt64.max else { throw .sequenceNumberExhausted }
        let inner = content + [contentType.rawValue] + [UInt8](repeating: 0, count: padding)
        let length = inner.count + aead.tagLength
        let aad = Self.header(length: length)
        let nonce = nonce(sequenceNumber: sequenceNumber)
        let sealed = try Self.seal(aead, key: keys.key, nonce: nonce, plaintext: inner, aad: aad)
        let detail = TLS13RecordDetail(sequenceNumber: sequenceNumber, nonce: nonce, additionalData: aad,
                                       contentType: contentType, content: content, paddingLength: padding,
                                       record: aad + sealed)
        sequenceNumber += 1
        return detail
    }

    /// Opens one record's `encryptedRecord` (what follows the 5-byte header, whose
    /// legacy_record_version was `version`): authenticates it with that header, then finds the
    /// content type as the last non-zero byte of the plaintext (§5.4).
    public mutating func open(encryptedRecord: [UInt8], version: ProtocolVersion = .tls12) throws(TLS13RecordError) -> TLS13RecordDetail {
        guard encryptedRecord.count <= Self.maxCiphertextLength else { throw .recordOverflow(length: encryptedRecord.count) }
        guard encryptedRecord.count >= aead.tagLength else { throw .tooShort(length: encryptedRecord.count) }
        guard sequenceNumber < UInt64.max else { throw .sequenceNumberExhausted }
        let aad = Self.header(length: encryptedRecord.count, version: version)
        let nonce = nonce(sequenceNumber: sequenceNumber)
        let inner = try Self.open(aead, key: keys.key, nonce: nonce, sealed: encryptedRecord, aad: aad)
        // §5.4: the whole TLSInnerPlaintext, padding included, is at most 2^14 + 1 bytes.
        guard inner.count <= Self.maxPlaintextLength + 1 else { throw .recordOverflow(length: inner.count) }
        guard let typeIndex = inner.lastIndex(where: { $0 != 0 }) else { throw .noContentType }
        let detail = TLS13RecordDetail(sequenceNumber: sequenceNumber, nonce: nonce, additionalData: aad,
                                       contentType: ContentType(rawValue: inner[typeIndex]),
                                       content: Array(inner[..<typeIndex]), paddingLength: inner.count - typeIndex - 1,
                                       record: aad + encryptedRecord)
        sequenceNumber += 1
        return detail
    }

    static func seal(_ aead: TLS13AEAD, key: [UInt8], nonce: [UInt8], plaintext: [UInt8], aad: [UInt8]) throws(TLS13RecordError) -> [UInt8] {
        let k = SymmetricKey(data: key)
        do {
            switch aead {
            case .aes128GCM, .aes256GCM:
                let box = try AES.GCM.seal(plaintext, using: k, nonce: try AES.GCM.Nonce(data: nonce), authenticating: aad)
                return Array(box.ciphertext) + Array(box.tag)
            case .chacha20Poly1305:
                let box = try ChaChaPoly.seal(plaintext, using: k, nonce: try ChaChaPoly.Nonce(data: nonce), authenticating: aad)
                return Array(box.ciphertext) + Array(box.tag)
            }
        } catch {
            throw .invalidKeys
        }
    }

    static func open(_ aead: TLS13AEAD, key: [UInt8], nonce: [UInt8], sealed: [UInt8], aad: [UInt8]) throws(TLS13RecordError) -> [UInt8] {
        let k = SymmetricKey(data: key)
        let ciphertext = sealed.prefix(sealed.count - aead.tagLength)
        let tag = sealed.suffix(aead.tagLength)
        do {
            switch aead {
            case .aes128GCM, .aes256GCM:
                let box = try AES.GCM.SealedBox(nonce: try AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                return Array(try AES.GCM.open(box, using: k, authenticating: aad))
            case .chacha20Poly1305:
                let box = try ChaChaPoly.SealedBox(nonce: try ChaChaPoly.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                return Array(try ChaChaPoly.open(box, using: k, authenticating: aad))
            }
        } catch {
            throw .authenticationFailed
        }
    }
}
