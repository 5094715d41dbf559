import TLSCrypto

/// Ephemeral ECDH signed with RSA or ECDSA (RFC 8422 §5.4 ServerECDHParams, §5.7 the client's point,
/// §5.10: the shared secret is the premaster secret), over X25519, secp256r1 and secp384r1: the
/// server's half (``Server``: its curve chosen before it starts) and the client's (``Client``: the
/// curve arrives in the ServerKeyExchange).
enum ECDHEKeyExchange {
    static func curve(for group: NamedGroup) -> ECDHCurve? {
        ECDHCurve.allCases.first { $0.namedGroup == group.rawValue }
    }

    /// The server's half, on the curve it chose (RFC 8422 §5.4: ServerECDHParams names it).
    struct Server: ServerKeyAgreement {
        var algorithm: KeyExchangeAlgorithm { .ecdheRSA }   // the exchange itself; who signs does not change it
        let curve: ECDHCurve
        private var keyPair: ECDHKeyPair?

        init(curve: ECDHCurve) {
            self.curve = curve
        }

        mutating func makeServerParams(_ inputs: KeyExchangeInputs) throws(TLSError) -> ServerKeyExchange.Params? {
            let pair = try ECDHEKeyExchange.keyPair(curve: curve, random: inputs.random)
            keyPair = pair
            return .ecdhe(ServerECDHParams(namedGroup: NamedGroup(rawValue: curve.namedGroup), point: pair.publicKeyBytes))
        }

        mutating func preMasterSecret(from message: ClientKeyExchange, _ inputs: KeyExchangeInputs,
                                      serverKey: RSAPrivateKey?, events: inout [TLSEvent]) throws(TLSError) -> [UInt8] {
            guard case .ecdhe(let point) = message, let keyPair else { throw wrongMessage(.keyExchangeParameters(message.parameters, in: .clientKeyExchange)) }
            return try ECDHEKeyExchange.agree(keyPair, peer: point, events: &events)
        }
    }

    /// The client's half: the curves it offered, then the server's.
    struct Client: ClientKeyAgreement {
        var algorithm: KeyExchangeAlgorithm { .ecdheRSA }
        /// The curve the server chose; nil until its ServerKeyExchange.
        private(set) var curve: ECDHCurve?
        let acceptable: [NamedGroup]
        private var serverPublic: [UInt8] = []

        init(acceptable: [NamedGroup]) {
            self.acceptable = acceptable
        }

        /// The curve must be one the client offered (RFC 8422 §5.4) and the point valid on it.
        mutating func acceptServerParams(_ params: ServerKeyExchange.Params, _ inputs: KeyExchangeInputs) throws(TLSError) {
            guard case .ecdhe(let ec) = params else { throw wrongMessage(.keyExchangeParameters(.finiteFieldDH, in: .serverKeyExchange)) }
            guard acceptable.contains(ec.namedGroup), let curve = ECDHEKeyExchange.curve(for: ec.namedGroup) else {
                throw .peerMisbehaved(.groupNotOffered(ec.namedGroup))
            }
            do {
                try ECDHKeyPair.validatePeerPublicKey(ec.point, curve: curve)
            } catch {
                throw ECDHEKeyExchange.refusal(error, inServerKeyExchange: true)
            }
            self.curve = curve
            serverPublic = ec.point
        }

        mutating func makeClientKeyExchange(_ inputs: KeyExchangeInputs, serverKey: RSAPublicKey?,
                                            events: inout [TLSEvent]) throws(TLSError) -> (ClientKeyExchange, [UInt8]) {
            guard let curve else { throw .inappropriateMessage(expected: .serverKeyExchange(algorithm), got: .handshake(.serverHelloDone)) }
            let pair = try ECDHEKeyExchange.keyPair(curve: curve, random: inputs.random)
            let preMaster = try ECDHEKeyExchange.agree(pair, peer: serverPublic, events: &events)
            return (.ecdhe(point: pair.publicKeyBytes), preMaster)
        }
    }

    fileprivate static func agree(_ pair: ECDHKeyPair, peer: [UInt8], events: inout [TLSEvent]) throws(TLSError) -> [UInt8] {
        let secret: [UInt8]
        do {
            secret = try pair.sharedSecret(peerPublicKey: peer)
        } catch {
            throw refusal(error, inServerKeyExchange: false)
        }
        events.append(.derived(.ecdhAgreement(curve: NamedGroup(rawValue: pair.curve.namedGroup),
                                              privateKey: pair.privateKeyBytes, publicKey: pair.publicKeyBytes,
                                              peerPublicKey: peer, preMasterSecret: secret)))
        return secret
    }

    fileprivate static func keyPair(curve: ECDHCurve, random: RandomSource) throws(TLSError) -> ECDHKeyPair {
        do {
            return try ECDHKeyPair(curve: curve, using: random)
        } catch {
            throw .internalError(.ephemeralKeyGenerationFailed(.ecdheRSA))
        }
    }

    /// The peer's key refused (illegal_parameter), or this side's own failure (internal_error).
    fileprivate static func refusal(_ error: ECDHError, inServerKeyExchange: Bool) -> TLSError {
        guard let fault = ECDHPublicKeyFault(error) else { return .internalError(.keyAgreementFailed(.ecdheRSA)) }
        return .peerMisbehaved(.invalidECDHPublicKey(inServerKeyExchange: inServerKeyExchange, reason: fault))
    }
}
