/// How a cipher suite cuts the key block (RFC 5246 §6.3):
///
///     client_write_MAC_key[SecurityParameters.mac_key_length]
///     server_write_MAC_key[SecurityParameters.mac_key_length]
///     client_write_key[SecurityParameters.enc_key_length]
///     server_write_key[SecurityParameters.enc_key_length]
///     client_write_IV[SecurityParameters.fixed_iv_length]
///     server_write_IV[SecurityParameters.fixed_iv_length]
public struct KeyBlockLayout: Sendable, Hashable {
    /// mac_key_length: 0 for AEAD suites.
    public let macKeyLength: Int
    /// enc_key_length.
    public let encKeyLength: Int
    /// fixed_iv_length: the 4-byte implicit nonce "salt" for AES-GCM (RFC 5288 §3); 0 for CBC in
    /// TLS 1.1/1.2 (explicit per-record IV); the block size for CBC in TLS 1.0.
    public let fixedIVLength: Int

    public init(macKeyLength: Int, encKeyLength: Int, fixedIVLength: Int) {
        precondition(macKeyLength >= 0 && encKeyLength >= 0 && fixedIVLength >= 0,
                     "key block lengths are non-negative")  // programmer error: layouts are constants
        self.macKeyLength = macKeyLength
        self.encKeyLength = encKeyLength
        self.fixedIVLength = fixedIVLength
    }

    /// The number of key-block bytes the suite consumes.
    public var totalLength: Int { 2 * (macKeyLength + encKeyLength + fixedIVLength) }

    /// TLS_*_WITH_AES_128_GCM_SHA256 (RFC 5288): no MAC key, 16-byte keys, 4-byte salts.
    public static let aes128GCM = KeyBlockLayout(macKeyLength: 0, encKeyLength: 16, fixedIVLength: 4)
    /// TLS_*_WITH_AES_256_GCM_SHA384 (RFC 5288).
    public static let aes256GCM = KeyBlockLayout(macKeyLength: 0, encKeyLength: 32, fixedIVLength: 4)
    /// TLS_*_WITH_AES_128_CBC_SHA256 (RFC 5246 Appendix C): HMAC-SHA256 keys, explicit IVs.
    public static let aes128CBCSHA256 = KeyBlockLayout(macKeyLength: 32, encKeyLength: 16, fixedIVLength: 0)
    /// TLS_*_WITH_AES_256_CBC_SHA256 (RFC 5246 Appendix C).
    public static let aes256CBCSHA256 = KeyBlockLayout(macKeyLength: 32, encKeyLength: 32, fixedIVLength: 0)
    /// TLS_*_WITH_AES_128_CBC_SHA in TLS 1.1/1.2 (RFC 5246 Appendix C): HMAC-SHA1 keys.
    public static let aes128CBCSHA = KeyBlockLayout(macKeyLength: 20, encKeyLength: 16, fixedIVLength: 0)
    /// TLS_RSA_WITH_AES_128_CBC_SHA in TLS 1.0 (RFC 2246 §6.3): the key block also yields the CBC IVs.
    public static let aes128CBCSHATLS10 = KeyBlockLayout(macKeyLength: 20, encKeyLength: 16, fixedIVLength: 16)
}
