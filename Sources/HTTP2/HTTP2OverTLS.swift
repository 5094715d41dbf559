import TLSEngine

/// What HTTP/2 asks of the TLS connection under it (RFC 9113 §9.2).
public enum HTTP2OverTLS {
    /// Why a TLS connection is not good enough for HTTP/2 (RFC 9113 §9.2, §9.2.2), nil when it is:
    /// a version below TLS 1.2 first, then a suite on the prohibited list.
    public static func inadequateSecurity(version: ProtocolVersion?, suite: CipherSuite?) -> String? {
        if let version, version.rawValue < ProtocolVersion.tls12.rawValue {
            return "\(version) is below TLS 1.2, the least HTTP/2 over TLS may use (RFC 9113 §9.2)"
        }
        guard let suite, let parameters = suite.parameters, !(parameters.isForwardSecret && parameters.isAEAD) else { return nil }
        return "\(suite.name ?? suite.hex) is on HTTP/2's prohibited list (RFC 9113 §9.2.2): "
            + (parameters.isForwardSecret ? "no AEAD cipher" : "no ephemeral key exchange")
    }
}
