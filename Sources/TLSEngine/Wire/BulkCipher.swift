/// The record-protection cipher (RFC 5246 Appendix C, RFC 5288, RFC 7905).
public enum BulkCipher: String, Sendable, Hashable, CaseIterable {
    case aes128GCM = "AES_128_GCM"
    case aes256GCM = "AES_256_GCM"
    case aes128CBC = "AES_128_CBC"
    case aes256CBC = "AES_256_CBC"
    /// ChaCha20-Poly1305 (RFC 8439, in TLS 1.2 by RFC 7905).
    case chaCha20Poly1305 = "CHACHA20_POLY1305"

    /// enc_key_length in bytes.
    public var keyLength: Int {
        switch self {
        case .aes128GCM, .aes128CBC: return 16
        case .aes256GCM, .aes256CBC, .chaCha20Poly1305: return 32
        }
    }

    /// True for AEAD ciphers (RFC 5246 §6.2.3.3), false for block ciphers (§6.2.3.2).
    public var isAEAD: Bool { self == .aes128GCM || self == .aes256GCM || self == .chaCha20Poly1305 }

    /// The AES block size, 16 bytes.
    public var blockLength: Int { 16 }

    /// The GCM or Poly1305 authentication tag length (RFC 5288 §3, RFC 7905 §2), 0 for CBC.
    public var tagLength: Int { isAEAD ? 16 : 0 }
}
