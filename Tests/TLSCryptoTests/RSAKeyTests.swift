import Foundation
import Testing
import BigNum
@testable import TLSCrypto

@Suite("RSA keys: generation and DER/PEM formats")
struct RSAKeyTests {
    @Test("key generation is deterministic for a seed, e = 65537, n has exactly the requested bits")
    func generationDeterministic() throws {
        let a = try RSAPrivateKey.generate(bits: 512, using: RSATestRandom(seed: 77))
        let b = try RSAPrivateKey.generate(bits: 512, using: RSATestRandom(seed: 77))
        let c = try RSAPrivateKey.generate(bits: 512, using: RSATestRandom(seed: 78))
        #expect(a.publicKey == b.publicKey)
        #expect(a.pkcs1DER == b.pkcs1DER)
        #expect(a.publicKey != c.publicKey)
        #expect(a.publicKey.bitLength == 512)
        #expect(a.publicKey.publicExponent == BigInt(65537))
        #expect(a.prime1 != a.prime2)
        #expect(a.prime1.bitWidth == 256 && a.prime2.bitWidth == 256)
        #expect(a.prime1.isProbablePrime() && a.prime2.isProbablePrime())
        let key1024 = try #require(RSAFixtures.key1024)
        #expect(key1024.publicKey.bitLength == 1024)
    }

