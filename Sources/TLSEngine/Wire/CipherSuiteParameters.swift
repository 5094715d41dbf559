/// The key exchange a cipher suite names (RFC 5246 §7.4.3, RFC 8422 §2).
public enum KeyExchangeAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSA key transport: the client encrypts the premaster secret to the server's key; no
    /// ServerKeyExchange (RFC 5246 §7.4.7.1).
    case rsa = "RSA"
    /// Ephemeral finite-field Diffie-Hellman signed with RSA (RFC 5246 §7.4.3).
    case dheRSA = "DHE_RSA"
    /// Ephemeral elliptic-curve Diffie-Hellman signed with RSA (RFC 8422 §2.1).
    case ecdheRSA = "ECDHE_RSA"

    /// True when the server sends a ServerKeyExchange.
    public var hasServerKeyExchange: Bool { self != .rsa }
}

/// The record-protection cipher (RFC 5246 Appendix C, RFC 5288).
public enum BulkCipher: String, Sendable, Hashable, CaseIterable {
    case aes128GCM = "AES_128_GCM"
    case aes256GCM = "AES_256_GCM"
    case aes128CBC = "AES_128_CBC"
    case aes256CBC = "AES_256_CBC"

    /// enc_key_length in bytes.
    public var keyLength: Int {
        switch self {
        case .aes128GCM, .aes128CBC: return 16
        case .aes256GCM, .aes256CBC: return 32
        }
    }

    /// True for AEAD ciphers (RFC 5246 §6.2.3.3), false for block ciphers (§6.2.3.2).
    public var isAEAD: Bool { self == .aes128GCM || self == .aes256GCM }

    /// The AES block size, 16 bytes.
    public var blockLength: Int { 16 }

    /// The GCM authentication tag length (RFC 5288 §3), 0 for CBC.
    public var tagLength: Int { isAEAD ? 16 : 0 }
}

/// The record MAC (RFC 5246 §6.2.3.1); `none` for AEAD suites.
public enum MACAlgorithm: String, Sendable, Hashable, CaseIterable {
    case none = "AEAD"
    case hmacSHA1 = "SHA"
    case hmacSHA256 = "SHA256"

    /// mac_length (= mac_key_length) in bytes.
    public var length: Int {
        switch self {
        case .none: return 0
        case .hmacSHA1: return 20
        case .hmacSHA256: return 32
        }
    }
}

/// The hash of the TLS 1.2 PRF (RFC 5246 §5; SHA-384 for the `_SHA384` suites, RFC 5288 §3).
public enum PRFHash: String, Sendable, Hashable, CaseIterable {
    case sha256 = "SHA256"
    case sha384 = "SHA384"

    public var digestLength: Int { self == .sha256 ? 32 : 48 }
}

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
    /// fixed_iv_length in TLS 1.1 and 1.2: the 4-byte GCM salt (RFC 5288 §3), none for CBC
    /// (the IV is explicit in each record). TLS 1.0 CBC takes a 16-byte IV from the key block.
    public func fixedIVLength(version: ProtocolVersion = .tls12) -> Int {
        if cipher.isAEAD { return 4 }
        return version <= .tls10 ? cipher.blockLength : 0
    }
    /// record_iv_length: the explicit per-record nonce (8 bytes for GCM) or IV (16 for CBC, TLS 1.1+).
    public func recordIVLength(version: ProtocolVersion = .tls12) -> Int {
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
}

extension CipherSuite {
    /// The algorithms of the suites TLSLab implements; nil for any other suite.
    public var parameters: CipherSuiteParameters? {
        switch self {
        case .TLS_RSA_WITH_AES_128_CBC_SHA:
            return .init(suite: self, keyExchange: .rsa, cipher: .aes128CBC, mac: .hmacSHA1, prfHash: .sha256)
        case .TLS_RSA_WITH_AES_128_GCM_SHA256:
            return .init(suite: self, keyExchange: .rsa, cipher: .aes128GCM, mac: .none, prfHash: .sha256)
        case .TLS_RSA_WITH_AES_256_GCM_SHA384:
            return .init(suite: self, keyExchange: .rsa, cipher: .aes256GCM, mac: .none, prfHash: .sha384)
        case .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256:
            return .init(suite: self, keyExchange: .dheRSA, cipher: .aes128GCM, mac: .none, prfHash: .sha256)
        case .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256:
            return .init(suite: self, keyExchange: .dheRSA, cipher: .aes128CBC, mac: .hmacSHA256, prfHash: .sha256)
        case .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256:
            return .init(suite: self, keyExchange: .ecdheRSA, cipher: .aes128GCM, mac: .none, prfHash: .sha256)
        case .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384:
            return .init(suite: self, keyExchange: .ecdheRSA, cipher: .aes256GCM, mac: .none, prfHash: .sha384)
        default:
            return nil
        }
    }

    /// True for the suites TLSLab can negotiate.
    public var isImplemented: Bool { parameters != nil }
}
