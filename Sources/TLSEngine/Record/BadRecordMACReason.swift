/// Why a protected record did not open (answered with bad_record_mac, RFC 5246 §7.2.2), by name.
/// No words of its own: the catalogue words every case; interpolated, it shows its case name and values.
public enum BadRecordMACReason: Sendable, Hashable {
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
}
