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
        case .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256:
            return .init(suite: self, keyExchange: .ecdheECDSA, cipher: .aes128GCM, mac: .none, prfHash: .sha256)
        case .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384:
            return .init(suite: self, keyExchange: .ecdheECDSA, cipher: .aes256GCM, mac: .none, prfHash: .sha384)
        case .TLS_DHE_RSA_WITH_AES_128_CBC_SHA:
            return .init(suite: self, keyExchange: .dheRSA, cipher: .aes128CBC, mac: .hmacSHA1, prfHash: .sha256)
        case .TLS_RSA_WITH_AES_256_CBC_SHA:
            return .init(suite: self, keyExchange: .rsa, cipher: .aes256CBC, mac: .hmacSHA1, prfHash: .sha256)
        case .TLS_DHE_RSA_WITH_AES_256_CBC_SHA:
            return .init(suite: self, keyExchange: .dheRSA, cipher: .aes256CBC, mac: .hmacSHA1, prfHash: .sha256)
        case .TLS_RSA_WITH_AES_128_CBC_SHA256:
            return .init(suite: self, keyExchange: .rsa, cipher: .aes128CBC, mac: .hmacSHA256, prfHash: .sha256)
        case .TLS_RSA_WITH_AES_256_CBC_SHA256:
            return .init(suite: self, keyExchange: .rsa, cipher: .aes256CBC, mac: .hmacSHA256, prfHash: .sha256)
        case .TLS_DHE_RSA_WITH_AES_256_CBC_SHA256:
            return .init(suite: self, keyExchange: .dheRSA, cipher: .aes256CBC, mac: .hmacSHA256, prfHash: .sha256)
        case .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA:
            return .init(suite: self, keyExchange: .ecdheRSA, cipher: .aes128CBC, mac: .hmacSHA1, prfHash: .sha256)
        case .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA:
            return .init(suite: self, keyExchange: .ecdheRSA, cipher: .aes256CBC, mac: .hmacSHA1, prfHash: .sha256)
        case .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256:
            return .init(suite: self, keyExchange: .ecdheRSA, cipher: .aes128CBC, mac: .hmacSHA256, prfHash: .sha256)
        case .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384:
            // RFC 5289 §3.2: HMAC-SHA384 and the SHA-384 PRF.
            return .init(suite: self, keyExchange: .ecdheRSA, cipher: .aes256CBC, mac: .hmacSHA384, prfHash: .sha384)
        case .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA:
            return .init(suite: self, keyExchange: .ecdheECDSA, cipher: .aes128CBC, mac: .hmacSHA1, prfHash: .sha256)
        case .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA:
            return .init(suite: self, keyExchange: .ecdheECDSA, cipher: .aes256CBC, mac: .hmacSHA1, prfHash: .sha256)
        case .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256:
            return .init(suite: self, keyExchange: .ecdheECDSA, cipher: .aes128CBC, mac: .hmacSHA256, prfHash: .sha256)
        case .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384:
            // RFC 5289 §3.2: HMAC-SHA384 and the SHA-384 PRF.
            return .init(suite: self, keyExchange: .ecdheECDSA, cipher: .aes256CBC, mac: .hmacSHA384, prfHash: .sha384)
        case .TLS_DHE_RSA_WITH_AES_256_GCM_SHA384:
            // RFC 5288 §3: the SHA-384 PRF (and so the SHA-384 Finished).
            return .init(suite: self, keyExchange: .dheRSA, cipher: .aes256GCM, mac: .none, prfHash: .sha384)
        case .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256:
            // RFC 7905 §2: ChaCha20-Poly1305 with the SHA-256 PRF.
            return .init(suite: self, keyExchange: .ecdheRSA, cipher: .chaCha20Poly1305, mac: .none, prfHash: .sha256)
        case .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256:
            return .init(suite: self, keyExchange: .ecdheECDSA, cipher: .chaCha20Poly1305, mac: .none, prfHash: .sha256)
        case .TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256:
            return .init(suite: self, keyExchange: .dheRSA, cipher: .chaCha20Poly1305, mac: .none, prfHash: .sha256)
        default:
            return nil
        }
    }

    /// True for the suites TLSLab can negotiate.
    public var isImplemented: Bool { parameters != nil }
}
