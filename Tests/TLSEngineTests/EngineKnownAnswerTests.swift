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

    @Test("replay: verify_data, encrypted Finished records and application data match OpenSSL")
    func replay() throws {
        let v = try Self.vector()
        let h = try Fixtures.opensslHandshake()
        let preMaster = try Self.hex(v, "pre_master_secret")
        let outputs = try #require(v["outputs"] as? [String: Any])
        let master = try #require((outputs["master_secret"] as? String).flatMap(Hex.bytes))
        let params = try #require(CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256.parameters)

        // The server's view: transcript up to ClientKeyExchange, then the client's flight.
        var server = ConnectionContext(role: .server, random: HMACDRBG(seed: 1))
        server.clientRandom = h.clientRandom
        server.serverRandom = h.serverRandom
        try server.fix(suite: params, version: .tls12)
        // Messages: ClientHello, ServerHello, Certificate, ServerHelloDone, ClientKeyExchange, (Finished…)
        let beforeFinished = h.messages.prefix { $0.first != HandshakeType.finished.rawValue }
        for m in beforeFinished { server.transcript.append(m) }
        try server.deriveMasterSecret(preMasterSecret: preMaster)
        #expect(server.masterSecret == master)
        try server.deriveKeys()
        #expect(try server.transcript.current() == Self.hex(v, "handshake_hash_for_client_finished(SHA256)"))

        // The client's ChangeCipherSpec and encrypted Finished, then its application data.
        server.append(TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded)
        #expect(try { if case .changeCipherSpec = try server.nextIncoming() { return true } else { return false } }())
        try server.activateReadKeys()
        server.append(h.clientFinishedRecord)
        guard case .handshake(let raw) = try server.nextIncoming() else { Issue.record("no Finished"); return }
        guard case .finished(let finished) = try server.decode(raw) else { Issue.record("not Finished"); return }
        #expect(finished.verifyData == h.clientVerifyData)
        try server.checkFinished(finished, raw: raw)
        #expect(try server.transcript.current() == Self.hex(v, "handshake_hash_for_server_finished(SHA256, includes client Finished)"))

        server.append(try Self.hex(v, "client_app_data_record(plaintext \"hello oracle\\n\")"))
        guard case .applicationData(let data) = try server.nextIncoming() else { Issue.record("no data"); return }
        #expect(data == Array("hello oracle\n".utf8))

        // The client's view of OpenSSL's server Finished: it opens and verifies, and our own server
        // Finished carries the same verify_data.
        var client = ConnectionContext(role: .client, random: HMACDRBG(seed: 2))
        client.clientRandom = h.clientRandom
        client.serverRandom = h.serverRandom
        try client.fix(suite: params, version: .tls12)
        for m in beforeFinished { client.transcript.append(m) }
        client.transcript.append(raw.bytes)
        client.masterSecret = master
        try client.deriveKeys()
        client.append(TLSRecord(contentType: .changeCipherSpec, fragment: [1]).encoded
                      + (try Self.hex(v, "server_encrypted_finished_record")))
        _ = try client.nextIncoming()
        try client.activateReadKeys()
        guard case .handshake(let serverRaw) = try client.nextIncoming(),
              case .finished(let serverFinished) = try client.decode(serverRaw) else { Issue.record("no server Finished"); return }
        try client.checkFinished(serverFinished, raw: serverRaw)
        #expect(serverFinished.verifyData == (try #require((outputs["server_verify_data"] as? String).flatMap(Hex.bytes))))
        try server.sendChangeCipherSpec()
        try server.sendFinished()
        let ours = server.events.compactMap { e -> [UInt8]? in
            if case .derived(.verifyData(.server, _, _, let data)) = e { return data } else { return nil }
        }
        #expect(ours == [serverFinished.verifyData])
    }

    @Test("a wrong Finished in the replay is decrypt_error")
    func wrongFinished() throws {
        let h = try Fixtures.opensslHandshake()
        let v = try Self.vector()
        var server = ConnectionContext(role: .server, random: HMACDRBG(seed: 1))
        server.clientRandom = h.clientRandom
        server.serverRandom = h.serverRandom
        try server.fix(suite: try #require(CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256.parameters), version: .tls12)
        for m in h.messages.prefix(while: { $0.first != HandshakeType.finished.rawValue }) { server.transcript.append(m) }
        try server.deriveMasterSecret(preMasterSecret: try Self.hex(v, "pre_master_secret"))
        var bad = h.clientVerifyData
        bad[0] ^= 1
        let raw = RawHandshakeMessage(type: .finished, body: bad)
        #expect(throws: TLSError.peerMisbehaved(.decryptError, "the peer's Finished.verify_data does not match")) {
            try server.checkFinished(Finished(verifyData: bad), raw: raw)
        }
    }
}
