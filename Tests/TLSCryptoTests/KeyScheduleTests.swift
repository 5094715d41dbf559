import Crypto
import Testing
import TLSCrypto

/// Vectors from Tests/Fixtures/tls12-vectors.json: rsa_kx_synthetic (with its EMS variant) and
/// rsa_kx_openssl_real (a real OpenSSL 3.0.19 handshake, TLS_RSA_WITH_AES_128_GCM_SHA256).
@Suite("Key schedule (RFC 5246 §6.3, §7.4.9, §8.1; RFC 7627)")
struct KeyScheduleTests {
    let schedule = KeySchedule(prf: .sha256)

    /// Checks master-secret-derived outputs shared by several vector entries.
    func checkKeyBlocks(outputs: [String: Any], master: [UInt8], clientRandom: [UInt8], serverRandom: [UInt8]) throws {
        let gcmBlock = try schedule.keyBlock(masterSecret: master, clientRandom: clientRandom,
                                             serverRandom: serverRandom, count: 40)
        #expect(gcmBlock == (try Vectors.hex(outputs, "key_block_AES_128_GCM_SHA256(40 bytes)")))
        let gcm = try schedule.keys(masterSecret: master, clientRandom: clientRandom,
                                    serverRandom: serverRandom, layout: .aes128GCM)
        #expect(gcm.clientWriteMACKey.isEmpty && gcm.serverWriteMACKey.isEmpty)
        #expect(gcm.clientWriteKey == (try Vectors.hex(outputs, "client_write_key")))
        #expect(gcm.serverWriteKey == (try Vectors.hex(outputs, "server_write_key")))
        #expect(gcm.clientWriteIV == (try Vectors.hex(outputs, "client_write_IV(salt,4)")))
        #expect(gcm.serverWriteIV == (try Vectors.hex(outputs, "server_write_IV(salt,4)")))

        let cbcBlock = try schedule.keyBlock(masterSecret: master, clientRandom: clientRandom,
                                             serverRandom: serverRandom, count: 96)
        #expect(cbcBlock == (try Vectors.hex(outputs, "key_block_AES_128_CBC_SHA256(96 bytes)")))
        let cbc = try schedule.keys(masterSecret: master, clientRandom: clientRandom,
                                    serverRandom: serverRandom, layout: .aes128CBCSHA256)
        #expect(cbc.clientWriteMACKey == (try Vectors.hex(outputs, "cbc_client_write_MAC_key")))
        #expect(cbc.serverWriteMACKey == (try Vectors.hex(outputs, "cbc_server_write_MAC_key")))
        #expect(cbc.clientWriteKey == (try Vectors.hex(outputs, "cbc_client_write_key")))
        #expect(cbc.serverWriteKey == (try Vectors.hex(outputs, "cbc_server_write_key")))
        #expect(cbc.clientWriteIV.isEmpty && cbc.serverWriteIV.isEmpty)
    }

    // MARK: rsa_kx_synthetic

    @Test func syntheticExchange() throws {
        let vector = try Vectors.object(try Vectors.load(), "rsa_kx_synthetic")
        let inputs = try Vectors.object(vector, "inputs")
        let outputs = try Vectors.object(vector, "outputs")
        let clientRandom = try Vectors.hex(inputs, "client_random")
        let serverRandom = try Vectors.hex(inputs, "server_random")
        let master = try schedule.masterSecret(preMasterSecret: try Vectors.hex(inputs, "pre_master_secret"),
                                               clientRandom: clientRandom, serverRandom: serverRandom)
        #expect(master.count == KeySchedule.masterSecretLength)
        #expect(master == (try Vectors.hex(outputs, "master_secret")))
        try checkKeyBlocks(outputs: outputs, master: master, clientRandom: clientRandom, serverRandom: serverRandom)

        // The handshake hashes are SHA-256 of two ASCII strings (the vector's note).
        let clientHash = try Vectors.hex(inputs, "handshake_hash_for_client_finished(SHA256)")
        let serverHash = try Vectors.hex(inputs, "handshake_hash_for_server_finished(SHA256)")
        #expect(clientHash == TranscriptHash.hash(of: [Array("handshake messages for client Finished".utf8)], prf: .sha256))
        let clientVerify = try schedule.verifyData(masterSecret: master, sender: .client, handshakeHash: clientHash)
        let serverVerify = try schedule.verifyData(masterSecret: master, sender: .server, handshakeHash: serverHash)
        #expect(clientVerify.count == KeySchedule.verifyDataLength)
        #expect(clientVerify == (try Vectors.hex(outputs, "client_verify_data")))
        #expect(serverVerify == (try Vectors.hex(outputs, "server_verify_data")))
    }

