import TLSCrypto

/// Ephemeral finite-field Diffie-Hellman signed with RSA (RFC 5246 §7.4.3 ServerDHParams,
/// §7.4.7.2 dh_Yc, §8.1.2: Z with leading zero bytes stripped is the premaster secret): the
/// server's half (``Server``: its group chosen before it starts) and the client's (``Client``: the
/// group arrives in the ServerKeyExchange).
enum DHEKeyExchange {
    /// The server's half, on the group it chose (RFC 7919 §4, or its configured one).
    struct Server: ServerKeyAgreement {
        var algorithm: KeyExchangeAlgorithm { .dheRSA }
        let group: DHGroup
        /// This side's private exponent size (the configuration's `dhExponentSize`; 256 bits by default).
        let exponentSize: DHKeyPair.ExponentSize
        private var keyPair: DHKeyPair?

        init(group: DHGroup, exponentSize: DHKeyPair.ExponentSize = .bits(256)) {
            self.group = group
            self.exponentSize = exponentSize
        }

        mutating func makeServerParams(_ inputs: KeyExchangeInputs) throws(TLSError) -> ServerKeyExchange.Params? {
            let pair = try DHEKeyExchange.keyPair(group: group, size: exponentSize, random: inputs.random)
            keyPair = pair
            return .dhe(ServerDHParams(p: group.p.bigEndianBytes, g: group.g.bigEndianBytes, ys: pair.publicValueBytes))
        }

        mutating func preMasterSecret(from message: ClientKeyExchange, _ inputs: KeyExchangeInputs,
                                      serverKey: RSAPrivateKey?, events: inout [TLSEvent]) throws(TLSError) -> [UInt8] {
            guard case .dhe(let yc) = message, let keyPair else { throw wrongMessage(.keyExchangeParameters(message.parameters, in: .clientKeyExchange)) }
            return try DHEKeyExchange.agree(keyPair, peer: yc, validation: .subgroup, events: &events)
        }
    }

    /// The client's half: the group is the server's, once its ServerKeyExchange is accepted.
    struct Client: ClientKeyAgreement {
        var algorithm: KeyExchangeAlgorithm { .dheRSA }
        /// The group the server sent; nil until its ServerKeyExchange.
        private(set) var group: DHGroup?
        /// The server's public value.
        private var serverPublic: [UInt8] = []
        let minimumPrimeBits: Int
        /// This side's private exponent size (the configuration's `dhExponentSize`; 256 bits by default).
        let exponentSize: DHKeyPair.ExponentSize
        /// The finite-field groups it named in supported_groups (RFC 7919 §3), and what it does
        /// with a group that is none of them.
        let offeredGroups: [NamedGroup]
        let unofferedPolicy: UnofferedDHGroupPolicy

        init(minimumPrimeBits: Int = 1024, exponentSize: DHKeyPair.ExponentSize = .bits(256),
             offeredGroups: [NamedGroup] = [], unofferedPolicy: UnofferedDHGroupPolicy = .acceptIfLargeEnough) {
            self.minimumPrimeBits = minimumPrimeBits
            self.exponentSize = exponentSize
            self.offeredGroups = offeredGroups
            self.unofferedPolicy = unofferedPolicy
        }