    @Test("unsupported key sizes are typed errors", arguments: [0, 256, 511, 513, 4098, 8192])
    func unsupportedSizes(bits: Int) {
        #expect(throws: RSAError.unsupportedKeySize(bits)) {
            try RSAPrivateKey.generate(bits: bits, using: RSATestRandom(seed: 1))
        }
    }

    @Test("both OpenSSL fixture keys load, and their numbers are consistent")
    func fixturesLoad() throws {
        for key in [try RSAFixtures.pkcs8Key(), try RSAFixtures.pkcs1Key()] {
            #expect(key.publicKey.bitLength == 2048)
            #expect(key.publicKey.publicExponent == BigInt(65537))
            #expect(key.prime1 * key.prime2 == key.publicKey.modulus)
        }
    }

    @Test("DER and PEM round trips: PKCS#1, PKCS#8, SubjectPublicKeyInfo, RSAPublicKey")
    func roundTrips() throws {
        let key = try RSAFixtures.pkcs8Key()
        let pem = try RSAFixtures.text("rsa2048-pkcs8.pem")
        #expect(key.pem.trimmingCharacters(in: .whitespacesAndNewlines)
                == pem.trimmingCharacters(in: .whitespacesAndNewlines))   // byte-exact re-export
        #expect(try RSAPrivateKey(pkcs8DER: key.pkcs8DER).pkcs1DER == key.pkcs1DER)
        #expect(try RSAPrivateKey(pkcs1DER: key.pkcs1DER).pkcs8DER == key.pkcs8DER)
        #expect(try RSAPrivateKey(pem: key.pkcs1PEM).pkcs1DER == key.pkcs1DER)
        let pub = key.publicKey
        #expect(try RSAPublicKey(subjectPublicKeyInfoDER: pub.subjectPublicKeyInfoDER) == pub)
        #expect(try RSAPublicKey(pkcs1DER: pub.pkcs1DER) == pub)
        #expect(try RSAPublicKey(pem: pub.pem) == pub)
        let pkcs1Key = try RSAFixtures.pkcs1Key()
        let pkcs1PEM = try RSAFixtures.text("rsa2048-pkcs1.pem")
        #expect(pkcs1Key.pkcs1PEM.trimmingCharacters(in: .whitespacesAndNewlines)
                == pkcs1PEM.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("malformed DER and PEM are typed errors, never traps")
    func malformed() throws {
        let key = try RSAFixtures.pkcs8Key()
        let der = key.pkcs1DER
        var cases: [[UInt8]] = [[], [0x30], [0x30, 0x00], [0x02, 0x01, 0x00], Array(der.prefix(100)),
                                der + [0x00], Array(repeating: 0xFF, count: 40)]
        var flipped = der
        flipped[10] ^= 0x01   // changes n: the numbers no longer fit together
        cases.append(flipped)
        for bytes in cases {
            #expect(throws: RSAError.self) { try RSAPrivateKey(pkcs1DER: bytes) }
            #expect(throws: RSAError.self) { try RSAPrivateKey(pkcs8DER: bytes) }
            #expect(throws: RSAError.self) { try RSAPublicKey(subjectPublicKeyInfoDER: bytes) }
        }
        // Every truncation of each format.
        let formats: [([UInt8], ([UInt8]) throws -> Void)] = [
            (key.pkcs8DER, { _ = try RSAPrivateKey(pkcs8DER: $0) }),
            (key.publicKey.subjectPublicKeyInfoDER, { _ = try RSAPublicKey(subjectPublicKeyInfoDER: $0) }),
            (key.publicKey.pkcs1DER, { _ = try RSAPublicKey(pkcs1DER: $0) }),
        ]
        for (bytes, parse) in formats {
            for length in stride(from: 0, to: bytes.count, by: 7) {
                #expect(throws: RSAError.self) { try parse(Array(bytes.prefix(length))) }
            }
        }
        // A public key where a private key is expected, and the other way round.
        #expect(throws: RSAError.self) { try RSAPrivateKey(pem: key.publicKey.pem) }
        #expect(throws: RSAError.self) { try RSAPublicKey(pem: key.pem) }
        #expect(throws: RSAError.self) { try RSAPublicKey(pem: "not a pem") }
        // Numbers that do not belong together.
        #expect(throws: RSAError.self) {
            try RSAPrivateKey(modulus: key.publicKey.modulus, publicExponent: key.publicKey.publicExponent,
                              privateExponent: key.privateExponent, prime1: key.prime1, prime2: key.prime2,
                              exponent1: key.exponent1 + .one, exponent2: key.exponent2,
                              coefficient: key.coefficient)
        }
        #expect(throws: RSAError.self) { try RSAPublicKey(modulus: BigInt(15), publicExponent: BigInt(3)) }
        #expect(throws: RSAError.self) {
            try RSAPublicKey(modulus: key.publicKey.modulus, publicExponent: BigInt(65536))
        }
    }

    @Test("keys made by openssl genpkey / genrsa -traditional load; what we export loads in openssl",
          rsaNeedsOpenSSL)
    func opensslInterop() throws {
        try withRSAOpenSSL { openssl, dir in
            // Fresh 1024-bit keys from openssl in both formats.
            let pkcs8 = dir.appendingPathComponent("k8.pem"), pkcs1 = dir.appendingPathComponent("k1.pem")
            #expect(try RSAExternalTool.run(openssl, ["genpkey", "-algorithm", "RSA", "-pkeyopt",
                                                   "rsa_keygen_bits:1024", "-out", pkcs8.path]).status == 0)
            #expect(try RSAExternalTool.run(openssl, ["genrsa", "-traditional", "-out", pkcs1.path, "1024"]).status == 0)
            let k8 = try RSAPrivateKey(pem: String(decoding: try rsaRead(pkcs8), as: UTF8.self))
            let k1 = try RSAPrivateKey(pem: String(decoding: try rsaRead(pkcs1), as: UTF8.self))
            #expect(k8.publicKey.bitLength == 1024 && k1.publicKey.bitLength == 1024)

            // Our exports, read back by openssl: the modulus must match.
            let ours = try #require(RSAFixtures.key1024)
            let expectedModulus = "Modulus=" + ours.publicKey.modulus.hexString.uppercased()
            let exports: [(String, String, [String])] = [
                ("ours8.pem", ours.pem, ["rsa", "-noout", "-modulus", "-in"]),
                ("ours1.pem", ours.pkcs1PEM, ["rsa", "-noout", "-modulus", "-in"]),
                ("pub.pem", ours.publicKey.pem, ["rsa", "-pubin", "-noout", "-modulus", "-in"]),
            ]
            for (name, text, arguments) in exports {
                let file = dir.appendingPathComponent(name)
                try rsaWrite(text, to: file)
                let result = try RSAExternalTool.run(openssl, arguments + [file.path])
                #expect(result.status == 0, "openssl rejected \(name): \(result.error)")
                let printed = String(decoding: result.output, as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(printed == expectedModulus, "\(name)")
            }
            // openssl pkey -check validates the private numbers.
            let check = try RSAExternalTool.run(openssl, ["pkey", "-check", "-noout", "-in",
                                                       dir.appendingPathComponent("ours8.pem").path])
            #expect(check.status == 0, "openssl pkey -check: \(check.error)")
            // DER from us equals DER from openssl for the same key.
            let derOut = dir.appendingPathComponent("k8.der")
            _ = try RSAExternalTool.run(openssl, ["pkey", "-in", pkcs8.path, "-outform", "DER", "-out", derOut.path])
            // (OpenSSL 3.0 writes RSA keys as PKCS#1 with `-outform DER`; other versions PKCS#8.)
            let opensslDER = try rsaRead(derOut)
            #expect(opensslDER == k8.pkcs1DER || opensslDER == k8.pkcs8DER)
            #expect(try RSAPrivateKey(pkcs1DER: k8.pkcs1DER).pkcs8DER == k8.pkcs8DER)
            let pubOut = dir.appendingPathComponent("k8pub.der")
            _ = try RSAExternalTool.run(openssl, ["pkey", "-in", pkcs8.path, "-pubout", "-outform", "DER",
                                               "-out", pubOut.path])
            #expect(try rsaRead(pubOut) == k8.publicKey.subjectPublicKeyInfoDER)
            let rsaPubOut = dir.appendingPathComponent("k8rsapub.pem")
            _ = try RSAExternalTool.run(openssl, ["rsa", "-in", pkcs8.path, "-RSAPublicKey_out", "-out", rsaPubOut.path])
            #expect(try RSAPublicKey(pem: String(decoding: try rsaRead(rsaPubOut), as: UTF8.self)) == k8.publicKey)
        }
    }
}
