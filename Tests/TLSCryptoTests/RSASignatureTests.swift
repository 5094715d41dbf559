import Foundation
import Testing
import BigNum
import Crypto
import _CryptoExtras
@testable import TLSCrypto

@Suite("RSA signatures: PKCS#1 v1.5 and PSS (RFC 8017 §8)")
struct RSASignatureTests {
    static let hashes: [HashAlgorithm] = [.sha1, .sha256, .sha384, .sha512]

    @Test("PKCS#1 v1.5 sign and verify; a changed message, hash or signature fails", arguments: hashes)
    func pkcs1RoundTrip(hash: HashAlgorithm) throws {
        let key = try RSAFixtures.pkcs8Key()
        let message = Array("the server's ServerKeyExchange params".utf8)
        let signature = try key.signPKCS1v15(message: message, hash: hash)
        #expect(signature.count == 256)
        #expect(key.publicKey.verifyPKCS1v15(signature: signature, message: message, hash: hash))
        #expect(!key.publicKey.verifyPKCS1v15(signature: signature, message: message + [0], hash: hash))
        let other: HashAlgorithm = hash == .sha256 ? .sha384 : .sha256
        #expect(!key.publicKey.verifyPKCS1v15(signature: signature, message: message, hash: other))
        var tampered = signature; tampered[100] ^= 0x40
        #expect(!key.publicKey.verifyPKCS1v15(signature: tampered, message: message, hash: hash))
        #expect(!key.publicKey.verifyPKCS1v15(signature: Array(signature.dropLast()), message: message, hash: hash))
        // Deterministic: PKCS#1 v1.5 signatures have no randomness.
        #expect(try key.signPKCS1v15(message: message, hash: hash) == signature)
    }

    @Test("recover shows the signature block: 00 01 FF…FF 00 DigestInfo, hash and digest", arguments: hashes)
    func recover(hash: HashAlgorithm) throws {
        let key = try RSAFixtures.pkcs1Key()
        let message = Array("teach me".utf8)
        let block = try key.publicKey.recoverPKCS1v15(signature: try key.signPKCS1v15(message: message, hash: hash))
        #expect(block.hash == hash)
        #expect(block.digest == hash.digest(message))
        #expect(block.digestInfo == hash.digestInfoPrefix + hash.digest(message))
        #expect(block.encodedMessage.count == 256)
        #expect(Array(block.encodedMessage.prefix(3)) == [0x00, 0x01, 0xFF])
    }

