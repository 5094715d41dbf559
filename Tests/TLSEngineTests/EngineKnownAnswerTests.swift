import Foundation
import Testing
import TLSCrypto
@testable import TLSEngine

/// The real OpenSSL 3.0 handshake (`rsa_kx_openssl_real` in tls12-vectors.json, AES128-GCM-SHA256,
/// no EMS) replayed through the engine's connection context: our transcript, key schedule and
/// record layer reproduce its verify_data, open its encrypted Finished and application data, and
/// seal our own Finished to the very same bytes.
@Suite("Engine known answers")
struct EngineKnownAnswerTests {
    static func vector() throws -> [String: Any] {
        try #require(try Fixtures.vectors()["rsa_kx_openssl_real"] as? [String: Any])
    }

    static func hex(_ v: [String: Any], _ key: String) throws -> [UInt8] {
        try #require((v[key] as? String).flatMap(Hex.bytes))
    }

    /// A random source that first returns fixed bytes (the recorded server_random and session_id),
    /// then a seeded DRBG's.
    final class ScriptedRandom: RandomSource {
        private var script: [UInt8]
        private let fallback = HMACDRBG(seed: 77)
        init(_ script: [UInt8]) { self.script = script }
        func bytes(count: Int) -> [UInt8] {
            let take = min(count, script.count)
            let head = Array(script.prefix(take))
            script.removeFirst(take)
            return head + fallback.bytes(count: count - take)
        }
    }

    static func record(_ type: ContentType, _ fragment: [UInt8]) -> [UInt8] {
        TLSRecord(contentType: type, version: .tls12, fragment: fragment).encoded
    }

    /// Seals `plaintext` under one direction's keys with the recorded nonce_explicit (the first 8
    /// bytes of the recorded fragment) and the given sequence number, as a whole record.
    static func reseal(_ type: ContentType, _ plaintext: [UInt8], keys: RecordKeys, sequence: Int,
                       like recorded: [UInt8]) throws -> [UInt8] {
        var sealer = try RecordProtector(cipher: .aesGCM(keyLength: 16), keys: keys)
        for _ in 0..<sequence {
            _ = try sealer.seal(contentType: type.rawValue, version: ProtocolVersion.tls12.rawValue, plaintext: [],
                                random: HMACDRBG(seed: 1))
        }
        let nonce = Array(recorded.dropFirst(TLSRecord.headerLength).prefix(8))
        let sealed = try sealer.seal(contentType: type.rawValue, version: ProtocolVersion.tls12.rawValue,
                                     plaintext: plaintext, random: HMACDRBG(seed: 1), explicitNonce: nonce)
        #expect(sealed.sequenceNumber == UInt64(sequence))
        return record(type, sealed.fragment)
    }

