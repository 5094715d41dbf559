import BigNum
import Foundation
import Testing
@testable import TLSCrypto

private typealias S = RSATestSupport

@Suite("RSA core (RFC 8017)")
struct RSACoreTests {
    @Test("key generation is deterministic for a seed and yields consistent keys")
    func keyGeneration() throws {
        let a = try RSAPrivateKey.generate(bits: 512, using: S.CounterRandom(seed: 7))
        let b = try RSAPrivateKey.generate(bits: 512, using: S.CounterRandom(seed: 7))
        let c = try RSAPrivateKey.generate(bits: 512, using: S.CounterRandom(seed: 8))
        #expect(a.publicKey == b.publicKey)
        #expect(a.privateExponent == b.privateExponent)
        #expect(a.publicKey != c.publicKey)
        for key in [a, c] {
            #expect(key.publicKey.bitLength == 512)
            #expect(key.publicKey.publicExponent == BigInt(65537))
            #expect(key.prime1 * key.prime2 == key.publicKey.modulus)
            #expect(key.prime1 != key.prime2)
            #expect(key.prime1.bitWidth == 256 && key.prime2.bitWidth == 256)
            #expect(key.prime1.isProbablePrime() && key.prime2.isProbablePrime())
        }
        let key = try #require(S.key1024)
        #expect(key.publicKey.bitLength == 1024)
    }

