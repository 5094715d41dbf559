import Foundation
import Testing
import BigNum
@testable import TLSCrypto

@Suite("RSA robustness: random input never traps; odd modulus sizes; heavy sweeps")
struct RSARobustnessTests {
    @Test("random ciphertexts, signatures and DER give typed errors or false, never a trap")
    func randomInput() throws {
        let key = try #require(RSAFixtures.key512)
        let k = key.publicKey.byteLength
        let source = RSATestRandom(seed: 99)
        var decryptionErrors = 0
        for round in 0..<300 {
            let length = round % 3 == 0 ? Int(try source.uniform(below: UInt64(2 * k))) : k
            let bytes = source.bytes(count: length)
            do {
                _ = try key.decryptPKCS1v15(bytes)
            } catch .decryptionError {
                decryptionErrors += 1
            } catch .wrongLength, .representativeOutOfRange {
            } catch {
                Issue.record("unexpected error \(error)")
            }
            #expect(!key.publicKey.verifyPKCS1v15(signature: bytes, message: [1], hash: .sha256))
            #expect(!key.publicKey.verifyPSS(signature: bytes, message: [1], hash: .sha256, saltLength: nil))
            #expect(throws: RSAError.self) { try key.publicKey.recoverPKCS1v15(signature: bytes) }
            #expect(throws: RSAError.self) { try RSAPrivateKey(pkcs8DER: bytes) }
            #expect(throws: RSAError.self) { try RSAPublicKey(subjectPublicKeyInfoDER: bytes) }
        }
        #expect(decryptionErrors > 100)
        // Mutations of a valid DER key: every one is either the same key or a typed error.
        let der = key.pkcs8DER
        for _ in 0..<300 {
            var mutated = der
            let index = Int(try source.uniform(below: UInt64(der.count)))
            mutated[index] ^= UInt8(1 << Int(try source.uniform(below: 8)))
            if let parsed = try? RSAPrivateKey(pkcs8DER: mutated) {
                #expect(parsed.publicKey.modulus == parsed.prime1 * parsed.prime2)
            }
        }
    }

    @Test("PSS and PKCS#1 v1.5 on a 1025-bit OpenSSL key (emLen = k − 1 in PSS)", rsaNeedsOpenSSL)
    func oddModulusLength() throws {
        try withRSAOpenSSL { openssl, dir in
            let keyFile = dir.appendingPathComponent("k.pem"), msgFile = dir.appendingPathComponent("m.bin")
            let sigFile = dir.appendingPathComponent("s.bin"), pubFile = dir.appendingPathComponent("p.pem")
            let gen = try RSAExternalTool.run(openssl, ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1025",
                                                     "-out", keyFile.path])
            #expect(gen.status == 0, "\(gen.error)")
            let key = try RSAPrivateKey(pem: String(decoding: try rsaRead(keyFile), as: UTF8.self))
            #expect(key.publicKey.bitLength == 1025)
            #expect(key.publicKey.byteLength == 129)
            try rsaWrite(key.publicKey.pem, to: pubFile)
            let message = Array("odd".utf8)
            try rsaWrite(message, to: msgFile)
            let pss = ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32"]
            // openssl → ours
            #expect(try RSAExternalTool.run(openssl, ["dgst", "-sha256", "-sign", keyFile.path] + pss
                                         + ["-out", sigFile.path, msgFile.path]).status == 0)
            #expect(key.publicKey.verifyPSS(signature: try rsaRead(sigFile), message: message, hash: .sha256, saltLength: 32))
            // ours → openssl
            let ours = try key.signPSS(message: message, hash: .sha256, saltLength: 32, using: RSATestRandom(seed: 5))
            #expect(ours.count == 129)
            try rsaWrite(ours, to: sigFile)
            let verify = try RSAExternalTool.run(openssl, ["dgst", "-sha256", "-verify", pubFile.path] + pss
                                              + ["-signature", sigFile.path, msgFile.path])
            #expect(verify.status == 0, "\(verify.error)")
            #expect(key.publicKey.verifyPSS(signature: ours, message: message, hash: .sha256, saltLength: nil))
            let v15 = try key.signPKCS1v15(message: message, hash: .sha256)
            #expect(key.publicKey.verifyPKCS1v15(signature: v15, message: message, hash: .sha256))
        }
    }

    @Test("heavy: key generation at every supported size, round trips and cross-checks",
          .enabled(if: ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1", "set TLSLAB_HEAVY=1"),
          arguments: [512, 768, 1024, 1536, 2048, 3072, 4096])
    func heavySizes(bits: Int) throws {
        for seed in 0..<3 {
            let key = try RSAPrivateKey.generate(bits: bits, using: RSATestRandom(seed: bits * 10 + seed))
            #expect(key.publicKey.bitLength == bits)
            #expect(try RSAPrivateKey(pkcs8DER: key.pkcs8DER).pkcs1DER == key.pkcs1DER)
            let source = RSATestRandom(seed: seed)
            let message = source.bytes(count: min(32, key.publicKey.byteLength - 11))
            #expect(try key.decryptPKCS1v15(try key.publicKey.encryptPKCS1v15(message, using: source)) == message)
            let signature = try key.signPKCS1v15(message: message, hash: .sha256)
            #expect(key.publicKey.verifyPKCS1v15(signature: signature, message: message, hash: .sha256))
            if bits >= 1024 {
                let pss = try key.signPSS(message: message, hash: .sha256, saltLength: 32, using: source)
                #expect(key.publicKey.verifyPSS(signature: pss, message: message, hash: .sha256, saltLength: 32))
            }
            for _ in 0..<20 {
                let c = try BigInt.random(below: key.publicKey.modulus, using: source)
                #expect(try key.privateOperation(c) == c.power(key.privateExponent, modulus: key.publicKey.modulus))
            }
        }
    }
}
