import Foundation
import Testing
import BigNum
@testable import TLSCrypto

@Suite("RSA PKCS#1 v1.5 encryption (RFC 8017 §7.2)")
struct RSAEncryptionTests {
    @Test("encrypt then decrypt gives the message back, for lengths 0 … k − 11")
    func roundTrip() throws {
        let key = try RSAFixtures.pkcs8Key()
        let source = RSATestRandom(seed: 5)
        for length in [0, 1, 48, 100, 245] {
            let message = source.bytes(count: length)
            let ciphertext = try key.publicKey.encryptPKCS1v15(message, using: source)
            #expect(ciphertext.count == 256)
            #expect(try key.decryptPKCS1v15(ciphertext) == message)
        }
        let small = try #require(RSAFixtures.key512)
        #expect(try small.decryptPKCS1v15(try small.publicKey.encryptPKCS1v15([1, 2, 3], using: source)) == [1, 2, 3])
    }

    @Test("encryption is deterministic for a seed and its padding is nonzero")
    func deterministicPadding() throws {
        let key = try RSAFixtures.pkcs1Key()
        let a = try key.publicKey.encryptPKCS1v15([42], using: RSATestRandom(seed: 9))
        let b = try key.publicKey.encryptPKCS1v15([42], using: RSATestRandom(seed: 9))
        let c = try key.publicKey.encryptPKCS1v15([42], using: RSATestRandom(seed: 10))
        #expect(a == b && a != c)
        let em = try PKCS1Encoding.encodeEncryptionBlock([7, 7], modulusLength: 256, using: RSATestRandom(seed: 1))
        #expect(em.count == 256 && em[0] == 0 && em[1] == 2 && em[253] == 0)
        #expect(em[2..<253].allSatisfy { $0 != 0 })
        // The raw block: the private op on the ciphertext shows 00 02 PS 00 M (RSADP).
        let m = try key.privateOperation(BigInt(bigEndian: a))
        let block = try m.bigEndianBytes(width: 256)
        #expect(block[0] == 0 && block[1] == 2 && block.last == 42)
    }

