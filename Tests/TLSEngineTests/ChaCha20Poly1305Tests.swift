import Crypto
import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// ChaCha20-Poly1305 records (RFC 7905): the AEAD against RFC 8439 §2.8.2, the record nonce and
/// additional data against records built independently by Python's `cryptography`
/// (Tests/Fixtures/chacha20-records.json, made by chacha20-records.py), and tampering.
@Suite("Record protection: ChaCha20-Poly1305 (RFC 7905)")
struct ChaCha20Poly1305Tests {
    static let tls12: UInt16 = 0x0303

    static func fixture() throws -> [String: Any] {
        let data = try Data(contentsOf: Fixtures.directory.appendingPathComponent("chacha20-records.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// RFC 8439 §2.8.2 "Example and Test Vector for AEAD_CHACHA20_POLY1305": the primitive the records use.
    @Test func rfc8439AEADVector() throws {
        let key = SymmetricKey(data: [UInt8](0x80...0x9f))
        let nonce = try ChaChaPoly.Nonce(data: hex("070000004041424344454647"))
        let aad = hex("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: nonce, authenticating: aad)
        #expect(hexString(Array(box.ciphertext)) == "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116")
        #expect(hexString(Array(box.tag)) == "1ae10b594f09e26a7e902ecbd0600691")
    }

    /// RFC 7905 §2: fixed_iv_length 12, record_iv_length 0, no MAC key; the key block is 88 bytes.
    @Test(arguments: [CipherSuite.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
                      .TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256])
    func suiteParameters(suite: CipherSuite) throws {
        let p = try #require(suite.parameters)
        #expect(p.cipher == .chaCha20Poly1305 && p.mac == .none && p.prfHash == .sha256 && p.isAEAD && p.isForwardSecret)
        #expect(p.fixedIVLength() == 12 && p.recordIVLength() == 0 && p.keyBlockLength() == 88)
        #expect(p.recordCipher == .chaCha20Poly1305)
        #expect(CipherSuite.allImplementedWithECDSA.contains(suite) && CipherSuite.openSSLOrder.contains(suite))
        #expect(!CipherSuite.implemented.contains(suite), "the simulation's default offer stays as recorded")
    }

    /// The nonce: the sequence number, left-padded to 12 bytes, XORed with the IV.
    @Test func nonceIsSequenceNumberXORIV() {
        let iv = [UInt8](0xa0 ..< 0xac)
        #expect(RecordProtector.chaChaNonce(fixedIV: iv, sequenceNumber: 0) == iv)
        #expect(hexString(RecordProtector.chaChaNonce(fixedIV: iv, sequenceNumber: 1)) == "a0a1a2a3a4a5a6a7a8a9aaaa")
        #expect(hexString(RecordProtector.chaChaNonce(fixedIV: iv, sequenceNumber: 0x0102030405060708)) == "a0a1a2a3a5a7a5a3adafada3")
    }

    @Test func keyBlockAndRecordsMatchPythonCryptography() throws {
        let f = try Self.fixture()
        func field(_ name: String) -> [UInt8] { hex(f[name] as? String ?? "") }
        let p = try #require(CipherSuite.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256.parameters)
        let layout = KeyBlockLayout(macKeyLength: p.macKeyLength, encKeyLength: p.keyLength, fixedIVLength: p.fixedIVLength())
        let keys = try KeySchedule(prf: .sha256).keys(masterSecret: field("master_secret"), clientRandom: field("client_random"),
                                                       serverRandom: field("server_random"), layout: layout)
        #expect(keys.clientWriteKey == field("client_write_key") && keys.serverWriteKey == field("server_write_key"))
        #expect(keys.clientWriteIV == field("client_write_IV") && keys.serverWriteIV == field("server_write_IV"))

        var client = try RecordProtector(cipher: p.recordCipher, keys: RecordKeys(macKey: [], writeKey: keys.clientWriteKey, fixedIV: keys.clientWriteIV))
        var clientReader = client
        for record in try #require(f["client_records"] as? [[String: Any]]) {
            let type = try #require(record["content_type"] as? Int)
            let plaintext = hex(record["plaintext"] as? String ?? "")
            let sealed = try client.seal(contentType: UInt8(type), version: Self.tls12, plaintext: plaintext, random: FixedBytes(start: 0))
            let wire = hex(record["record"] as? String ?? "")
            #expect(hexString(Array(wire.prefix(5)) + sealed.fragment) == hexString(wire))
            #expect(hexString(sealed.nonceOrIV) == record["nonce"] as? String)
            #expect(hexString(sealed.additionalData) == record["additional_data"] as? String)
            #expect(sealed.fragment.count == plaintext.count + 16, "no explicit nonce: ciphertext ‖ tag")
            let opened = try clientReader.open(contentType: UInt8(type), version: Self.tls12, fragment: Array(wire.dropFirst(5)))
            #expect(opened.plaintext == plaintext)
        }

        let servers = try #require(f["server_records"] as? [[String: Any]])
        var server = try RecordProtector(cipher: p.recordCipher, keys: RecordKeys(macKey: [], writeKey: keys.serverWriteKey, fixedIV: keys.serverWriteIV))
        let first = hex(servers[0]["record"] as? String ?? "")
        #expect(hexString(try server.open(contentType: 22, version: Self.tls12, fragment: Array(first.dropFirst(5))).plaintext)
                == servers[0]["plaintext"] as? String)
        // A record far into the connection (seq 0x0102030405060708): every byte of the sequence number meets the IV.
        let late = servers[1]
        let seq = try #require((late["seq"] as? NSNumber)?.uint64Value)
        let nonce = RecordProtector.chaChaNonce(fixedIV: keys.serverWriteIV, sequenceNumber: seq)
        #expect(hexString(nonce) == late["nonce"] as? String)
        let aad = RecordProtector.header(seq: seq, contentType: 23, version: Self.tls12, length: 0)
        #expect(hexString(aad) == late["additional_data"] as? String)
        let lateWire = Array(hex(late["record"] as? String ?? "").dropFirst(5))
        let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: lateWire.dropLast(16), tag: lateWire.suffix(16))
        #expect(try ChaChaPoly.open(box, using: SymmetricKey(data: keys.serverWriteKey), authenticating: aad).isEmpty)
    }

    /// Property: over seeds, any one byte changed anywhere in a sealed record is bad_record_mac
    /// (the Poly1305 tag), and the receiver's sequence number does not move; the record then opens.
    @Test(arguments: 0 ..< 24)
    func tamperedByteIsBadRecordMAC(seed: Int) throws {
        var g = SplitMix64(seed: UInt64(seed))
        let keys = RecordKeys(macKey: [], writeKey: g.bytes(32), fixedIV: g.bytes(12))
        var sender = try RecordProtector(cipher: .chaCha20Poly1305, keys: keys)
        var receiver = sender
        for _ in 0 ..< g.int(0 ... 3) {   // some records first, so the sequence number is not always 0
            let r = try sender.seal(contentType: 23, version: Self.tls12, plaintext: g.bytes(0 ... 40), random: FixedBytes(start: 0))
            _ = try receiver.open(contentType: 23, version: Self.tls12, fragment: r.fragment)
        }
        let plaintext = g.bytes(0 ... 300)
        let sealed = try sender.seal(contentType: 23, version: Self.tls12, plaintext: plaintext, random: FixedBytes(start: 0))
        let before = receiver.sequenceNumber
        for _ in 0 ..< 16 {
            var tampered = sealed.fragment
            let at = g.below(tampered.count)
            tampered[at] ^= UInt8(g.int(1 ... 255))
            #expect(throws: RecordProtectionError.badRecordMAC(.poly1305TagMismatch)) {
                try receiver.open(contentType: 23, version: Self.tls12, fragment: tampered)
            }
        }
        #expect(throws: RecordProtectionError.badRecordMAC(.chaChaRecordTooShort(needed: 16, got: 15))) {
            try receiver.open(contentType: 23, version: Self.tls12, fragment: Array(sealed.fragment.prefix(15)))
        }
        #expect(receiver.sequenceNumber == before)
        #expect(try receiver.open(contentType: 23, version: Self.tls12, fragment: sealed.fragment).plaintext == plaintext)
    }

    /// ECDHE_ECDSA with ChaCha20-Poly1305 in memory (the RSA ones run in EngineHandshakeTests with every
    /// suite of ``CipherSuite/allImplemented``): the Finished records are ChaCha20-Poly1305 records.
    @Test func ecdsaSuiteCompletes() throws {
        let (client, server, _) = try ECDSAHandshakeTests.configurations(seed: 2, curve: .p256,
                                                                          clientSuites: [.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256])
        let run = Harness.run(client: client, server: server)
        #expect(run.outcome == .connected, "\(run.outcome)")
        #expect(run.client.negotiatedSuite == .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256)
        #expect(run.client.keyBlock?.clientWriteIV.count == 12 && run.client.keyBlock?.clientWriteKey.count == 32)
        #expect(String(decoding: run.clientReceived, as: UTF8.self).hasSuffix("hi"))
    }

    @Test func wrongIVAndExplicitNonceAreTypedErrors() throws {
        #expect(throws: RecordProtectionError.invalidKeys(.chaChaIVLength(have: 4))) {
            try RecordProtector(cipher: .chaCha20Poly1305, keys: RecordKeys(macKey: [], writeKey: [UInt8](repeating: 1, count: 32), fixedIV: [0, 0, 0, 0]))
        }
        var p = try RecordProtector(cipher: .chaCha20Poly1305, keys: RecordKeys(macKey: [], writeKey: [UInt8](repeating: 1, count: 32),
                                                                                 fixedIV: [UInt8](repeating: 2, count: 12)))
        #expect(throws: RecordProtectionError.invalidKeys(.explicitNonceWithChaCha(have: 8))) {
            try p.seal(contentType: 23, version: Self.tls12, plaintext: [1], random: FixedBytes(start: 0), explicitNonce: [UInt8](repeating: 0, count: 8))
        }
    }
}
