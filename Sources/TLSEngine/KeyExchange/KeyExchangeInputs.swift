import TLSCrypto

/// What every key exchange step may use: the hello randoms, the version the client offered
/// (RSA premaster's first two bytes, RFC 5246 §7.4.7.1) and the side's random source.
struct KeyExchangeInputs {
    var clientRandom: [UInt8]
    var serverRandom: [UInt8]
    var clientHelloVersion: ProtocolVersion
    var random: RandomSource
}
