/// The public name of a handshake state, as RFC 5246 §7.3's message flow reads (what a
/// `stateChanged` event and a renderer show).
public enum TLSStateName: String, Sendable, Hashable, CaseIterable {
    case start
    // Client (RFC 5246 §7.3, Figure 1 and 2, client side).
    case expectServerHello
    case expectCertificate
    case expectServerKeyExchange
    case expectCertificateRequestOrServerHelloDone
    case expectServerHelloDone
    /// RFC 5077 §3.3: the server said (an empty SessionTicket in ServerHello) that a ticket comes
    /// before its ChangeCipherSpec.
    case expectNewSessionTicket
    // Server side.
    case expectClientHello
    case expectClientCertificate
    case expectClientKeyExchange
    case expectCertificateVerify
    // Both.
    case expectChangeCipherSpec
    case expectFinished
    case connected
    case closed
    case failed
}
