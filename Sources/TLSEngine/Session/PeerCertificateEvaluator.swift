import TLSCrypto

/// Decides whether a peer's certificate chain (RFC 5246 §7.4.2, leaf first, DER) is trusted.
/// The PKI layer conforms; the engine calls it for the server's chain and for a client's chain
/// in mutual TLS. `role` is the role of the peer that sent the chain.
public protocol PeerCertificateEvaluator {
    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision
}
