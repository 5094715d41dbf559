/// The client side of a TLS 1.2 (and 1.0/1.1) handshake as a value (RFC 5246 §7.3):
///
///     ClientHello        -->
///                        <--  ServerHello, Certificate, [ServerKeyExchange],
///                             [CertificateRequest], ServerHelloDone
///     [Certificate], ClientKeyExchange, [CertificateVerify],
///     ChangeCipherSpec, Finished -->
///                        <--  ChangeCipherSpec, Finished
///     Application Data   <->  Application Data
///
/// No I/O: each input returns the records to write and the events. Any error sends a fatal
/// alert (``TLSError/alert``) and ends in `failed`. What both roles offer (``receive(_:)``,
/// ``close()``, the negotiated parameters…) is ``TLSEndpoint``'s, written once in
/// ``TLSEndpointCore``; the client adds ``start()`` and the ``session`` it may resume later. Its
/// handshake is ``ClientHandshake``.
public struct TLSClient: TLSEndpointCore {
    var handshake: ClientHandshake

    public init(configuration: TLSClientConfiguration) {
        handshake = ClientHandshake(configuration: configuration)
    }

    /// Sends the ClientHello (RFC 5246 §7.4.1.2); once only.
    public mutating func start() -> TLSStep {
        handshake.start()
    }

    /// The same, with the driver's clock reading (the engine reads no clock): a session whose
    /// ticket's ticket_lifetime_hint has passed at `now` is not offered (RFC 5077 §3.3).
    public mutating func start(at now: SessionTime) -> TLSStep {
        handshake.clock = now
        return handshake.start()
    }

    /// ``receive(_:)`` with the driver's clock reading taken when the bytes arrived: a ticket among
    /// them is stamped with it (``TLSSession/ticketReceivedAt``), the start of its lifetime hint.
    public mutating func receive(_ bytes: [UInt8], at now: SessionTime) -> TLSStep {
        handshake.clock = now
        return handshake.receive(bytes)
    }

    /// The session to keep for resumption, once the handshake completed (RFC 5246 §7.3; with the
    /// server's ticket when it issued one, RFC 5077 §3.3).
    public var session: TLSSession? { handshake.session }
}