        /// Checks the server's group and its public value, in OpenSSL's order (tls_process_ske_dhe):
        /// - an even or tiny p, or g outside 1 < g < p-1 → illegal_parameter (OpenSSL: SSL_R_BAD_DH_VALUE);
        /// - a p shorter than the client's minimum → handshake_failure (OpenSSL: SSL_R_DH_KEY_TOO_SMALL,
        ///   sent with SSL_AD_HANDSHAKE_FAILURE when its security level refuses the group);
        /// - Ys outside 1 < Ys < p-1 (RFC 7919 §5.1) → illegal_parameter;
        /// - for a named safe-prime group, Ys outside its prime-order subgroup (Ys^q mod p ≠ 1; OpenSSL 3's
        ///   EVP_PKEY_public_check, SSL_R_BAD_DH_VALUE) → illegal_parameter;
        /// - RFC 7919 §3: when the client named finite-field groups, a group that is none of them (compared
        ///   by dh_p and dh_g) is accepted or refused by the client's policy (insufficient_security).
        mutating func acceptServerParams(_ params: ServerKeyExchange.Params, _ inputs: KeyExchangeInputs) throws(TLSError) {
            guard case .dhe(let dh) = params else { throw wrongMessage(.keyExchangeParameters(.ellipticCurveDH, in: .serverKeyExchange)) }
            let p = BigInt(bigEndian: dh.p), g = BigInt(bigEndian: dh.g)
            guard p.isOdd, p.bitWidth > 256 else { throw .peerMisbehaved(.unusableDHPrime) }
            guard g > .one, g < p - .one else {
                throw .peerMisbehaved(.dhGeneratorOutOfRange)
            }
            guard p.bitWidth >= minimumPrimeBits else {
                throw .peerIncompatible(.dhPrimeTooSmall(bits: p.bitWidth, minimum: minimumPrimeBits))
            }
            let known = DHGroup.standardGroups.first { $0.p == p && $0.g == g }
            let group = known ?? DHGroup(name: "server-supplied-\(p.bitWidth)", p: p, g: g,
                                         isTeachingOnly: false, shortExponentBits: 256)
            if !offeredGroups.isEmpty, unofferedPolicy == .refuse,
               known.flatMap(FFDHENegotiation.namedGroup).map(offeredGroups.contains) != true {
                throw .peerIncompatible(.dhGroupNotOffered(group: group.name, bits: p.bitWidth, offered: offeredGroups))
            }
            do {
                try DHKeyPair.validatePeer(BigInt(bigEndian: dh.ys), in: group, validation: .subgroup)
            } catch {
                throw DHEKeyExchange.refusal(error, peerValue: dh.ys, inServerKeyExchange: true)
            }
            self.group = group
            serverPublic = dh.ys
        }

        mutating func makeClientKeyExchange(_ inputs: KeyExchangeInputs, serverKey: RSAPublicKey?,
                                            events: inout [TLSEvent]) throws(TLSError) -> (ClientKeyExchange, [UInt8]) {
            guard let group else { throw .inappropriateMessage(expected: .serverKeyExchange(algorithm), got: .handshake(.serverHelloDone)) }
            let pair = try DHEKeyExchange.keyPair(group: group, size: exponentSize, random: inputs.random)
            let preMaster = try DHEKeyExchange.agree(pair, peer: serverPublic, validation: .range, events: &events)
            return (.dhe(yc: pair.publicValueBytes), preMaster)
        }
    }

    fileprivate static func agree(_ pair: DHKeyPair, peer: [UInt8], validation: DHKeyPair.PeerValidation,
                                  events: inout [TLSEvent]) throws(TLSError) -> [UInt8] {
        let z: [UInt8]
        do {
            // The client checked the server's value fully on arrival (the range again here); the server
            // checks the client's here, range and subgroup both (as OpenSSL's server does when it derives).
            z = try pair.preMasterSecret(peerPublicValue: peer, validation: validation)
        } catch {
            throw Self.refusal(error, peerValue: peer, inServerKeyExchange: false)
        }
        events.append(.derived(.dhAgreement(p: pair.group.p.bigEndianBytes, g: pair.group.g.bigEndianBytes,
                                            group: pair.group.name,
                                            privateExponent: pair.privateExponent.bigEndianBytes,
                                            publicValue: pair.publicValueBytes, peerPublicValue: peer,
                                            preMasterSecret: z)))
        return z
    }

    fileprivate static func keyPair(group: DHGroup, size: DHKeyPair.ExponentSize, random: RandomSource) throws(TLSError) -> DHKeyPair {
        do {
            return try DHKeyPair(group: group, exponentSize: size, using: random)
        } catch {
            throw .internalError(.ephemeralKeyGenerationFailed(.dheRSA))
        }
    }

    /// The peer's value refused (illegal_parameter), or this side's own failure (internal_error).
    fileprivate static func refusal(_ error: DHError, peerValue: [UInt8], inServerKeyExchange: Bool) -> TLSError {
        guard let fault = DHPublicValueFault.from(error, peerValue: peerValue) else {
            return .internalError(.keyAgreementFailed(.dheRSA))
        }
        return .peerMisbehaved(.invalidDHPublicValue(inServerKeyExchange: inServerKeyExchange, reason: fault))
    }
}
