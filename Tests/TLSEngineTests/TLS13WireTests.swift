import Foundation
import PKI
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// The TLS 1.3 record layer and message shapes against RFC 8448 §3 (Tests/Fixtures/rfc8448): the
/// client's encrypted Finished record byte for byte, every handshake message read and written back
/// unchanged, the server's RSA-PSS CertificateVerify checked over the 64 spaces and context string.
@Suite("TLS 1.3 records and messages (RFC 8446 §4, §5; RFC 8448 §3)")
struct TLS13WireTests {
    static func section3() throws -> [String: [UInt8]] {
        let url = Fixtures.directory.appendingPathComponent("rfc8448/vectors.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let section = try #require(root?["section3"] as? [String: String])
        return section.compactMapValues(Hex.bytes)
    }

    @Test("The client's Finished record of RFC 8448 §3, sealed and opened with keys from its traffic secret")
    func clientFinishedRecord() throws {
        let v = try Self.section3()
        let secret = try #require(v["client_handshake_traffic_secret"])
        let keys = TLS13TrafficKeys(secret: secret, hash: .sha256, keyLength: 16)
        var sender = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        let finished = try #require(v["client_finished"])
        let sealed = try sender.seal(contentType: .handshake, content: finished)
        #expect(sealed.record == v["client_finished_record"])
        #expect(sealed.nonce == keys.iv, "sequence number 0 leaves the IV as it is")
        #expect(sealed.additionalData == Array(sealed.record.prefix(5)))
        #expect(Array(sealed.record.prefix(3)) == [23, 3, 3], "the outer header says application_data 03 03")

        var receiver = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        let opened = try receiver.open(encryptedRecord: Array(sealed.record.dropFirst(5)))
        #expect(opened.contentType == .handshake && opened.content == finished && opened.paddingLength == 0)
        #expect(receiver.sequenceNumber == 1)
    }

    @Test("Nonces: the sequence number XORed into the low bytes of write_iv")
    func nonceConstruction() throws {
        let iv: [UInt8] = Array(repeating: 0xff, count: 12)
        let protector = try TLS13RecordProtector(aead: .chacha20Poly1305, keys: TLS13TrafficKeys(key: Array(repeating: 1, count: 32), iv: iv))
        #expect(protector.nonce(sequenceNumber: 0) == iv)
        #expect(protector.nonce(sequenceNumber: 1) == Array(repeating: 0xff, count: 11) + [0xfe])
        #expect(protector.nonce(sequenceNumber: 0x0102) == Array(repeating: 0xff, count: 10) + [0xfe, 0xfd])
    }

    @Test("Any changed byte of a record is refused with bad_record_mac, for each AEAD and padding", arguments: TLS13AEAD.allCases)
    func tamperedRecords(aead: TLS13AEAD) throws {
        var generator = SplitMix64(seed: 0x1303)
        for trial in 0..<40 {
            let keys = TLS13TrafficKeys(key: (0..<aead.keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) },
                                        iv: (0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) })
            var sender = try TLS13RecordProtector(aead: aead, keys: keys)
            let content = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let padding = trial % 3 == 0 ? Int.random(in: 1...64, using: &generator) : 0
            let sealed = try sender.seal(contentType: .applicationData, content: content, padding: padding)
            var clean = try TLS13RecordProtector(aead: aead, keys: keys)
            let opened = try clean.open(encryptedRecord: Array(sealed.record.dropFirst(5)))
            #expect(opened.content == content && opened.paddingLength == padding && opened.contentType == .applicationData)

            var tampered = Array(sealed.record.dropFirst(5))
            let index = Int.random(in: 0..<tampered.count, using: &generator)
            tampered[index] ^= UInt8.random(in: 1...255, using: &generator)
            var receiver = try TLS13RecordProtector(aead: aead, keys: keys)
            #expect(throws: TLS13RecordError.authenticationFailed) { try receiver.open(encryptedRecord: tampered) }
            #expect(TLS13RecordError.authenticationFailed.alert == .badRecordMAC)
        }
    }

    @Test("A record from another position in the stream does not open: the sequence number is in the nonce")
    func reorderedRecord() throws {
        let keys = TLS13TrafficKeys(key: Array(repeating: 7, count: 16), iv: Array(repeating: 9, count: 12))
        var sender = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        let first = try sender.seal(contentType: .applicationData, content: [1])
        let second = try sender.seal(contentType: .applicationData, content: [2])
        var receiver = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        #expect(throws: TLS13RecordError.authenticationFailed) { try receiver.open(encryptedRecord: Array(second.record.dropFirst(5))) }
        var inOrder = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        #expect(try inOrder.open(encryptedRecord: Array(first.record.dropFirst(5))).content == [1])
    }

    @Test("Padding only, no content type: unexpected_message; too long: record_overflow; too short: bad_record_mac")
    func malformedInnerPlaintext() throws {
        let keys = TLS13TrafficKeys(key: Array(repeating: 3, count: 32), iv: Array(repeating: 4, count: 12))
        let allZeros = try TLS13RecordProtector.seal(.aes256GCM, key: keys.key, nonce: keys.iv, plaintext: [0, 0, 0],
                                                     aad: TLS13RecordProtector.header(length: 3 + 16))
        var receiver = try TLS13RecordProtector(aead: .aes256GCM, keys: keys)
        #expect(throws: TLS13RecordError.noContentType) { try receiver.open(encryptedRecord: allZeros) }
        #expect(TLS13RecordError.noContentType.alert == .unexpectedMessage)

        var fresh = try TLS13RecordProtector(aead: .aes256GCM, keys: keys)
        #expect(throws: TLS13RecordError.recordOverflow(length: (1 << 14) + 257)) {
            try fresh.open(encryptedRecord: Array(repeating: 0, count: (1 << 14) + 257))
        }
        #expect(throws: TLS13RecordError.tooShort(length: 15)) { try fresh.open(encryptedRecord: Array(repeating: 0, count: 15)) }
        var sender = try TLS13RecordProtector(aead: .aes256GCM, keys: keys)
        #expect(throws: TLS13RecordError.recordOverflow(length: (1 << 14) + 2)) {
            try sender.seal(contentType: .applicationData, content: Array(repeating: 1, count: 1 << 14), padding: 1)
        }
    }

    @Test("RFC 8448 §3's messages read with their TLS 1.3 extensions and write back byte for byte")
    func messagesRoundTrip() throws {
        let v = try Self.section3()
        let context = HandshakeDecodingContext(version: .tls12, verifyDataLength: 32)
        guard case .clientHello(let hello) = try HandshakeMessage(decoding: try #require(v["client_hello"]), context: context) else {
            Issue.record("not a ClientHello"); return
        }
        #expect(HandshakeMessage.clientHello(hello).encoded == v["client_hello"])
        #expect(hello.clientVersion == .tls12, "legacy_version stays 03 03; the real offer is in supported_versions")
        let extensions = try #require(hello.extensions)
        guard case .unknown(_, let versionsData) = try #require(extensions.first(ofType: .supportedVersions)),
              case .unknown(_, let shareData) = try #require(extensions.first(ofType: .keyShare)),
              case .unknown(_, let modesData) = try #require(extensions.first(ofType: .pskKeyExchangeModes)) else {
            Issue.record("TLS 1.3 extensions missing"); return
        }
        #expect(try SupportedVersions(extensionData: versionsData, inClientHello: true) == .offered([.tls13]))
        let share = try KeyShare(extensionData: shareData, in: .clientHello)
        #expect(share == .clientShares([KeyShareEntry(group: .x25519, keyExchange: try #require(v["client_x25519_public"]))]))
        #expect(share.extensionData == shareData)
        #expect(try PSKKeyExchangeModes(extensionData: modesData).modes == [PSKKeyExchangeModes.pskDHEKE])

        guard case .serverHello(let serverHello) = try HandshakeMessage(decoding: try #require(v["server_hello"]), context: context) else {
            Issue.record("not a ServerHello"); return
        }
        #expect(HandshakeMessage.serverHello(serverHello).encoded == v["server_hello"])
        guard case .unknown(_, let selectedData) = try #require(serverHello.extensions?.first(ofType: .supportedVersions)),
              case .unknown(_, let serverShareData) = try #require(serverHello.extensions?.first(ofType: .keyShare)) else {
            Issue.record("ServerHello extensions missing"); return
        }
        #expect(try SupportedVersions(extensionData: selectedData, inClientHello: false) == .selected(.tls13))
        #expect(try KeyShare(extensionData: serverShareData, in: .serverHello)
                == .serverShare(KeyShareEntry(group: .x25519, keyExchange: try #require(v["server_x25519_public"]))))
        #expect(serverHello.random.bytes != TLS13HelloValues.helloRetryRequestRandom)

        let ee = try #require(v["encrypted_extensions"])
        var eeReader = ByteReader(Array(ee.dropFirst(4)))
        let encryptedExtensions = try EncryptedExtensions(from: &eeReader)
        #expect(encryptedExtensions.extensions.map(\.type) == [.supportedGroups, .recordSizeLimit, .serverName])
        var eeWriter = ByteWriter()
        encryptedExtensions.encode(to: &eeWriter)
        #expect(eeWriter.bytes == Array(ee.dropFirst(4)))

        let certificate = try #require(v["certificate"])
        var certReader = ByteReader(Array(certificate.dropFirst(4)))
        let certificateMessage = try TLS13CertificateMessage(from: &certReader)
        #expect(certificateMessage.requestContext.isEmpty && certificateMessage.entries.count == 1)
        var certWriter = ByteWriter()
        certificateMessage.encode(to: &certWriter)
        #expect(certWriter.bytes == Array(certificate.dropFirst(4)))

        guard case .finished(let finished) = try HandshakeMessage(decoding: try #require(v["server_finished"]), context: context) else {
            Issue.record("not a Finished"); return
        }
        #expect(finished.verifyData.count == 32)
    }

    @Test("The server's CertificateVerify: RSA-PSS over 64 spaces, the context string, 0 and the transcript hash")
    func certificateVerifySignature() throws {
        let v = try Self.section3()
        let certificate = try #require(v["certificate"])
        var certReader = ByteReader(Array(certificate.dropFirst(4)))
        let der = try TLS13CertificateMessage(from: &certReader).certificateList[0]
        let parsed = try X509Certificate(der: der)
        let key = try #require(VerificationKey(subjectPublicKeyInfoDER: parsed.publicKey.der)?.rsa)

        let context = HandshakeDecodingContext(version: .tls12, verifyDataLength: 32)
        guard case .certificateVerify(let verify) = try HandshakeMessage(decoding: try #require(v["certificate_verify"]), context: context) else {
            Issue.record("not a CertificateVerify"); return
        }
        #expect(verify.signature.algorithm == .rsaPSSRSAESHA256)
        let transcript = try #require(v["client_hello"]) + v["server_hello"]! + v["encrypted_extensions"]! + certificate
        let hash = TLS13Hash.sha256.digest(transcript)
        let content = TLS13CertificateVerifyContent.signedContent(signer: .server, transcriptHash: hash)
        #expect(content.prefix(64).allSatisfy { $0 == 0x20 } && content.count == 64 + 33 + 1 + 32)
        #expect(key.verifyPSS(signature: verify.signature.signature, message: content, hash: .sha256, saltLength: 32))
        // The same signature does not stand for a client's CertificateVerify: the context differs.
        let asClient = TLS13CertificateVerifyContent.signedContent(signer: .client, transcriptHash: hash)
        #expect(!key.verifyPSS(signature: verify.signature.signature, message: asClient, hash: .sha256, saltLength: 32))
    }

    @Test("A ClientHello with two key shares for one group is an illegal_parameter")
    func duplicateKeyShare() {
        let entry = KeyShareEntry(group: .x25519, keyExchange: Array(repeating: 9, count: 32))
        let data = KeyShare.clientShares([entry, entry]).extensionData
        #expect(throws: DecodeError.illegalParameter(field: "key_share.client_shares", reason: .duplicateKeyShareGroup)) {
            try KeyShare(extensionData: data, in: .clientHello)
        }
    }

    @Test(CrossCheckRequirement.trait(pythonWithCryptography != nil,
                                      missing: "python3 with the `cryptography` package is not available"),
          arguments: [TLS13AEAD.aes256GCM, .chacha20Poly1305])
    func recordMatchesPythonCryptography(aead: TLS13AEAD) throws {
        let python = try #require(pythonWithCryptography)
        let keys = TLS13TrafficKeys(key: Array(UInt8(0)..<UInt8(32)), iv: Array(UInt8(100)..<UInt8(112)))
        var sender = try TLS13RecordProtector(aead: aead, keys: keys)
        _ = try sender.seal(contentType: .handshake, content: [1, 2, 3])
        let content = Array("HTTP/1.1 200 OK\r\n\r\n".utf8)
        let sealed = try sender.seal(contentType: .applicationData, content: content, padding: 5)
        let cipher = aead == .aes256GCM ? "AESGCM" : "ChaCha20Poly1305"
        let script = """
        from cryptography.hazmat.primitives.ciphers.aead import \(cipher)
        key = bytes(range(0, 32)); iv = bytes(range(100, 112))
        nonce = bytes(a ^ b for a, b in zip(iv, (1).to_bytes(12, "big")))
        inner = bytes.fromhex("\(Hex.string(content))") + bytes([23]) + bytes(5)
        header = bytes([23, 3, 3]) + (len(inner) + 16).to_bytes(2, "big")
        print((header + \(cipher)(key).encrypt(nonce, inner, header)).hex())
        """
        let output = try run(python, ["-c", script])
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == Hex.string(sealed.record))
    }
}

extension TLS13WireTests {
    @Test("The header is the additional data as received: a changed legacy_record_version fails the tag")
    func changedRecordVersion() throws {
        let keys = TLS13TrafficKeys(key: Array(repeating: 5, count: 16), iv: Array(repeating: 6, count: 12))
        var sender = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        let sealed = try sender.seal(contentType: .handshake, content: [20, 0, 0, 0])
        var receiver = try TLS13RecordProtector(aead: .aes128GCM, keys: keys)
        #expect(throws: TLS13RecordError.authenticationFailed) {
            try receiver.open(encryptedRecord: Array(sealed.record.dropFirst(5)), version: ProtocolVersion(rawValue: 0x0301))
        }
        #expect(try receiver.open(encryptedRecord: Array(sealed.record.dropFirst(5)), version: .tls12).content == [20, 0, 0, 0])
    }
}