    @Test("recover rejects blocks that are not signature blocks")
    func recoverRejects() throws {
        let key = try RSAFixtures.pkcs1Key()
        // An encryption block (00 02 …) signed raw.
        let em = try PKCS1Encoding.encodeEncryptionBlock([1, 2, 3], modulusLength: 256, using: RSATestRandom(seed: 4))
        let s = try key.privateOperation(BigInt(bigEndian: em)).bigEndianBytes(width: 256)
        #expect(throws: RSAError.invalidSignatureBlock(.notBlockType1)) { try key.publicKey.recoverPKCS1v15(signature: s) }
        // 00 01 FF… 00 followed by garbage instead of a DigestInfo.
        let garbage = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 200) + [0x00] + [UInt8](repeating: 0x41, count: 53)
        let s2 = try key.privateOperation(BigInt(bigEndian: garbage)).bigEndianBytes(width: 256)
        #expect(throws: RSAError.invalidSignatureBlock(.malformedDigestInfo)) { try key.publicKey.recoverPKCS1v15(signature: s2) }
        // 00 01, seven FF bytes, 00: the padding is one byte short of RFC 8017 §9.2's eight.
        let short = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 7) + [0x00] + [UInt8](repeating: 0x41, count: 246)
        let s3 = try key.privateOperation(BigInt(bigEndian: short)).bigEndianBytes(width: 256)
        #expect(throws: RSAError.invalidSignatureBlock(.shortPadding(count: 7))) { try key.publicKey.recoverPKCS1v15(signature: s3) }
        // 00 01 FF… with no 00 after the padding.
        let unended = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 254)
        let s4 = try key.privateOperation(BigInt(bigEndian: unended)).bigEndianBytes(width: 256)
        #expect(throws: RSAError.invalidSignatureBlock(.noZeroSeparator)) { try key.publicKey.recoverPKCS1v15(signature: s4) }
        #expect(throws: RSAError.wrongLength(expected: 256, actual: 3)) {
            try key.publicKey.recoverPKCS1v15(signature: [1, 2, 3])
        }
    }

    @Test("a signature not below the modulus is rejected, not reduced")
    func signatureOutOfRange() throws {
        let key = try RSAFixtures.pkcs8Key()
        let message: [UInt8] = [1]
        let s = BigInt(bigEndian: try key.signPKCS1v15(message: message, hash: .sha256))
        let n = key.publicKey.modulus
        var outOfRange = [try n.bigEndianBytes(width: 256), [UInt8](repeating: 0xFF, count: 256)]
        if let plusN = try? (s + n).bigEndianBytes(width: 256) { outOfRange.append(plusN) }   // when it fits
        for signature in outOfRange {
            #expect(!key.publicKey.verifyPKCS1v15(signature: signature, message: message, hash: .sha256))
            #expect(!key.publicKey.verifyPSS(signature: signature, message: message, hash: .sha256, saltLength: 32))
            #expect(throws: RSAError.representativeOutOfRange) {
                try key.publicKey.recoverPKCS1v15(signature: signature)
            }
        }
        let pss = BigInt(bigEndian: try key.signPSS(message: message, hash: .sha256, saltLength: 32,
                                                     using: RSATestRandom(seed: 1)))
        if let pssPlusN = try? (pss + n).bigEndianBytes(width: 256) {
            #expect(!key.publicKey.verifyPSS(signature: pssPlusN, message: message, hash: .sha256, saltLength: 32))
        }
    }

    @Test("PSS sign and verify, fixed and recovered salt lengths",
          arguments: [(HashAlgorithm.sha256, 32), (.sha256, 0), (.sha384, 48), (.sha512, 64), (.sha1, 20)])
    func pssRoundTrip(hash: HashAlgorithm, saltLength: Int) throws {
        let key = try RSAFixtures.pkcs8Key()
        let message = Array("ServerKeyExchange".utf8)
        let a = try key.signPSS(message: message, hash: hash, saltLength: saltLength, using: RSATestRandom(seed: 1))
        let b = try key.signPSS(message: message, hash: hash, saltLength: saltLength, using: RSATestRandom(seed: 2))
        #expect(saltLength == 0 ? a == b : a != b)
        for signature in [a, b] {
            #expect(key.publicKey.verifyPSS(signature: signature, message: message, hash: hash, saltLength: saltLength))
            #expect(key.publicKey.verifyPSS(signature: signature, message: message, hash: hash, saltLength: nil))
            #expect(!key.publicKey.verifyPSS(signature: signature, message: message, hash: hash,
                                             saltLength: saltLength + 1))
            #expect(!key.publicKey.verifyPSS(signature: signature, message: [], hash: hash, saltLength: saltLength))
        }
        // A second, generated key.
        let small = try #require(RSAFixtures.key1024)
        let s = try small.signPSS(message: message, hash: .sha256, saltLength: 32, using: RSATestRandom(seed: 3))
        #expect(small.publicKey.verifyPSS(signature: s, message: message, hash: .sha256, saltLength: 32))
        // The salt does not fit a 512-bit key with SHA-512 and a 64-byte salt: typed error.
        let tiny = try #require(RSAFixtures.key512)
        #expect(throws: RSAError.self) {
            try tiny.signPSS(message: message, hash: .sha512, saltLength: 64, using: RSATestRandom(seed: 1))
        }
    }

    @Test("swift-crypto's _RSA verifies our signatures and we verify its signatures")
    func swiftCryptoOracle() throws {
        let key = try RSAFixtures.pkcs8Key()
        let theirs = try _RSA.Signing.PrivateKey(pemRepresentation: key.pem)
        let theirPublic = try _RSA.Signing.PublicKey(pemRepresentation: key.publicKey.pem)
        #expect(Array(theirPublic.derRepresentation) == key.publicKey.subjectPublicKeyInfoDER)
        let message = Array("oracle".utf8)
        // PKCS#1 v1.5 with SHA-256 (deterministic: the bytes must be identical).
        let ours = try key.signPKCS1v15(message: message, hash: .sha256)
        let their = try theirs.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5)
        #expect(Array(their.rawRepresentation) == ours)
        #expect(theirPublic.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: ours),
                                             for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5))
        // PSS (swift-crypto uses a salt as long as the digest).
        let ourPSS = try key.signPSS(message: message, hash: .sha256, saltLength: 32, using: RSATestRandom(seed: 8))
        #expect(theirPublic.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: ourPSS),
                                             for: SHA256.hash(data: message), padding: .PSS))
        let theirPSS = try theirs.signature(for: SHA256.hash(data: message), padding: .PSS)
        #expect(key.publicKey.verifyPSS(signature: Array(theirPSS.rawRepresentation), message: message,
                                        hash: .sha256, saltLength: 32))
    }

    @Test("openssl verifies our PKCS#1 v1.5 and PSS signatures, and we verify openssl's", rsaNeedsOpenSSL)
    func opensslCrossCheck() throws {
        try withRSAOpenSSL { openssl, dir in
            let key = try RSAFixtures.pkcs1Key()
            let keyFile = dir.appendingPathComponent("key.pem"), pubFile = dir.appendingPathComponent("pub.pem")
            try rsaWrite(key.pkcs1PEM, to: keyFile)
            try rsaWrite(key.publicKey.pem, to: pubFile)
            let message = Array("signed by TLSLab, checked by OpenSSL".utf8)
            let msgFile = dir.appendingPathComponent("msg.bin"), sigFile = dir.appendingPathComponent("sig.bin")
            try rsaWrite(message, to: msgFile)
            let cases: [(HashAlgorithm, String, Int?)] = [
                (.sha1, "sha1", nil), (.sha256, "sha256", nil), (.sha384, "sha384", nil), (.sha512, "sha512", nil),
                (.sha256, "sha256", 32), (.sha384, "sha384", 48), (.sha256, "sha256", 0),
            ]
            for (hash, name, salt) in cases {
                let pssOptions = salt.map { ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:\($0)",
                                             "-sigopt", "rsa_mgf1_md:\(name)"] } ?? []
                // ours → openssl dgst -verify
                let ours = try salt.map { try key.signPSS(message: message, hash: hash, saltLength: $0,
                                                          using: RSATestRandom(seed: 30)) }
                    ?? key.signPKCS1v15(message: message, hash: hash)
                try rsaWrite(ours, to: sigFile)
                let verify = try RSAExternalTool.run(openssl, ["dgst", "-\(name)", "-verify", pubFile.path]
                                                  + pssOptions + ["-signature", sigFile.path, msgFile.path])
                #expect(verify.status == 0, "openssl rejected our \(name) salt \(String(describing: salt)): \(verify.error)")
                // openssl dgst -sign → ours
                let sign = try RSAExternalTool.run(openssl, ["dgst", "-\(name)", "-sign", keyFile.path]
                                                + pssOptions + ["-out", sigFile.path, msgFile.path])
                #expect(sign.status == 0, "openssl dgst -sign: \(sign.error)")
                let theirs = try rsaRead(sigFile)
                if let salt {
                    #expect(key.publicKey.verifyPSS(signature: theirs, message: message, hash: hash, saltLength: salt))
                    #expect(key.publicKey.verifyPSS(signature: theirs, message: message, hash: hash, saltLength: nil))
                } else {
                    #expect(theirs == ours)   // PKCS#1 v1.5 is deterministic: byte-identical
                    #expect(key.publicKey.verifyPKCS1v15(signature: theirs, message: message, hash: hash))
                }
            }
            // pkeyutl over a digest, as the brief names it.
            let digestFile = dir.appendingPathComponent("digest.bin")
            try rsaWrite(HashAlgorithm.sha256.digest(message), to: digestFile)
            try rsaWrite(try key.signPSS(message: message, hash: .sha256, saltLength: 32, using: RSATestRandom(seed: 31)),
                      to: sigFile)
            let pkeyutl = try RSAExternalTool.run(openssl, [
                "pkeyutl", "-verify", "-pubin", "-inkey", pubFile.path, "-in", digestFile.path, "-sigfile", sigFile.path,
                "-pkeyopt", "digest:sha256", "-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:32"])
            #expect(pkeyutl.status == 0, "openssl pkeyutl -verify: \(pkeyutl.error)")
        }
    }
}
