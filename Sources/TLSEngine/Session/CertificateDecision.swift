import TLSCrypto

/// What the trust layer decided about a peer's certificate chain (the engine only carries it out).
public enum CertificateDecision: Sendable {
    /// Trusted: the handshake continues with the leaf's RSA key; `summary` says why, for the trace.
    case accept(leafPublicKey: RSAPublicKey, summary: String)
    /// Refused: the engine sends `alert` (RFC 5246 §7.2.2: bad_certificate, unknown_ca, …).
    case reject(AlertDescription, reason: String)
}
