/// Rules shared by both sides about which suite fits which version.
enum SuiteSelection {
    /// RFC 5246 (AEAD, SHA-256/384 PRF and MAC suites) is TLS 1.2 only; in TLS 1.0/1.1 only
    /// TLS_RSA_WITH_AES_128_CBC_SHA applies. TLS 1.0/1.1 signatures (MD5 ‖ SHA-1 without a
    /// DigestInfo) are not implemented, so DHE/ECDHE are TLS 1.2 only here too.
    static func isAllowed(_ params: CipherSuiteParameters, version: ProtocolVersion) -> Bool {
        if version >= .tls12 { return true }
        return !params.cipher.isAEAD && params.mac == .hmacSHA1 && params.keyExchange == .rsa
    }
}