    /// Seal the client Finished with AES-128-GCM (RFC 5288 §3: nonce = salt ‖ explicit nonce;
    /// RFC 5246 §6.2.3.3: additional_data = seq_num ‖ type ‖ version ‖ length).
    @Test func syntheticEncryptedFinishedRecord() throws {
        let vector = try Vectors.object(try Vectors.load(), "rsa_kx_synthetic")
        let inputs = try Vectors.object(vector, "inputs")
        let record = try Vectors.object(vector, "client_finished_record_AES_128_GCM(seq=0, explicit_nonce=seq=0; OpenSSL uses random start +1/record, any unique value is valid)")
        let master = try schedule.masterSecret(preMasterSecret: try Vectors.hex(inputs, "pre_master_secret"),
                                               clientRandom: try Vectors.hex(inputs, "client_random"),
                                               serverRandom: try Vectors.hex(inputs, "server_random"))
        let keys = try schedule.keys(masterSecret: master, clientRandom: try Vectors.hex(inputs, "client_random"),
                                     serverRandom: try Vectors.hex(inputs, "server_random"), layout: .aes128GCM)
        let verify = try schedule.verifyData(masterSecret: master, sender: .client,
                                             handshakeHash: try Vectors.hex(inputs, "handshake_hash_for_client_finished(SHA256)"))
        let plaintext: [UInt8] = [0x14, 0x00, 0x00, 0x0c] + verify
        #expect(plaintext == (try Vectors.hex(record, "plaintext")))
        let explicitNonce = [UInt8](repeating: 0, count: 8)
        let nonce = keys.clientWriteIV + explicitNonce
        #expect(nonce == (try Vectors.hex(record, "nonce")))
        let aad = Self.additionalData(sequence: 0, type: 0x16, length: plaintext.count)
        #expect(aad == (try Vectors.hex(record, "aad")))
        let sealed = try AES.GCM.seal(plaintext, using: SymmetricKey(data: keys.clientWriteKey),
                                      nonce: try AES.GCM.Nonce(data: nonce), authenticating: aad)
        let body = explicitNonce + Array(sealed.ciphertext) + Array(sealed.tag)
        let bytes: [UInt8] = [0x16, 0x03, 0x03, UInt8(body.count >> 8), UInt8(body.count & 0xff)] + body
        #expect(bytes == (try Vectors.hex(record, "record")))
    }

    @Test func extendedMasterSecret() throws {
        let vector = try Vectors.object(try Vectors.load(), "rsa_kx_synthetic")
        let inputs = try Vectors.object(vector, "inputs")
        let ems = try Vectors.object(vector, "extended_master_secret_variant(RFC7627)")
        let sessionHash = try Vectors.hex(ems, "session_hash")
        #expect(sessionHash == TranscriptHash.hash(of: [Array("session hash: CH..CKE".utf8)], prf: .sha256))
        let master = schedule.extendedMasterSecret(preMasterSecret: try Vectors.hex(inputs, "pre_master_secret"),
                                                   sessionHash: sessionHash)
        #expect(master == (try Vectors.hex(ems, "master_secret")))
    }

    // MARK: rsa_kx_openssl_real

    @Test func realOpenSSLHandshake() throws {
        let vector = try Vectors.object(try Vectors.load(), "rsa_kx_openssl_real")
        let outputs = try Vectors.object(vector, "outputs")
        let clientRandom = try Vectors.hex(vector, "client_random")
        let serverRandom = try Vectors.hex(vector, "server_random")
        let messages = try Vectors.hexList(vector, "handshake_messages_in_order(hex, each with 4-byte header)")
        #expect(messages.map { $0.first } == [0x01, 0x02, 0x0b, 0x0e, 0x10])  // CH SH Cert SHD CKE
        // The hello randoms sit right after type(1) length(3) version(2).
        #expect(Array(messages[0].dropFirst(6).prefix(32)) == clientRandom)
        #expect(Array(messages[1].dropFirst(6).prefix(32)) == serverRandom)

        var transcript = TranscriptHash()
        for message in messages { transcript.append(message) }
        #expect(throws: KeyScheduleError.transcriptHashNotSelected) { try transcript.current() }
        try transcript.select(.sha256)
        let clientHash = try transcript.current()
        #expect(clientHash == (try Vectors.hex(vector, "handshake_hash_for_client_finished(SHA256)")))

        let master = try schedule.masterSecret(preMasterSecret: try Vectors.hex(vector, "pre_master_secret"),
                                               clientRandom: clientRandom, serverRandom: serverRandom)
        #expect(master == (try Vectors.hex(outputs, "master_secret")))
        try checkKeyBlocks(outputs: outputs, master: master, clientRandom: clientRandom, serverRandom: serverRandom)
        let keys = try schedule.keys(masterSecret: master, clientRandom: clientRandom,
                                     serverRandom: serverRandom, layout: .aes128GCM)

        // Client Finished: decrypt OpenSSL's record, compare with our verify_data.
        let clientVerify = try schedule.verifyData(masterSecret: master, sender: .client, handshakeHash: clientHash)
        #expect(clientVerify == (try Vectors.hex(outputs, "client_verify_data")))
        let clientFinished = try Self.openGCMRecord(try Vectors.hex(vector, "client_encrypted_finished_record"),
                                                    key: keys.clientWriteKey, salt: keys.clientWriteIV, sequence: 0)
        #expect(clientFinished == [0x14, 0x00, 0x00, 0x0c] + clientVerify)

        // Server Finished: its hash includes the client Finished message.
        transcript.append(clientFinished)
        let serverHash = try transcript.current()
        #expect(serverHash == (try Vectors.hex(vector, "handshake_hash_for_server_finished(SHA256, includes client Finished)")))
        let serverVerify = try schedule.verifyData(masterSecret: master, sender: .server, handshakeHash: serverHash)
        #expect(serverVerify == (try Vectors.hex(outputs, "server_verify_data")))
        let serverFinished = try Self.openGCMRecord(try Vectors.hex(vector, "server_encrypted_finished_record"),
                                                    key: keys.serverWriteKey, salt: keys.serverWriteIV, sequence: 0)
        #expect(serverFinished == [0x14, 0x00, 0x00, 0x0c] + serverVerify)

        // The client's first application-data record (sequence number 1 after its Finished).
        let appData = try Self.openGCMRecord(try Vectors.hex(vector, "client_app_data_record(plaintext \"hello oracle\\n\")"),
                                             key: keys.clientWriteKey, salt: keys.clientWriteIV, sequence: 1)
        #expect(appData == Array("hello oracle\n".utf8))
    }