    @Test("replay: key schedule, transcript hashes, encrypted Finished and application data records match OpenSSL byte for byte")
    func replay() throws {
        let v = try Self.vector()
        let h = try Fixtures.opensslHandshake()
        let preMaster = try Self.hex(v, "pre_master_secret")
        let outputs = try #require(v["outputs"] as? [String: Any])
        func output(_ key: String) throws -> [UInt8] { try #require((outputs[key] as? String).flatMap(Hex.bytes)) }
        let master = try output("master_secret")
        let params = try #require(CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256.parameters)

        // The RSA key exchange path decrypts the recorded ClientKeyExchange with the recorded key.
        let serverKey = try RSAPrivateKey(pem: try #require(v["server_private_key_pem"] as? String))
        var kxEvents: [TLSEvent] = []
        let decrypted = try RSAKeyExchange().preMasterSecret(
            from: .rsa(encryptedPreMasterSecret: h.encryptedPreMaster),
            KeyExchangeInputs(clientRandom: h.clientRandom, serverRandom: h.serverRandom, clientHelloVersion: .tls12,
                              random: HMACDRBG(seed: 3)),
            serverKey: serverKey, events: &kxEvents)
        #expect(decrypted == preMaster)
        #expect(!kxEvents.contains { if case .countermeasureApplied = $0 { return true } else { return false } })

        // The server's view: transcript up to ClientKeyExchange, then the key schedule.
        var server = ConnectionContext(role: .server, random: HMACDRBG(seed: 1))
        server.clientRandom = h.clientRandom
        server.serverRandom = h.serverRandom
        try server.fix(suite: params, version: .tls12)
        // Messages: ClientHello, ServerHello, Certificate, ServerHelloDone, ClientKeyExchange.
        let beforeFinished = h.messages.prefix { $0.first != HandshakeType.finished.rawValue }
        for m in beforeFinished { server.transcript.append(m) }
        let secret = try server.deriveMasterSecret(preMasterSecret: decrypted, suite: params)
        #expect(secret.masterSecret == master)
        #expect(server.masterSecret == master)
        let pending = try server.deriveKeys(secret)
        let keys = try #require(server.keyBlock)
        #expect(keys.clientWriteKey == (try output("client_write_key")))
        #expect(keys.serverWriteKey == (try output("server_write_key")))
        #expect(keys.clientWriteIV == (try output("client_write_IV(salt,4)")))
        #expect(keys.serverWriteIV == (try output("server_write_IV(salt,4)")))
        let keyBlockBytes = server.events.compactMap { e -> [UInt8]? in
            if case .derived(.keyBlock(_, _, let block, _)) = e { return block } else { return nil }
        }
        #expect(keyBlockBytes == [try output("key_block_AES_128_GCM_SHA256(40 bytes)")])
        #expect(try server.transcript.current() == Self.hex(v, "handshake_hash_for_client_finished(SHA256)"))

        // Our record sealer, given OpenSSL's nonce_explicit, produces OpenSSL's encrypted client
        // Finished (sequence 0) and application data (sequence 1) records exactly.
        let clientKeys = RecordKeys(macKey: [], writeKey: keys.clientWriteKey, fixedIV: keys.clientWriteIV)
        let serverKeys = RecordKeys(macKey: [], writeKey: keys.serverWriteKey, fixedIV: keys.serverWriteIV)
        let clientFinished = HandshakeMessage.finished(Finished(verifyData: h.clientVerifyData)).encoded
        #expect(try Self.reseal(.handshake, clientFinished, keys: clientKeys, sequence: 0, like: h.clientFinishedRecord)
                == h.clientFinishedRecord)
        let appRecord = try Self.hex(v, "client_app_data_record(plaintext \"hello oracle\\n\")")
        #expect(try Self.reseal(.applicationData, Array("hello oracle\n".utf8), keys: clientKeys, sequence: 1, like: appRecord)
                == appRecord)
        let serverFinishedRecord = try Self.hex(v, "server_encrypted_finished_record")
        let serverFinished = HandshakeMessage.finished(Finished(verifyData: try output("server_verify_data"))).encoded
        #expect(try Self.reseal(.handshake, serverFinished, keys: serverKeys, sequence: 0, like: serverFinishedRecord)
                == serverFinishedRecord)

        // The client's ChangeCipherSpec and encrypted Finished, then its application data, opened.
        server.append(Self.record(.changeCipherSpec, [1]))
        #expect(try { if case .changeCipherSpec = try server.nextIncoming() { return true } else { return false } }())
        server.activateReadKeys(pending.read)
        server.append(h.clientFinishedRecord)
        guard case .handshake(let raw) = try server.nextIncoming() else { Issue.record("no Finished"); return }
        #expect(raw.bytes == clientFinished)
        guard case .finished(let finished) = try server.decode(raw) else { Issue.record("not Finished"); return }
        #expect(finished.verifyData == h.clientVerifyData)
        try server.checkFinished(finished, raw: raw, secret)
        #expect(try server.transcript.current() == Self.hex(v, "handshake_hash_for_server_finished(SHA256, includes client Finished)"))
        server.append(appRecord)
        guard case .applicationData(let data) = try server.nextIncoming() else { Issue.record("no data"); return }
        #expect(data == Array("hello oracle\n".utf8))

