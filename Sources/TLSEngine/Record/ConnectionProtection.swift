import TLSCrypto

/// Both directions' record protection of one connection, built from what the handshake agreed
/// (RFC 5246 §6.3): key_block = PRF(master_secret, "key expansion", server_random ‖ client_random),
/// cut into MAC keys, write keys and IVs, each direction's protector made from its half. The
/// engine's own connection and anyone reading a recorded one (an observer holding the master
/// secret) build it here, so the two cannot disagree.
public struct ConnectionProtection: Sendable {
    /// The PRF output (``KeyBlock`` cuts it).
    public let keyBlockBytes: [UInt8]
    public let keys: KeyBlock
    /// The PRF the key block was derived with.
    public let prf: TLSPRF
    /// Protects what the client writes (and the server reads).
    public let client: RecordProtector
    /// Protects what the server writes (and the client reads).
    public let server: RecordProtector

    /// Why the protection could not be built.
    public enum Failure: Error, Sendable {
        /// The master secret or a random has the wrong length, or the key block is too short.
        case keySchedule(KeyScheduleError)
        /// The record cipher refused the keys.
        case recordProtection(RecordProtectionError)
    }

    /// The protection for `suite` under `version`; `encryptThenMAC` is what the hellos agreed
    /// (RFC 7366; it applies to block ciphers only, so it is ignored for an AEAD suite).
    public init(version: ProtocolVersion, suite: CipherSuiteParameters, masterSecret: [UInt8], clientRandom: [UInt8],
                serverRandom: [UInt8], encryptThenMAC: Bool) throws(Failure) {
        prf = suite.prf(version: version)
        let layout = KeyBlockLayout(macKeyLength: suite.macKeyLength, encKeyLength: suite.keyLength,
                                    fixedIVLength: suite.fixedIVLength(version: version))
        do {
            keyBlockBytes = try KeySchedule(prf: prf).keyBlock(masterSecret: masterSecret, clientRandom: clientRandom,
                                                                serverRandom: serverRandom, count: layout.totalLength)
            keys = try KeyBlock(splitting: keyBlockBytes, layout: layout)
        } catch {
            throw .keySchedule(error)
        }
        let cipher = suite.recordCipher
        let explicitIV = version >= .tls11
        let etm = encryptThenMAC && !suite.isAEAD
        do {
            client = try RecordProtector(cipher: cipher, keys: RecordKeys(macKey: keys.clientWriteMACKey, writeKey: keys.clientWriteKey,
                                                                          fixedIV: keys.clientWriteIV),
                                         explicitIV: explicitIV, encryptThenMAC: etm)
            server = try RecordProtector(cipher: cipher, keys: RecordKeys(macKey: keys.serverWriteMACKey, writeKey: keys.serverWriteKey,
                                                                          fixedIV: keys.serverWriteIV),
                                         explicitIV: explicitIV, encryptThenMAC: etm)
        } catch {
            throw .recordProtection(error)
        }
    }

    /// The protector for what `role` writes.
    public func writing(_ role: TLSRole) -> RecordProtector { role == .client ? client : server }
}

extension CipherSuiteParameters {
    /// The PRF of a connection on this suite: TLS 1.0/1.1's MD5 ⊕ SHA-1, or the suite's hash in
    /// TLS 1.2 (RFC 5246 §5).
    public func prf(version: ProtocolVersion) -> TLSPRF {
        if version < .tls12 { return .tls10 }
        return prfHash == .sha384 ? .sha384 : .sha256
    }
}