    @Test func randomsAndMasterSecretLengthsAreChecked() {
        let random32 = [UInt8](repeating: 1, count: 32)
        #expect(throws: KeyScheduleError.invalidRandomLength(31)) {
            try schedule.masterSecret(preMasterSecret: [1], clientRandom: Array(random32.prefix(31)), serverRandom: random32)
        }
        #expect(throws: KeyScheduleError.invalidMasterSecretLength(47)) {
            try schedule.verifyData(masterSecret: [UInt8](repeating: 0, count: 47), sender: .client, handshakeHash: [])
        }
        #expect(throws: KeyScheduleError.keyBlockTooShort(have: 39, need: 40)) {
            try KeyBlock(splitting: [UInt8](repeating: 0, count: 39), layout: .aes128GCM)
        }
        var transcript = TranscriptHash()
        #expect(throws: Never.self) { try transcript.select(.sha384) }
        #expect(throws: KeyScheduleError.transcriptHashAlreadySelected) { try transcript.select(.sha256) }
    }

    /// The randoms' order matters: swapping them changes both the master secret and the key block.
    @Test func randomOrderMatters() throws {
        let a = [UInt8](repeating: 0xAA, count: 32), b = [UInt8](repeating: 0xBB, count: 32)
        let master = try schedule.masterSecret(preMasterSecret: [1, 2, 3], clientRandom: a, serverRandom: b)
        #expect(master != (try schedule.masterSecret(preMasterSecret: [1, 2, 3], clientRandom: b, serverRandom: a)))
        #expect(master == TLSPRF.sha256.derive(secret: [1, 2, 3], label: "master secret", seed: a + b, count: 48))
        let block = try schedule.keyBlock(masterSecret: master, clientRandom: a, serverRandom: b, count: 40)
        #expect(block == TLSPRF.sha256.derive(secret: master, label: "key expansion", seed: b + a, count: 40))
    }

    @Test func tls10TranscriptIsMD5AndSHA1() throws {
        var transcript = TranscriptHash()
        transcript.append([1, 2, 3])
        try transcript.select(.tls10)
        transcript.append([4])
        let hash = try transcript.current()
        #expect(hash.count == TLSPRF.tls10.transcriptHashLength)
        #expect(hash == Array(Insecure.MD5.hash(data: [1, 2, 3, 4])) + Array(Insecure.SHA1.hash(data: [1, 2, 3, 4])))
    }

    // MARK: Helpers

    /// RFC 5246 §6.2.3.3 additional_data for TLS 1.2.
    static func additionalData(sequence: UInt64, type: UInt8, length: Int) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: sequence >> (56 - 8 * $0)) }
            + [type, 0x03, 0x03, UInt8(length >> 8), UInt8(length & 0xff)]
    }

    /// Opens a TLS 1.2 AES-GCM record: header(5) ‖ explicit nonce(8) ‖ ciphertext ‖ tag(16).
    static func openGCMRecord(_ record: [UInt8], key: [UInt8], salt: [UInt8], sequence: UInt64) throws -> [UInt8] {
        guard record.count >= 5 + 8 + 16 else { throw FixtureError(description: "record too short") }
        let type = record[0]
        let explicitNonce = Array(record[5..<13])
        let ciphertext = Array(record[13..<(record.count - 16)])
        let tag = Array(record.suffix(16))
        let box = try AES.GCM.SealedBox(nonce: try AES.GCM.Nonce(data: salt + explicitNonce),
                                        ciphertext: ciphertext, tag: tag)
        let aad = additionalData(sequence: sequence, type: type, length: ciphertext.count)
        return Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: aad))
    }
}
