/// Why record keys or a nonce given to a ``RecordProtector`` do not fit its cipher (internal_error:
/// this side's own keys, RFC 5246 §7.2.2). The lengths come from RFC 5246 §6.3 (the key block) and
/// §6.2.3, RFC 5288 §3 (AES-GCM).
public enum RecordKeysFault: Sendable, Hashable {
    /// The encryption key is not the cipher's key length.
    case writeKeyLength(have: Int, need: Int)
    /// The MAC key is not the MAC's key length.
    case macKeyLength(have: Int, need: Int)
    /// The fixed IV from the key block does not fit: GCM takes a 4-byte salt (RFC 5288 §3), CBC in
    /// TLS 1.0 a 16-byte IV (RFC 2246 §6.3), CBC in TLS 1.1+ none.
    case fixedIVLength(have: Int, aead: Bool)
    /// A GCM nonce_explicit that is not 8 bytes (RFC 5288 §3).
    case gcmExplicitNonceLength(have: Int, need: Int)
    /// A CBC explicit IV that is not one block (RFC 5246 §6.2.3.2).
    case cbcExplicitIVLength(have: Int, need: Int)
    /// An explicit IV given for TLS 1.0, which chains CBC IVs (RFC 2246 §6.2.3.2).
    case explicitIVInTLS10
    /// AES-GCM or AES-CBC refused the key or the nonce.
    case cipherRefusedKey(aead: Bool)
    /// A ChaCha20-Poly1305 fixed IV that is not 12 bytes (RFC 7905 §2: fixed_iv_length 12).
    case chaChaIVLength(have: Int)
    /// An explicit nonce given for ChaCha20-Poly1305, whose records carry none (RFC 7905 §2,
    /// record_iv_length 0).
    case explicitNonceWithChaCha(have: Int)
    /// ChaCha20-Poly1305 refused the key or the nonce.
    case chaChaRefusedKey
}
