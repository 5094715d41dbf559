/// Why a protected record did not open (answered with bad_record_mac, RFC 5246 §7.2.2), by name.
public enum BadRecordMACReason: Sendable, Hashable, CustomStringConvertible {
    /// An AES-GCM record shorter than nonce_explicit and tag (RFC 5288 §3).
    case gcmRecordTooShort(needed: Int, got: Int)
    /// The AES-GCM tag does not verify: a wrong key or sequence number, or tampered bytes.
    case gcmTagMismatch
    /// A CBC record too short for IV, MAC and padding (RFC 5246 §6.2.3.2).
    case cbcRecordTooShort(length: Int)
    /// AES-CBC refused the ciphertext.
    case cbcDecryptionFailed
    /// The padding or the MAC does not verify; the two are checked together so that they look the
    /// same (RFC 5246 §6.2.3.2). `mac`: the MAC's name (HMAC-SHA256, …).
    case cbcPaddingOrMACMismatch(mac: String)
    /// An encrypt-then-MAC record too short for IV, a block and the MAC (RFC 7366 §3).
    case encryptThenMACRecordTooShort(length: Int, mac: String)
    /// The MAC over IV and ciphertext does not verify, checked before decrypting (RFC 7366 §3).
    case encryptThenMACMismatch(mac: String)
    /// The MAC verified but the padding the sender built is malformed (RFC 7366 §3).
    case encryptThenMACPaddingMalformed
    /// A ChaCha20-Poly1305 record shorter than its 16-byte Poly1305 tag (RFC 7905 §2).
    case chaChaRecordTooShort(needed: Int, got: Int)
    /// The Poly1305 tag does not verify: a wrong key or sequence number, or tampered bytes.
    case poly1305TagMismatch

    /// The English line the JSON Lines contract's alert `cause` carries (renderers word the case).
    public var description: String {
        switch self {
        case let .gcmRecordTooShort(needed, got): return "a GCM record needs at least \(needed) bytes, got \(got)"
        case .gcmTagMismatch: return "the AES-GCM tag does not verify (wrong key, sequence number or tampered bytes)"
        case .cbcRecordTooShort(let length): return "a CBC record of \(length) bytes cannot hold IV, MAC and padding"
        case .cbcDecryptionFailed: return "AES-CBC decryption failed"
        case .cbcPaddingOrMACMismatch(let mac): return "the padding or the \(mac) of the record does not verify"
        case let .encryptThenMACRecordTooShort(length, mac):
            return "an encrypt-then-MAC record of \(length) bytes cannot hold IV, a block and the \(mac)"
        case .encryptThenMACMismatch(let mac): return "the \(mac) over IV and ciphertext does not verify (checked before decrypting)"
        case .encryptThenMACPaddingMalformed: return "the padding of an encrypt-then-MAC record is malformed"
        case let .chaChaRecordTooShort(needed, got): return "a ChaCha20-Poly1305 record needs at least \(needed) bytes, got \(got)"
        case .poly1305TagMismatch: return "the Poly1305 tag does not verify (wrong key, sequence number or tampered bytes)"
        }
    }
}
