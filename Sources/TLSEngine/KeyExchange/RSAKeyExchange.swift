import TLSCrypto

/// RSA key transport (RFC 5246 §7.4.7.1): the client encrypts a 48-byte premaster secret
/// (client_version ‖ 46 random bytes) to the server's certificate key with RSAES-PKCS1-v1_5.
struct RSAKeyExchange: ServerKeyAgreement, ClientKeyAgreement {
    static let preMasterSecretLength = 48
    var algorithm: KeyExchangeAlgorithm { .rsa }

    func makeServerParams(_ inputs: KeyExchangeInputs) throws(TLSError) -> ServerKeyExchange.Params? { nil }

    func acceptServerParams(_ params: ServerKeyExchange.Params, _ inputs: KeyExchangeInputs) throws(TLSError) {
        throw wrongMessage(.handshake(.serverKeyExchange))
    }

    /// RSAES-PKCS1-v1_5 encryption done step by step (RFC 8017 §7.2.1) so the trace can show the
    /// padded block EM = 00 02 PS 00 M before it is raised to e mod n.
    func makeClientKeyExchange(_ inputs: KeyExchangeInputs, serverKey: RSAPublicKey?,
                               events: inout [TLSEvent]) throws(TLSError) -> (ClientKeyExchange, [UInt8]) {
        guard let serverKey else { throw .internalError(.rsaKeyTransportWithoutRSAKey) }
        let v = inputs.clientHelloVersion
        let preMaster = [v.major, v.minor] + inputs.random.bytes(count: Self.preMasterSecretLength - 2)
        let k = serverKey.modulus.byteWidth
        guard k >= preMaster.count + 11 else { throw .peerIncompatible(.rsaModulusTooSmall) }
        var padding: [UInt8] = []
        while padding.count < k - 3 - preMaster.count {
            padding += inputs.random.bytes(count: k - 3 - preMaster.count - padding.count).filter { $0 != 0 }
        }
        let em = [0x00, 0x02] + padding + [0x00] + preMaster
        let ciphertext: [UInt8]
        do {
            ciphertext = try BigInt(bigEndian: em).power(serverKey.publicExponent, modulus: serverKey.modulus)
                .bigEndianBytes(width: k)
        } catch {
            throw .internalError(.rsaEncryptionFailed)
        }
        events.append(.derived(.rsaPreMasterEncryption(preMasterSecret: preMaster, paddedBlock: em,
                                                       ciphertext: ciphertext, modulusBits: serverKey.bitLength,
                                                       modulus: serverKey.modulus.bigEndianBytes,
                                                       publicExponent: serverKey.publicExponent.bigEndianBytes)))
        return (.rsa(encryptedPreMasterSecret: ciphertext), preMaster)
    }

    /// RFC 5246 §7.4.7.1: draw 46 random bytes R first; if decryption fails or the result is not
    /// 48 bytes, use client_version ‖ R; if only its version is not ClientHello.client_version,
    /// use client_version ‖ M[2..47] (the decrypted bytes with the offered version); go on either
    /// way, so an attacker learns nothing before Finished fails.
    func preMasterSecret(from message: ClientKeyExchange, _ inputs: KeyExchangeInputs,
                         serverKey: RSAPrivateKey?, events: inout [TLSEvent]) throws(TLSError) -> [UInt8] {
        guard let serverKey else { throw .internalError(.rsaKeyTransportWithoutRSAKey) }
        guard case .rsa(let ciphertext) = message else { throw wrongMessage(.keyExchangeParameters(message.parameters, in: .clientKeyExchange)) }
        let v = inputs.clientHelloVersion
        let fallback = [v.major, v.minor] + inputs.random.bytes(count: Self.preMasterSecretLength - 2)
        let decrypted = try? serverKey.decryptPKCS1v15(ciphertext)
        var reason: PremasterDecryptionFault?
        if let decrypted {
            if decrypted.count != Self.preMasterSecretLength {
                reason = .wrongLength(decrypted.count)
            } else if decrypted[0] != v.major || decrypted[1] != v.minor {
                reason = .versionMismatch(found: ProtocolVersion(major: decrypted[0], minor: decrypted[1]), offered: v)
            }
        } else {
            reason = .notPKCS1Block
        }
        let preMaster: [UInt8]
        switch (reason, decrypted) {
        case (nil, let decrypted?): preMaster = decrypted
        case (.versionMismatch?, let decrypted?): preMaster = [v.major, v.minor] + decrypted.dropFirst(2)
        default: preMaster = fallback
        }
        if let reason { events.append(.countermeasureApplied(reason: reason)) }
        events.append(.derived(.rsaPreMasterDecryption(ciphertext: ciphertext, decrypted: decrypted,
                                                       preMasterSecret: preMaster)))
        return preMaster
    }
}
