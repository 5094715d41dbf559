import Crypto
import _CryptoExtras
import Testing
import TLSCrypto
@testable import TLSEngine

/// RFC 7366 encrypt-then-MAC: the record layout, rebuilt here with swift-crypto's AES-CBC and HMAC
/// directly; every flipped bit is refused before decryption; the hellos negotiate it only for CBC
/// suites, and a resumption keeps it.
@Suite("Encrypt-then-MAC (RFC 7366)")
struct EncryptThenMACTests {
    static let tls12: UInt16 = 0x0303
    static let ciphers: [RecordCipher] = [
        .aesCBC(keyLength: 16, mac: .sha1), .aesCBC(keyLength: 32, mac: .sha1),
        .aesCBC(keyLength: 16, mac: .sha256), .aesCBC(keyLength: 32, mac: .sha384),
    ]

    @Test("the layout is IV ‖ AES-CBC(content ‖ padding) ‖ HMAC(seq ‖ type ‖ version ‖ length ‖ IV ‖ ciphertext)", arguments: ciphers)
    func layout(cipher: RecordCipher) throws {
        guard case .aesCBC(_, let mac) = cipher else { return }
        let rng = HMACDRBG(seed: 11)
        let keys = RecordKeys(macKey: rng.bytes(count: cipher.macKeyLength), writeKey: rng.bytes(count: cipher.keyLength), fixedIV: [])
        var sender = try RecordProtector(cipher: cipher, keys: keys, encryptThenMAC: true)
        let plaintext = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        _ = try sender.seal(contentType: 23, version: Self.tls12, plaintext: [1, 2, 3], random: rng)  // seq 0
        let sealed = try sender.seal(contentType: 23, version: Self.tls12, plaintext: plaintext, random: rng)  // seq 1
        let iv = Array(sealed.fragment.prefix(16))
        let padLength = 15 - plaintext.count % 16
        let expectedCiphertext = Array(try AES._CBC.encrypt(plaintext + [UInt8](repeating: UInt8(padLength), count: padLength + 1),
                                                            using: SymmetricKey(data: keys.writeKey), iv: AES._CBC.IV(ivBytes: iv),
                                                            noPadding: true))
        let sent = iv + expectedCiphertext
        let header: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1, 23, 3, 3, UInt8(sent.count >> 8), UInt8(sent.count & 0xff)]
        let key = SymmetricKey(data: keys.macKey)
        let expectedMAC: [UInt8]
        switch mac {
        case .sha1: expectedMAC = Array(HMAC<Insecure.SHA1>.authenticationCode(for: header + sent, using: key))
        case .sha256: expectedMAC = Array(HMAC<SHA256>.authenticationCode(for: header + sent, using: key))
        case .sha384: expectedMAC = Array(HMAC<SHA384>.authenticationCode(for: header + sent, using: key))
        }
        #expect(sealed.fragment == sent + expectedMAC)
        // MAC-then-encrypt under the same keys is another record.
        var mte = try RecordProtector(cipher: cipher, keys: keys)
        _ = try mte.seal(contentType: 23, version: Self.tls12, plaintext: [1, 2, 3], random: rng)
        let other = try mte.seal(contentType: 23, version: Self.tls12, plaintext: plaintext, random: HMACDRBG(seed: 1), explicitNonce: iv)
        #expect(other.fragment != sealed.fragment)
    }

    @Test("round trip; every flipped bit is refused and the sequence number stays", arguments: ciphers)
    func everyBitFlipIsRejected(cipher: RecordCipher) throws {
        let rng = HMACDRBG(seed: 12)
        let keys = RecordKeys(macKey: rng.bytes(count: cipher.macKeyLength), writeKey: rng.bytes(count: cipher.keyLength), fixedIV: [])
        for length in [0, 1, 15, 16, 17, 100] {
            var sender = try RecordProtector(cipher: cipher, keys: keys, encryptThenMAC: true)
            var receiver = try RecordProtector(cipher: cipher, keys: keys, encryptThenMAC: true)
            let plaintext = rng.bytes(count: length)
            let sealed = try sender.seal(contentType: 23, version: Self.tls12, plaintext: plaintext, random: rng)
            for bit in 0 ..< sealed.fragment.count * 8 {
                var tampered = sealed.fragment
                tampered[bit / 8] ^= UInt8(1 << (bit % 8))
                #expect(throws: RecordProtectionError.self) { try receiver.open(contentType: 23, version: Self.tls12, fragment: tampered) }
            }
            #expect(receiver.sequenceNumber == 0)
            #expect(throws: RecordProtectionError.self) { try receiver.open(contentType: 23, version: Self.tls12, fragment: Array(sealed.fragment.dropLast())) }
            let opened = try receiver.open(contentType: 23, version: Self.tls12, fragment: sealed.fragment)
            #expect(opened.plaintext == plaintext)
            // A MAC-then-encrypt receiver cannot read it.
            var mte = try RecordProtector(cipher: cipher, keys: keys)
            #expect(throws: RecordProtectionError.self) { try mte.open(contentType: 23, version: Self.tls12, fragment: sealed.fragment) }
        }
    }

    @Test("TLS 1.0 chains IVs under encrypt-then-MAC too")
    func chainedIVs() throws {
        let rng = HMACDRBG(seed: 13)
        let cipher = RecordCipher.aesCBC(keyLength: 16, mac: .sha1)
        let keys = RecordKeys(macKey: rng.bytes(count: 20), writeKey: rng.bytes(count: 16), fixedIV: rng.bytes(count: 16))
        var sender = try RecordProtector(cipher: cipher, keys: keys, explicitIV: false, encryptThenMAC: true)
        var receiver = try RecordProtector(cipher: cipher, keys: keys, explicitIV: false, encryptThenMAC: true)
        for text in ["one", "two records", String(repeating: "x", count: 40)] {
            let sealed = try sender.seal(contentType: 23, version: 0x0301, plaintext: Array(text.utf8), random: rng)
            #expect(try receiver.open(contentType: 23, version: 0x0301, fragment: sealed.fragment).plaintext == Array(text.utf8))
        }
    }

    static func hellos(_ step: TLSStep) -> (ClientHello?, ServerHello?) {
        var ch: ClientHello?, sh: ServerHello?
        for case .handshakeSent(let m, _) in step.events {
            if case .clientHello(let h) = m { ch = h }
            if case .serverHello(let h) = m { sh = h }
        }
        return (ch, sh)
    }

    @Test("negotiated for CBC suites when the client offers it; never for AEAD; off without the offer",
          arguments: [CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, .TLS_RSA_WITH_AES_256_CBC_SHA256, .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384,
                      .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
    func negotiation(suite: CipherSuite) throws {
        for offer in [true, false] {
            var client = try Harness.clientConfiguration(seed: 60, suites: [suite])
            client.offerEncryptThenMAC = offer
            let run = Harness.run(client: client, server: try Harness.serverConfiguration(seed: 60))
            #expect(run.outcome == .connected, "\(suite) offer \(offer): \(run.outcome)")
            let expected = offer && !(suite.parameters?.isAEAD ?? true)
            #expect(run.client.usesEncryptThenMAC == expected && run.server.usesEncryptThenMAC == expected, "\(suite) offer \(offer)")
            #expect(String(decoding: run.serverReceived, as: UTF8.self).hasPrefix("GET / HTTP/1.1"))
        }
    }

    @Test("a ServerHello with encrypt_then_mac for an AEAD suite is illegal_parameter; unoffered, unsupported_extension")
    func clientChecks() throws {
        var config = try Harness.clientConfiguration(seed: 61, suites: [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_CBC_SHA])
        config.offerEncryptThenMAC = true
        var client = TLSClient(configuration: config)
        let (hello, _) = Self.hellos(client.start())
        #expect(hello?.extensions?.contains(type: .encryptThenMAC) == true)
        let sh = ServerHello(serverVersion: .tls12, random: Random([UInt8](repeating: 1, count: 32)), sessionID: [],
                             cipherSuite: .TLS_RSA_WITH_AES_128_GCM_SHA256, extensions: [.encryptThenMAC, .extendedMasterSecret])
        _ = client.receive(TLSRecord(contentType: .handshake, fragment: HandshakeMessage.serverHello(sh).encoded).encoded)
        #expect(client.failureAlert == .fatal(.illegalParameter))

        var plain = TLSClient(configuration: try Harness.clientConfiguration(seed: 62, suites: [.TLS_RSA_WITH_AES_128_CBC_SHA]))
        let (noOffer, _) = Self.hellos(plain.start())
        #expect(noOffer?.extensions?.contains(type: .encryptThenMAC) == false)
        var cbc = sh
        cbc.cipherSuite = .TLS_RSA_WITH_AES_128_CBC_SHA
        _ = plain.receive(TLSRecord(contentType: .handshake, fragment: HandshakeMessage.serverHello(cbc).encoded).encoded)
        #expect(plain.failureAlert == .fatal(.unsupportedExtension))
    }
}
