/// The sentences of a TLS 1.3 run (RFC 8446): the key schedule's steps, the protected records'
/// outer header and inner content type, who knows which 1.3 secret, and a 1.3 side's failures.
extension Explanations {
    static let englishTLS13: [String: String] = [
        "run.summary.tls13": "TLS 1.3 (RFC 8446), 1-RTT: X25519 key share in the ClientHello, TLS_AES_128_GCM_SHA256, the certificate encrypted",
        "cause.tls13": "{failure} (RFC 8446 §6.2: {alert})",
    ]
}
