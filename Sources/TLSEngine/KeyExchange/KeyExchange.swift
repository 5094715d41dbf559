import TLSCrypto

/// One key agreement, as Go's crypto/tls `keyAgreement`: RSA key transport, DHE or ECDHE
/// (RFC 5246 §7.4.3, §7.4.7, RFC 8422 §5.4, §5.7). RSA simply has no ServerKeyExchange.
/// Signing and checking the ServerKeyExchange is the state machine's job, not this one's.
/// Each role has its own half (``ServerKeyAgreement``, ``ClientKeyAgreement``), so that what one
/// role starts with — the server's chosen group or curve — is an init parameter, not an optional.
protocol KeyExchange {
    var algorithm: KeyExchangeAlgorithm { get }
}

/// The server's half: it chose the group or curve before it made this value (RFC 5246 §7.4.3).
protocol ServerKeyAgreement: KeyExchange {
    /// The ephemeral parameters for ServerKeyExchange (nil for RSA).
    mutating func makeServerParams(_ inputs: KeyExchangeInputs) throws(TLSError) -> ServerKeyExchange.Params?

    /// The premaster secret from the client's ClientKeyExchange.
    mutating func preMasterSecret(from message: ClientKeyExchange, _ inputs: KeyExchangeInputs,
                                  serverKey: RSAPrivateKey?, events: inout [TLSEvent]) throws(TLSError) -> [UInt8]
}

/// The client's half: it learns the group or curve from the ServerKeyExchange (RFC 5246 §7.4.3).
protocol ClientKeyAgreement: KeyExchange {
    /// Takes the (already signature-checked) server parameters.
    mutating func acceptServerParams(_ params: ServerKeyExchange.Params, _ inputs: KeyExchangeInputs) throws(TLSError)

    /// The ClientKeyExchange and the premaster secret.
    /// `serverKey`: the certificate's RSA key, which only RSA key transport uses (nil for an ECDSA certificate).
    mutating func makeClientKeyExchange(_ inputs: KeyExchangeInputs, serverKey: RSAPublicKey?,
                                        events: inout [TLSEvent]) throws(TLSError) -> (ClientKeyExchange, [UInt8])
}

extension KeyExchange {
    /// A message of another key exchange's form than this one's.
    func wrongMessage(_ what: ArrivedMessage) -> TLSError {
        .inappropriateMessage(expected: .keyExchangeMessage(algorithm), got: what)
    }
}