    @Test("key sizes outside 512…4096 are rejected", arguments: [0, 256, 511, 4097, -1])
    func keySizeRange(bits: Int) {
        #expect(throws: RSAError.unsupportedKeySize(bits)) {
            try RSAPrivateKey.generate(bits: bits, using: S.CounterRandom(seed: 1))
        }
    }

    @Test("CRT private op inverts the public op")
    func crtMatchesPlainExponent() throws {
        let key = try #require(S.key1024)
        let source = S.CounterRandom(seed: 99)
        for _ in 0..<20 {
            let x = try BigInt.random(below: key.publicKey.modulus, using: source)
            let viaCRT = try key.privateOperation(x)
            let direct = try x.power(key.privateExponent, modulus: key.publicKey.modulus)
            #expect(viaCRT == direct)
            #expect(key.publicKey.publicOperation(viaCRT) == x)
        }
        #expect(try key.privateOperation(.zero) == .zero)
        #expect(try key.privateOperation(.one) == .one)
    }

    @Test("a key whose numbers do not belong together is rejected")
    func inconsistentKey() throws {
        let key = try #require(S.key512)
        #expect(throws: RSAError.self) {
            try RSAPrivateKey(modulus: key.publicKey.modulus, publicExponent: key.publicKey.publicExponent,
                              privateExponent: key.privateExponent, prime1: key.prime1, prime2: key.prime2,
                              exponent1: key.exponent1, exponent2: key.exponent2,
                              coefficient: key.coefficient + .one)
        }
        #expect(throws: RSAError.self) {
            try RSAPrivateKey(modulus: key.publicKey.modulus + BigInt(2), publicExponent: key.publicKey.publicExponent,
                              privateExponent: key.privateExponent, prime1: key.prime1, prime2: key.prime2,
                              exponent1: key.exponent1, exponent2: key.exponent2, coefficient: key.coefficient)
        }
        #expect(throws: RSAError.self) { try RSAPublicKey(modulus: BigInt(1) << 100, publicExponent: BigInt(3)) }
        #expect(throws: RSAError.self) {
            try RSAPublicKey(modulus: key.publicKey.modulus, publicExponent: BigInt(65536))
        }
    }

    // MARK: PKCS#1 v1.5 encryption

    @Test("PKCS#1 v1.5 encryption round-trips, with type-2 padding from the source")
    func encryptionRoundTrip() throws {
        let key = try #require(S.key1024)
        let k = key.publicKey.byteLength
        for length in [0, 1, 48, k - 11] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
            let c = try key.publicKey.encryptPKCS1v15(message, using: S.CounterRandom(seed: UInt64(length)))
            #expect(c.count == k)
            #expect(try key.decryptPKCS1v15(c) == message)
            // the encoded message: 00 02, nonzero padding, 00, message
            let em = try S.rawPrivate(key, c)
            #expect(em[0] == 0 && em[1] == 2)
            #expect(em[2..<(k - length - 1)].allSatisfy { $0 != 0 })
            #expect(em[k - length - 1] == 0)
        }
        // deterministic for a seed, different for another seed
        let m: [UInt8] = Array("premaster".utf8)
        let c1 = try key.publicKey.encryptPKCS1v15(m, using: S.CounterRandom(seed: 5))
        let c2 = try key.publicKey.encryptPKCS1v15(m, using: S.CounterRandom(seed: 5))
        let c3 = try key.publicKey.encryptPKCS1v15(m, using: S.CounterRandom(seed: 6))
        #expect(c1 == c2 && c1 != c3)
    }

    @Test("bad ciphertexts and messages give typed errors")
    func encryptionErrors() throws {
        let key = try #require(S.key1024)
        let k = key.publicKey.byteLength
        #expect(throws: RSAError.messageTooLong(length: k - 10, maximum: k - 11)) {
            try key.publicKey.encryptPKCS1v15([UInt8](repeating: 1, count: k - 10), using: S.CounterRandom(seed: 1))
        }
        #expect(throws: RSAError.invalidCiphertextLength(length: k - 1, expected: k)) {
            try key.decryptPKCS1v15([UInt8](repeating: 1, count: k - 1))
        }
        #expect(throws: RSAError.invalidCiphertextLength(length: 0, expected: k)) { try key.decryptPKCS1v15([]) }
        #expect(throws: RSAError.ciphertextOutOfRange) { try key.decryptPKCS1v15([UInt8](repeating: 0xFF, count: k)) }
        #expect(throws: RSAError.ciphertextOutOfRange) { try key.decryptPKCS1v15(key.publicKey.modulus.bigEndianBytes) }
        // Well-formed RSA, badly formed padding: each case encrypts a hand-made EM.
        func encryptRaw(_ em: [UInt8]) -> [UInt8] {
            RSAPublicKey.i2osp(key.publicKey.publicOperation(BigInt(bigEndian: em)), length: k)
        }
        let good: [UInt8] = [0, 2] + [UInt8](repeating: 0x55, count: 20) + [0] + [UInt8](repeating: 0xAB, count: k - 23)
        #expect(try key.decryptPKCS1v15(encryptRaw(good)) == [UInt8](repeating: 0xAB, count: k - 23))
        var wrongType = good; wrongType[1] = 1
        var wrongFirst = good; wrongFirst[0] = 1
        var shortPadding = good; shortPadding[9] = 0          // PS of 7 octets
        var noSeparator = good
        for i in 2..<k where noSeparator[i] == 0 { noSeparator[i] = 0x11 }
        for em in [wrongType, wrongFirst, shortPadding, noSeparator] {
            #expect(throws: RSAError.decryptionError) { try key.decryptPKCS1v15(encryptRaw(em)) }
        }
        var eightPadding = good; eightPadding[10] = 0          // PS of exactly 8 octets is fine
        #expect(try key.decryptPKCS1v15(encryptRaw(eightPadding)).count == k - 11)
    }

    @Test("the real OpenSSL RSA key exchange: our decryption recovers its premaster secret")
    func opensslRealPremaster() throws {
        let data = try Data(contentsOf: S.fixtures.appendingPathComponent("tls12-vectors.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let vector = try #require(root["rsa_kx_openssl_real"] as? [String: Any])
        let pem = try #require(vector["server_private_key_pem"] as? String)
        let encryptedKey = try #require(vector.keys.first { $0.hasPrefix("encrypted_pre_master_secret") })
        let encrypted = S.hex(try #require(vector[encryptedKey] as? String))
        let expected = S.hex(try #require(vector["pre_master_secret"] as? String))
        let key = try RSAPrivateKey(pem: pem)
        #expect(key.publicKey.bitLength == 2048)
        #expect(encrypted.count == 256)
        let premaster = try key.decryptPKCS1v15(encrypted)
        #expect(premaster.count == 48)
        #expect(premaster == expected)
        #expect(premaster.prefix(2) == [0x03, 0x03])
    }

    // MARK: PKCS#1 v1.5 signatures

    @Test("PKCS#1 v1.5 signatures verify and open to the right DigestInfo",
          arguments: [HashAlgorithm.sha1, .sha256, .sha384, .sha512])
    func pkcs1Signatures(hash: HashAlgorithm) throws {
        let key = try #require(S.key1024)
        let message = Array("the quick brown fox".utf8)
        let signature = try key.signPKCS1v15(message: message, hash: hash)
        #expect(signature.count == key.publicKey.byteLength)
        #expect(key.publicKey.verifyPKCS1v15(signature: signature, message: message, hash: hash))
        #expect(!key.publicKey.verifyPKCS1v15(signature: signature, message: message + [0], hash: hash))
        let other: HashAlgorithm = hash == .sha256 ? .sha384 : .sha256
        #expect(!key.publicKey.verifyPKCS1v15(signature: signature, message: message, hash: other))
        var flipped = signature; flipped[flipped.count - 1] ^= 1
        #expect(!key.publicKey.verifyPKCS1v15(signature: flipped, message: message, hash: hash))
        #expect(!key.publicKey.verifyPKCS1v15(signature: Array(signature.dropFirst()), message: message, hash: hash))
        #expect(!key.publicKey.verifyPKCS1v15(signature: key.publicKey.modulus.bigEndianBytes, message: message, hash: hash))

        let block = try key.publicKey.recoverPKCS1v15(signature: signature)
        #expect(block.hash == hash)
        #expect(block.digest == hash.digest(message))
        #expect(block.digestInfo == hash.digestInfoPrefix + hash.digest(message))
        #expect(block.encodedMessage.count == key.publicKey.byteLength)
        #expect(Array(block.encodedMessage.prefix(3)) == [0x00, 0x01, 0xFF])
    }

    @Test("signing is deterministic and matches the textbook s = m^d mod n")
    func pkcs1SignatureValue() throws {
        let key = try #require(S.key512)
        let message = Array("abc".utf8)
        let em = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 64 - 3 - 51) + [0x00]
            + HashAlgorithm.sha256.digestInfoPrefix + HashAlgorithm.sha256.digest(message)
        let textbook = try BigInt(bigEndian: em).power(key.privateExponent, modulus: key.publicKey.modulus)
        #expect(try key.signPKCS1v15(message: message, hash: .sha256) == textbook.bigEndianBytes(width: 64))
        // SHA-512's DigestInfo (83 octets) does not fit a 512-bit modulus.
        #expect(throws: RSAError.modulusTooShort) { try key.signPKCS1v15(message: message, hash: .sha512) }
    }

    @Test("recovering a malformed signature block gives typed errors")
    func recoverErrors() throws {
        let key = try #require(S.key1024)
        let k = key.publicKey.byteLength
        func signRaw(_ em: [UInt8]) throws -> [UInt8] {
            RSAPublicKey.i2osp(try key.privateOperation(BigInt(bigEndian: em)), length: k)
        }
        let t = HashAlgorithm.sha256.digestInfo(digest: [UInt8](repeating: 9, count: 32))
        let good = [0, 1] + [UInt8](repeating: 0xFF, count: k - t.count - 3) + [0] + t
        #expect(try key.publicKey.recoverPKCS1v15(signature: try signRaw(good)).digest == [UInt8](repeating: 9, count: 32))
        var type2 = good; type2[1] = 2
        var brokenDER = good; brokenDER[k - t.count] = 0x31
        var shortFF = [0, 1] + [UInt8](repeating: 0xFF, count: 7) + [0] + t
        shortFF = [UInt8](repeating: 0, count: k - shortFF.count) + shortFF
        for em in [type2, brokenDER, shortFF] {
            #expect(throws: RSAError.self) { try key.publicKey.recoverPKCS1v15(signature: try signRaw(em)) }
        }
        #expect(throws: RSAError.signatureOutOfRange) {
            try key.publicKey.recoverPKCS1v15(signature: key.publicKey.modulus.bigEndianBytes)
        }
        #expect(throws: RSAError.invalidSignatureLength(length: 3, expected: k)) {
            try key.publicKey.recoverPKCS1v15(signature: [1, 2, 3])
        }
        // An unknown OID still opens, with hash nil.
        let unknown: [UInt8] = [0x30, 0x0d, 0x30, 0x07, 0x06, 0x03, 0x2a, 0x03, 0x04, 0x05, 0x00, 0x04, 0x02, 0xAA, 0xBB]
        let em = [0, 1] + [UInt8](repeating: 0xFF, count: k - unknown.count - 3) + [0] + unknown
        let block = try key.publicKey.recoverPKCS1v15(signature: try signRaw(em))
        #expect(block.hash == nil && block.digest == [0xAA, 0xBB])
    }

    // MARK: PSS

    @Test("RSA-PSS signatures verify with the fixed and with any salt length",
          arguments: [HashAlgorithm.sha1, .sha256, .sha384, .sha512])
    func pss(hash: HashAlgorithm) throws {
        let key = try #require(S.key1024)
        let message = Array("pss message".utf8)
        for saltLength in [0, min(hash.digestLength, 32)] {  // 64 + 64 + 2 > 128 octets
            let signature = try key.signPSS(message: message, hash: hash, saltLength: saltLength,
                                            using: S.CounterRandom(seed: 3))
            #expect(key.publicKey.verifyPSS(signature: signature, message: message, hash: hash, saltLength: saltLength))
            #expect(key.publicKey.verifyPSS(signature: signature, message: message, hash: hash, saltLength: nil))
            #expect(!key.publicKey.verifyPSS(signature: signature, message: message, hash: hash, saltLength: saltLength + 1))
            #expect(!key.publicKey.verifyPSS(signature: signature, message: message + [1], hash: hash, saltLength: nil))
            var flipped = signature; flipped[10] ^= 0x40
            #expect(!key.publicKey.verifyPSS(signature: flipped, message: message, hash: hash, saltLength: nil))
            #expect(!key.publicKey.verifyPKCS1v15(signature: signature, message: message, hash: hash))
        }
        // PSS is randomised: two salts, two signatures.
        let s1 = try key.signPSS(message: message, hash: hash, saltLength: 16, using: S.CounterRandom(seed: 1))
        let s2 = try key.signPSS(message: message, hash: hash, saltLength: 16, using: S.CounterRandom(seed: 2))
        #expect(s1 != s2)
        #expect(throws: RSAError.invalidSaltLength(-1)) {
            try key.signPSS(message: message, hash: hash, saltLength: -1, using: S.CounterRandom(seed: 1))
        }
        #expect(throws: RSAError.invalidSaltLength(200)) {
            try key.signPSS(message: message, hash: hash, saltLength: 200, using: S.CounterRandom(seed: 1))
        }
        #expect(!key.publicKey.verifyPSS(signature: s1, message: message, hash: hash, saltLength: -3))
    }

    @Test("PSS with a modulus whose bit length is 1 mod 8 (emLen = k − 1)")
    func pssOddModulus() throws {
        // 1 + 8·j bits: the top octet of EM disappears.
        let key = try RSAPrivateKey.generate(bits: 521, using: S.CounterRandom(seed: 521))
        #expect(key.publicKey.bitLength == 521)
        let signature = try key.signPSS(message: [1, 2, 3], hash: .sha256, saltLength: 31, using: S.CounterRandom(seed: 4))
        #expect(key.publicKey.verifyPSS(signature: signature, message: [1, 2, 3], hash: .sha256, saltLength: 31))
        #expect(key.publicKey.verifyPSS(signature: signature, message: [1, 2, 3], hash: .sha256, saltLength: nil))
        let c = try key.publicKey.encryptPKCS1v15([7], using: S.CounterRandom(seed: 4))
        #expect(try key.decryptPKCS1v15(c) == [7])
    }

    @Test("MGF1 known answer (SHA-1, seed \"foo\", 3 octets), RFC 8017 §B.2.1")
    func mgf1() {
        // Source: the example in the Wikipedia article "Mask generation function" (MGF1 section):
        // MGF1-SHA1("bar", 5) = bc 0c 65 5e 01, MGF1-SHA256("bar", 5) = 38 25 76 a7 84.
        #expect(RSAPSS.mgf1(seed: Array("foo".utf8), length: 3, hash: .sha1) == [0x1a, 0xc9, 0x07])
        #expect(RSAPSS.mgf1(seed: Array("bar".utf8), length: 5, hash: .sha1) == [0xbc, 0x0c, 0x65, 0x5e, 0x01])
        #expect(RSAPSS.mgf1(seed: Array("bar".utf8), length: 5, hash: .sha256) == [0x38, 0x25, 0x76, 0xa7, 0x84])
        #expect(RSAPSS.mgf1(seed: [1], length: 50, hash: .sha1).count == 50)
    }

    @Test("DigestInfo prefixes parse back to their algorithm", arguments: HashAlgorithm.allCases)
    func digestInfoPrefixes(hash: HashAlgorithm) throws {
        let digest = hash.digest([1, 2, 3])
        #expect(digest.count == hash.digestLength)
        let parsed = try DigestInfo(derEncoded: hash.digestInfo(digest: digest))
        #expect(parsed.hash == hash)
        #expect(parsed.digest == digest)
    }
}

extension RSATestSupport {
    /// The raw private primitive's output as k octets (for looking at encoded messages).
    static func rawPrivate(_ key: RSAPrivateKey, _ c: [UInt8]) throws -> [UInt8] {
        RSAPublicKey.i2osp(try key.privateOperation(BigInt(bigEndian: c)), length: key.publicKey.byteLength)
    }
}
