/// What a cipher suite fixes (RFC 5246 §6.1 SecurityParameters, Appendix C).
public struct CipherSuiteParameters: Sendable, Hashable {
    public let suite: CipherSuite
    public let keyExchange: KeyExchangeAlgorithm
    public let cipher: BulkCipher
    public let mac: MACAlgorithm
    public let prfHash: PRFHash

    /// enc_key_length.
    public var keyLength: Int { cipher.keyLength }
    /// mac_key_length (0 for AEAD).
    public var macKeyLength: Int { mac.length }
    /// mac_length (0 for AEAD).
    public var macLength: Int { mac.length }
    /// fixed_iv_length in TLS 1.1 and 1.2: the 4-byte GCM salt (RFC 5288 §3), ChaCha20-Poly1305's
    /// 12-byte IV (RFC 7905 §2), none for CBC (the IV is explicit in each record). TLS 1.0 CBC takes
    /// a 16-byte IV from the key block.
    public func fixedIVLength(version: ProtocolVersion = .tls12) -> Int {
        if cipher == .chaCha20Poly1305 { return 12 }
        if cipher.isAEAD { return 4 }
        return version <= .tls10 ? cipher.blockLength : 0
    }
    /// record_iv_length: the explicit per-record nonce (8 bytes for GCM, none for ChaCha20-Poly1305)
    /// or IV (16 for CBC, TLS 1.1+).
    public func recordIVLength(version: ProtocolVersion = .tls12) -> Int {
        if cipher == .chaCha20Poly1305 { return 0 }
        if cipher.isAEAD { return 8 }
        return version <= .tls10 ? 0 : cipher.blockLength
    }
    /// The key_block length (RFC 5246 §6.3): 2 × (mac key + enc key + fixed IV).
    public func keyBlockLength(version: ProtocolVersion = .tls12) -> Int {
        2 * (macKeyLength + keyLength + fixedIVLength(version: version))
    }
    /// verify_data_length (RFC 5246 §7.4.9): 12 for every suite here.
    public var verifyDataLength: Int { 12 }
    /// True when the key exchange is ephemeral (a stolen server key does not decrypt past sessions).
    public var isForwardSecret: Bool { keyExchange != .rsa }
    public var isAEAD: Bool { cipher.isAEAD }

    /// How records are protected under this suite: AES-GCM, ChaCha20-Poly1305, or AES-CBC with the
    /// suite's HMAC.
    public var recordCipher: RecordCipher {
        switch mac {
        case .none where cipher == .chaCha20Poly1305: return .chaCha20Poly1305
        case .none: return .aesGCM(keyLength: keyLength)
        case .hmacSHA1: return .aesCBC(keyLength: keyLength, mac: .sha1)
        case .hmacSHA256: return .aesCBC(keyLength: keyLength, mac: .sha256)
        case .hmacSHA384: return .aesCBC(keyLength: keyLength, mac: .sha384)
        }
    }
}
