import TLSCrypto

/// Ephemeral ECDH signed with RSA or ECDSA (RFC 8422 §5.4 ServerECDHParams, §5.7 the client's point,
/// §5.10: the shared secret is the premaster secret), over X25519, secp256r1 and secp384r1.
struct ECDHEKeyExchange: KeyExchange {
    var algorithm: KeyExchangeAlgorithm { .ecdheRSA }   // the exchange itself; who signs does not change it
    /// Server: the chosen curve. Client: the curves it offered, then the server's.
    private(set) var curve: ECDHCurve?
    let acceptable: [NamedGroup]
    private var keyPair: ECDHKeyPair?
    private var serverPublic: [UInt8] = []

    init(curve: ECDHCurve?, acceptable: [NamedGroup] = []) {
        self.curve = curve
        self.acceptable = acceptable
    }

    static func curve(for group: NamedGroup) -> ECDHCurve? {
        ECDHCurve.allCases.first { $0.namedGroup == group.rawValue }
    }

    mutating func makeServerParams(_ inputs: KeyExchangeInputs) throws(TLSError) -> ServerKeyExchange.Params? {
        guard let curve else { throw .internalError(.noECDHECurveChosen) }
        let pair = try Self.keyPair(curve: curve, random: inputs.random)
        keyPair = pair
        return .ecdhe(ServerECDHParams(namedGroup: NamedGroup(rawValue: curve.namedGroup), point: pair.publicKeyBytes))
    }

    /// The curve must be one the client offered (RFC 8422 §5.4) and the point valid on it.
    mutating func acceptServerParams(_ params: ServerKeyExchange.Params, _ inputs: KeyExchangeInputs) throws(TLSError) {
        guard case .ecdhe(let ec) = params else { throw wrongMessage(.keyExchangeParameters(.finiteFieldDH, in: .serverKeyExchange)) }
        guard acceptable.contains(ec.namedGroup), let curve = Self.curve(for: ec.namedGroup) else {
            throw .peerMisbehaved(.groupNotOffered(ec.namedGroup))
        }
        do {
            try ECDHKeyPair.validatePeerPublicKey(ec.point, curve: curve)
        } catch {
            throw Self.refusal(error, inServerKeyExchange: true)
        }
        self.curve = curve
        serverPublic = ec.point
    }

    mutating func makeClientKeyExchange(_ inputs: KeyExchangeInputs, serverKey: RSAPublicKey?,
                                        events: inout [TLSEvent]) throws(TLSError) -> (ClientKeyExchange, [UInt8]) {
        guard let curve else { throw .inappropriateMessage(expected: .serverKeyExchange(algorithm), got: .handshake(.serverHelloDone)) }
        let pair = try Self.keyPair(curve: curve, random: inputs.random)
        keyPair = pair
        let preMaster = try agree(pair, peer: serverPublic, events: &events)
        return (.ecdhe(point: pair.publicKeyBytes), preMaster)
    }

    mutating func preMasterSecret(from message: ClientKeyExchange, _ inputs: KeyExchangeInputs,
                                  serverKey: RSAPrivateKey?, events: inout [TLSEvent]) throws(TLSError) -> [UInt8] {
        guard case .ecdhe(let point) = message, let keyPair else { throw wrongMessage(.keyExchangeParameters(message.parameters, in: .clientKeyExchange)) }
        return try agree(keyPair, peer: point, events: &events)
    }

    private func agree(_ pair: ECDHKeyPair, peer: [UInt8], events: inout [TLSEvent]) throws(TLSError) -> [UInt8] {
        let secret: [UInt8]
        do {
            secret = try pair.sharedSecret(peerPublicKey: peer)
        } catch {
            throw Self.refusal(error, inServerKeyExchange: false)
        }
        events.append(.derived(.ecdhAgreement(curve: NamedGroup(rawValue: pair.curve.namedGroup),
                                              privateKey: pair.privateKeyBytes, publicKey: pair.publicKeyBytes,
                                              peerPublicKey: peer, preMasterSecret: secret)))
        return secret
    }

    private static func keyPair(curve: ECDHCurve, random: RandomSource) throws(TLSError) -> ECDHKeyPair {
        do {
            return try ECDHKeyPair(curve: curve, using: random)
        } catch {
            throw .internalError(.ephemeralKeyGenerationFailed(.ecdheRSA))
        }
    }

    /// The peer's key refused (illegal_parameter), or this side's own failure (internal_error).
    private static func refusal(_ error: ECDHError, inServerKeyExchange: Bool) -> TLSError {
        guard let fault = ECDHPublicKeyFault(error) else { return .internalError(.keyAgreementFailed(.ecdheRSA)) }
        return .peerMisbehaved(.invalidECDHPublicKey(inServerKeyExchange: inServerKeyExchange, reason: fault))
    }
}
