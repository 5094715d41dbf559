import TLSCrypto

/// RSA key transport (RFC 5246 §7.4.7.1): the client encrypts a 48-byte premaster secret
/// (client_version ‖ 46 random bytes) to the server's certificate key with RSAES-PKCS1-v1_5.
struct RSAKeyExchange: KeyExchange {
    static let preMasterSecretLength = 48
    var algorithm: KeyExchangeAlgorithm { .rsa }

    func makeServerParams(_ inputs: KeyExchangeInputs) throws(TLSError) -> ServerKeyExchange.Params? { nil }

    func acceptServerParams(_ params: ServerKeyExchange.Params, _ inputs: KeyExchangeInputs) throws(TLSError) {
        throw wrongMessage("ServerKeyExchange")
    }

    /// RSAES-PKCS1-v1_5 encryption done step by step (RFC 8017 §7.2.1) so the trace can show the
    /// padded block EM = 00 02 PS 00 M before it is raised to e mod n.
    func makeClientKeyExchange(_ inputs: KeyExchangeInputs, serverKey: RSAPublicKey?,
                               events: inout [TLSEvent]) throws(TLSError) -> (ClientKeyExchange, [UInt8]) {
        guard let serverKey else { throw .internalError("RSA key transport without an RSA server key") }
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
            throw .internalError("RSA encryption: \(error)")
        }
        events.append(.derived(.rsaPreMasterEncryption(preMasterSecret: preMaster, paddedBlock: em,
                                                       ciphertext: ciphertext, modulusBits: serverKey.bitLength)))
        return (.rsa(encryptedPreMasterSecret: ciphertext), preMaster)
    }

    /// RFC 5246 §7.4.7.1: draw 46 random bytes first; if decryption fails, or the result is not
    /// 48 bytes, or its version is not ClientHello.client_version, use client_version ‖ random
    /// instead and go on, so an attacker learns nothing before Finished fails.
    func preMasterSecret(from message: ClientKeyExchange, _ inputs: KeyExchangeInputs,
                         serverKey: RSAPrivateKey?, events: inout [TLSEvent]) throws(TLSError) -> [UInt8] {
        guard let serverKey else { throw .internalError("RSA key transport without an RSA server key") }
        guard case .rsa(let ciphertext) = message else { throw wrongMessage("\(message.keyExchange) ClientKeyExchange") }
        let v = inputs.clientHelloVersion
        let fallback = [v.major, v.minor] + inputs.random.bytes(count: Self.preMasterSecretLength - 2)
        let decrypted = try? serverKey.decryptPKCS1v15(ciphertext)
        var reason: String?
        if let decrypted {
            if decrypted.count != Self.preMasterSecretLength {
                reason = "the decrypted premaster is \(decrypted.count) bytes, not 48"
            } else if decrypted[0] != v.major || decrypted[1] != v.minor {
                let found = ProtocolVersion(major: decrypted[0], minor: decrypted[1])
                reason = "the premaster's version is \(Hex.string([found.major])) \(Hex.string([found.minor])) (\(found)), the ClientHello offered \(Hex.string([v.major])) \(Hex.string([v.minor])) (\(v))"
            }
        } else {
            reason = "the ciphertext does not decrypt to a PKCS #1 v1.5 block"
        }
        let preMaster = reason == nil ? (decrypted ?? fallback) : fallback
        if let reason { events.append(.countermeasureApplied(reason: reason)) }
        events.append(.derived(.rsaPreMasterDecryption(ciphertext: ciphertext, decrypted: decrypted,
                                                       preMasterSecret: preMaster)))
        return preMaster
    }
}
