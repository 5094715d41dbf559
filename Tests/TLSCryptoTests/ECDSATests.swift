import BigNum
import Crypto
import Foundation
import Testing
import TestSupport
import TLSCrypto

@Suite("ECDSA over P-256, P-384 and P-521 (FIPS 186-5 §6.4)")
struct ECDSATests {
    /// RFC 6979 Appendix A.2.5 (P-256, SHA-256, message "sample"): with that k the signature is
    /// exactly (r, s). The vector's (r, s) also verifies under Python's `cryptography`.
    @Test func p256KnownAnswerWithTheRFC6979Nonce() throws {
        let key = try ECDSAPrivateKey(curve: .p256, scalar: Hex.bytes("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"))
        #expect(Hex.string(key.publicKey.x963) == "04"
                + "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
                + "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
        // random(in: 1, n − 1) draws k − 1.
        let k = BigInt(bigEndian: Hex.bytes("a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60"))
        let source = ScriptedRandom([try (k - .one).bigEndianBytes(width: 32)])
        let (r, s) = try key.signIntegers(message: Array("sample".utf8), hash: .sha256, using: source)
        #expect(r.hexString == "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716")
        #expect(s.hexString == "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8")
    }

    /// Cross-check with swift-crypto (BoringSSL): the same scalar gives the same public point, and
    /// our signatures verify there, for both curves and their hashes; a changed message does not.
    @Test(arguments: [(ECDSACurve.Name.p256, HashAlgorithm.sha256), (.p384, .sha384), (.p384, .sha256), (.p256, .sha384),
                      (.p521, .sha512), (.p521, .sha256), (.p256, .sha512)])
    func signaturesVerifyUnderSwiftCrypto(curve: ECDSACurve.Name, hash: HashAlgorithm) throws {
        let random = HMACDRBG(seed: 41)
        let key = try ECDSAPrivateKey.generate(curve: curve, using: random)
        let message = Array("ServerKeyExchange params".utf8)
        let signature = try key.sign(message: message, hash: hash, using: random)
        let scalar = try key.scalar.bigEndianBytes(width: ECDSACurve.named(curve).byteLength)
        switch curve {
        case .p256:
            let theirs = try P256.Signing.PrivateKey(rawRepresentation: scalar)
            #expect(Array(theirs.publicKey.x963Representation) == key.publicKey.x963)
        case .p384:
            let theirs = try P384.Signing.PrivateKey(rawRepresentation: scalar)
            #expect(Array(theirs.publicKey.x963Representation) == key.publicKey.x963)
        case .p521:
            let theirs = try P521.Signing.PrivateKey(rawRepresentation: scalar)
            #expect(Array(theirs.publicKey.x963Representation) == key.publicKey.x963)
            // r and s of up to 66 bytes: the SEQUENCE takes a long-form length (0x81 n).
            #expect(signature.count > 127 ? signature[1] == 0x81 : true)
        }
        #expect(key.publicKey.verify(signature: signature, message: message, hash: hash))
        #expect(!key.publicKey.verify(signature: signature, message: message + [0], hash: hash))
        // The same seed reproduces the same signature (the simulation's determinism).
        let again = HMACDRBG(seed: 41)
        let key2 = try ECDSAPrivateKey.generate(curve: curve, using: again)
        #expect(try key2.sign(message: message, hash: hash, using: again) == signature)
    }

    @Test func badScalarsAndKeysAreRefused() throws {
        #expect(throws: ECDSAError.self) { try ECDSAPrivateKey(curve: .p256, scalar: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: ECDSAError.self) { try ECDSAPrivateKey(curve: .p256, scalar: [UInt8](repeating: 0xff, count: 32)) }
        #expect(throws: ECDSAError.self) { try ECDSAPrivateKey(curve: .p384, scalar: [1]) }
        #expect(throws: ECDSAError.self) { try ECDSAPrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
        #expect(throws: ECDSAError.self) { try ECDSAPublicKey(curve: .p256, x963: [0x04] + [UInt8](repeating: 1, count: 64)) }
    }

    /// EC keys as `openssl` writes them: SEC 1 (`EC PRIVATE KEY`) and PKCS #8 (`PRIVATE KEY`), both curves;
    /// our public point equals the one openssl prints.
    @Test(CrossCheckRequirement.trait(ExternalTool.openssl != nil, missing: "openssl is not installed"),
          arguments: [("prime256v1", ECDSACurve.Name.p256), ("secp384r1", .p384), ("secp521r1", .p521)])
    func readsOpenSSLKeysInBothForms(opensslCurve: String, curve: ECDSACurve.Name) throws {
        let openssl = try #require(ExternalTool.openssl)
        func run(_ arguments: [String], input: String = "") throws -> String {
            let result = try ExternalTool.run(openssl, arguments, stdin: input)
            return result.stdout + result.stderr
        }
        let sec1 = try run(["ecparam", "-name", opensslCurve, "-genkey", "-noout"])
        #expect(sec1.contains("BEGIN EC PRIVATE KEY"))
        let pkcs8 = try run(["pkcs8", "-topk8", "-nocrypt"], input: sec1)
        #expect(pkcs8.contains("BEGIN PRIVATE KEY"))
        let a = try ECDSAPrivateKey(pem: sec1), b = try ECDSAPrivateKey(pem: pkcs8)
        #expect(a.curve.name == curve && b.curve.name == curve)
        #expect(a.publicKey == b.publicKey)
        let text = try run(["ec", "-text", "-noout"], input: sec1)
        let pubHex = text.components(separatedBy: "pub:").last?.components(separatedBy: "ASN1 OID").first?
            .filter { $0.isHexDigit } ?? ""
        #expect(pubHex == Hex.string(a.publicKey.x963))
        // And openssl verifies our signature with its key.
        let message = Array("signed by TLSLab".utf8)
        let signature = try a.sign(message: message, hash: curve == .p256 ? .sha256 : .sha384, using: HMACDRBG(seed: 5))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-ecdsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try sec1.write(to: dir.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        try Data(message).write(to: dir.appendingPathComponent("msg"))
        try Data(signature).write(to: dir.appendingPathComponent("sig"))
        let verified = try run(["dgst", curve == .p256 ? "-sha256" : "-sha384", "-prverify",
                                                  dir.appendingPathComponent("key.pem").path, "-signature",
                                                  dir.appendingPathComponent("sig").path, dir.appendingPathComponent("msg").path])
        #expect(verified.contains("Verified OK"), "\(verified)")
    }
}
