import TLSCrypto

/// One key agreement, as Go's crypto/tls `keyAgreement`: RSA key transport, DHE or ECDHE
/// (RFC 5246 §7.4.3, §7.4.7, RFC 8422 §5.4, §5.7). RSA simply has no ServerKeyExchange.
/// Signing and checking the ServerKeyExchange is the state machine's job, not this one's.
protocol KeyExchange {
    var algorithm: KeyExchangeAlgorithm { get }

    /// Server: the ephemeral parameters for ServerKeyExchange (nil for RSA).
    mutating func makeServerParams(_ inputs: KeyExchangeInputs) throws(TLSError) -> ServerKeyExchange.Params?

    /// Client: takes the (already signature-checked) server parameters.
    mutating func acceptServerParams(_ params: ServerKeyExchange.Params, _ inputs: KeyExchangeInputs) throws(TLSError)

    /// Client: the ClientKeyExchange and the premaster secret.
    /// `serverKey`: the certificate's RSA key, which only RSA key transport uses (nil for an ECDSA certificate).
    mutating func makeClientKeyExchange(_ inputs: KeyExchangeInputs, serverKey: RSAPublicKey?,
                                        events: inout [TLSEvent]) throws(TLSError) -> (ClientKeyExchange, [UInt8])

    /// Server: the premaster secret from the client's ClientKeyExchange.
    mutating func preMasterSecret(from message: ClientKeyExchange, _ inputs: KeyExchangeInputs,
                                  serverKey: RSAPrivateKey?, events: inout [TLSEvent]) throws(TLSError) -> [UInt8]
}

extension KeyExchange {
    /// A message of another key exchange's form than this one's.
    func wrongMessage(_ what: ArrivedMessage) -> TLSError {
        .inappropriateMessage(expected: .keyExchangeMessage(algorithm), got: what)
    }
}