    @Test("message too long, wrong length, out of range and bad padding are typed errors")
    func errors() throws {
        let key = try RSAFixtures.pkcs8Key()
        let source = RSATestRandom(seed: 3)
        #expect(throws: RSAError.messageTooLong(maximum: 245, actual: 246)) {
            try key.publicKey.encryptPKCS1v15([UInt8](repeating: 1, count: 246), using: source)
        }
        let ciphertext = try key.publicKey.encryptPKCS1v15([1, 2, 3], using: source)
        #expect(throws: RSAError.wrongLength(expected: 256, actual: 255)) {
            try key.decryptPKCS1v15(Array(ciphertext.dropFirst()))
        }
        #expect(throws: RSAError.wrongLength(expected: 256, actual: 0)) { try key.decryptPKCS1v15([]) }
        #expect(throws: RSAError.representativeOutOfRange) {
            try key.decryptPKCS1v15([UInt8](repeating: 0xFF, count: 256))
        }
        #expect(throws: RSAError.representativeOutOfRange) {
            try key.decryptPKCS1v15(try key.publicKey.modulus.bigEndianBytes(width: 256))
        }
        // Blocks with broken padding, encrypted raw (RSAEP) so that only the padding is wrong.
        let message: [UInt8] = [9, 9, 9]
        let good = try PKCS1Encoding.encodeEncryptionBlock(message, modulusLength: 256, using: source)
        var badType = good; badType[1] = 0x01
        var badFirst = good; badFirst[0] = 0x01
        var noSeparator = good; noSeparator[252] = 0x01
        var shortPS = good; shortPS[5] = 0x00     // separator after only three PS bytes
        for block in [badType, badFirst, noSeparator, shortPS] {
            let c = try key.publicKey.publicOperation(BigInt(bigEndian: block)).bigEndianBytes(width: 256)
            #expect(throws: RSAError.decryptionError) { try key.decryptPKCS1v15(c) }
        }
        let c = try key.publicKey.publicOperation(BigInt(bigEndian: good)).bigEndianBytes(width: 256)
        #expect(try key.decryptPKCS1v15(c) == message)
        #expect(throws: RSAError.decryptionError) { try PKCS1Encoding.decodeEncryptionBlock([0, 2, 1]) }
    }

    @Test("both exponentiation variants of the CRT private op agree with the plain c^d mod n")
    func privateOpVariants() throws {
        let key = try RSAFixtures.pkcs1Key()
        let source = RSATestRandom(seed: 11)
        for _ in 0..<5 {
            let c = try BigInt.random(below: key.publicKey.modulus, using: source)
            let expected = try c.power(key.privateExponent, modulus: key.publicKey.modulus)
            for variant in RSAPrivateKey.Exponentiation.allCases {
                #expect(try key.privateOperation(c, exponentiation: variant) == expected)
            }
        }
        #expect(try key.privateOperation(.zero) == .zero)
        #expect(try key.privateOperation(.one) == .one)
    }

    @Test("the RSA key exchange of the real OpenSSL handshake: we decrypt its premaster secret")
    func tls12Vector() throws {
        let data = try Data(contentsOf: RSAFixtures.directory.appendingPathComponent("tls12-vectors.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let vector = try #require(root["rsa_kx_openssl_real"] as? [String: Any])
        func field(_ prefix: String) throws -> String {
            let key = try #require(vector.keys.first { $0 == prefix || $0.hasPrefix(prefix + "(") })
            return try #require(vector[key] as? String)
        }
        let key = try RSAPrivateKey(pem: try field("server_private_key_pem"))
        let encrypted = try #require([UInt8](rsaTestHex: try field("encrypted_pre_master_secret")))
        let premaster = try #require([UInt8](rsaTestHex: try field("pre_master_secret")))
        #expect(premaster.count == 48)
        #expect(try key.decryptPKCS1v15(encrypted) == premaster)
    }

    @Test("openssl pkeyutl decrypts what we encrypt, and we decrypt what it encrypts", rsaNeedsOpenSSL)
    func opensslCrossCheck() throws {
        try withRSAOpenSSL { openssl, dir in
            let key = try RSAFixtures.pkcs8Key()
            let keyFile = dir.appendingPathComponent("key.pem"), pubFile = dir.appendingPathComponent("pub.pem")
            try rsaWrite(key.pem, to: keyFile)
            try rsaWrite(key.publicKey.pem, to: pubFile)
            let source = RSATestRandom(seed: 21)
            for length in [1, 48, 245] {
                let message = source.bytes(count: length)
                // ours → openssl
                let ct = dir.appendingPathComponent("ct.bin"), pt = dir.appendingPathComponent("pt.bin")
                try rsaWrite(try key.publicKey.encryptPKCS1v15(message, using: source), to: ct)
                let decrypt = try RSAExternalTool.run(openssl, ["pkeyutl", "-decrypt", "-inkey", keyFile.path,
                                                             "-in", ct.path, "-out", pt.path])
                #expect(decrypt.status == 0, "openssl pkeyutl -decrypt: \(decrypt.error)")
                #expect(try rsaRead(pt) == message)
                // openssl → ours
                let msg = dir.appendingPathComponent("msg.bin"), ct2 = dir.appendingPathComponent("ct2.bin")
                try rsaWrite(message, to: msg)
                let encrypt = try RSAExternalTool.run(openssl, ["pkeyutl", "-encrypt", "-pubin", "-inkey", pubFile.path,
                                                             "-in", msg.path, "-out", ct2.path])
                #expect(encrypt.status == 0, "openssl pkeyutl -encrypt: \(encrypt.error)")
                #expect(try key.decryptPKCS1v15(try rsaRead(ct2)) == message)
            }
        }
    }
}