        // Our own server Finished carries OpenSSL's verify_data; only its nonce_explicit differs
        // (ours is the sequence number, OpenSSL's a random start).
        try server.sendChangeCipherSpec(switchingTo: pending.write)
        try server.sendFinished(secret)
        let ours = server.takeStep()
        let ourFinished = try #require(ours.records.last)
        #expect(ourFinished.fragment.count == serverFinishedRecord.count - TLSRecord.headerLength)
        #expect(Array(ourFinished.fragment.prefix(8)) == [0, 0, 0, 0, 0, 0, 0, 0])
        let verifyData = ours.events.compactMap { e -> [UInt8]? in
            if case .derived(.verifyData(.server, _, _, let data)) = e { return data } else { return nil }
        }
        #expect(verifyData == [try output("server_verify_data")])
    }

    /// The recorded exchange through a whole `TLSServer`: with a random source that replays
    /// OpenSSL's server_random and session_id, the recorded key and certificate chain, no EMS (as
    /// recorded), our ServerHello, Certificate and ServerHelloDone are OpenSSL's bytes; the recorded
    /// ClientKeyExchange, ChangeCipherSpec and encrypted Finished then complete the handshake.
    @Test("replay through TLSServer: our first flight equals OpenSSL's, its client flight connects")
    func replayThroughServer() throws {
        let v = try Self.vector()
        let h = try Fixtures.opensslHandshake()
        let outputs = try #require(v["outputs"] as? [String: Any])
        let serverKey = try RSAPrivateKey(pem: try #require(v["server_private_key_pem"] as? String))
        let context = HandshakeDecodingContext(version: .tls12, keyExchange: .rsa, verifyDataLength: 12)
        guard case .serverHello(let recordedHello) = try RawHandshakeMessage(type: .serverHello, body: Array(h.messages[1].dropFirst(4))).decode(context: context),
              case .certificate(let recordedCertificate) = try RawHandshakeMessage(type: .certificate, body: Array(h.messages[2].dropFirst(4))).decode(context: context)
        else { Issue.record("the vector's ServerHello and Certificate do not decode"); return }
        #expect(recordedHello.random.bytes == h.serverRandom)

        let config = TLSServerConfiguration(identity: TLSIdentity(certificateChain: recordedCertificate.certificateList,
                                                                  privateKey: serverKey),
                                            random: ScriptedRandom(h.serverRandom + recordedHello.sessionID),
                                            cipherSuites: [.TLS_RSA_WITH_AES_128_GCM_SHA256],
                                            extendedMasterSecret: false, sessionCache: TLSSessionCache())
        var server = TLSServer(configuration: config)
        let first = server.receive(Self.record(.handshake, h.messages[0]))
        let sent = first.events.compactMap { e -> [UInt8]? in
            if case .handshakeSent(_, let bytes) = e { return bytes } else { return nil }
        }
        #expect(sent.count == 3)
        #expect(sent == Array(h.messages[1...3]), "ServerHello, Certificate, ServerHelloDone byte for byte")
        #expect(first.output == Self.record(.handshake, Array(h.messages[1...3].joined())))

        let second = server.receive(Self.record(.handshake, h.messages[4]) + Self.record(.changeCipherSpec, [1])
                                    + h.clientFinishedRecord)
        #expect(server.isConnected)
        #expect(server.masterSecret == (outputs["master_secret"] as? String).flatMap(Hex.bytes))
        #expect(!second.events.contains { if case .countermeasureApplied = $0 { return true } else { return false } })
        let hashes = second.events.compactMap { e -> [UInt8]? in
            if case .derived(.transcriptHash(_, _, let hash)) = e { return hash } else { return nil }
        }
        #expect(hashes == [try Self.hex(v, "handshake_hash_for_client_finished(SHA256)"),
                           try Self.hex(v, "handshake_hash_for_server_finished(SHA256, includes client Finished)")])
        let data = server.receive(try Self.hex(v, "client_app_data_record(plaintext \"hello oracle\\n\")"))
        #expect(data.events.contains { if case .applicationDataReceived(let d) = $0 { return d == Array("hello oracle\n".utf8) } else { return false } })
    }

    @Test("a wrong Finished in the replay is decrypt_error")
    func wrongFinished() throws {
        let h = try Fixtures.opensslHandshake()
        let v = try Self.vector()
        var server = ConnectionContext(role: .server, random: HMACDRBG(seed: 1))
        server.clientRandom = h.clientRandom
        server.serverRandom = h.serverRandom
        let params = try #require(CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256.parameters)
        try server.fix(suite: params, version: .tls12)
        for m in h.messages.prefix(while: { $0.first != HandshakeType.finished.rawValue }) { server.transcript.append(m) }
        let secret = try server.deriveMasterSecret(preMasterSecret: try Self.hex(v, "pre_master_secret"), suite: params)
        var bad = h.clientVerifyData
        bad[0] ^= 1
        let raw = RawHandshakeMessage(type: .finished, body: bad)
        #expect(throws: TLSError.peerMisbehaved(.finishedMismatch)) {
            try server.checkFinished(Finished(verifyData: bad), raw: raw, secret)
        }
    }
}
