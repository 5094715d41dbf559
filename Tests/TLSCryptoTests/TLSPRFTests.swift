import Foundation
import Testing
import TestSupport
import TLSCrypto
import Crypto

@Suite("TLS PRF (RFC 5246 §5, RFC 2246 §5)")
struct TLSPRFTests {
    /// `prf_sha256_kat` from Tests/Fixtures/tls12-vectors.json.
    @Test func sha256KnownAnswer() throws {
        let kat = try Vectors.object(try Vectors.load(), "prf_sha256_kat")
        let length = try #require(kat["length"] as? Int, "prf_sha256_kat has no integer length")
        let expected = try Vectors.hex(kat, "output")
        #expect(expected.count == length, "the vector's output is not `length` bytes long")
        let output = TLSPRF.sha256.derive(secret: try Vectors.hex(kat, "secret"),
                                          label: try Vectors.text(kat, "label"),
                                          seed: try Vectors.hex(kat, "seed"), count: length)
        #expect(output == expected)
    }

    @Test func outputIsAPrefixOfLongerOutput() {
        for prf in TLSPRF.allCases {
            let long = prf.derive(secret: [1, 2, 3], label: "x", seed: [4], count: 97)
            #expect(long.count == 97)
            #expect(Array(long.prefix(13)) == prf.derive(secret: [1, 2, 3], label: "x", seed: [4], count: 13))
            #expect(prf.derive(secret: [1], label: "x", seed: [], count: 0).isEmpty)
        }
    }

    @Test func theThreePRFsDiffer() {
        let outputs = TLSPRF.allCases.map { $0.derive(secret: [9, 9], label: "l", seed: [1], count: 32) }
        #expect(Set(outputs).count == 3)
    }

    /// The TLS 1.0 PRF splits the secret into halves that share the middle byte when the length
    /// is odd (RFC 2246 §5): changing only the middle byte of a 5-byte secret changes both halves,
    /// so it must change the output differently from a P_MD5-only or P_SHA1-only change.
    @Test func tls10SplitsTheSecret() {
        let base: [UInt8] = [1, 2, 3, 4, 5]
        let seed = Array("seed".utf8)
        let md5Only = TLSPRF.pHash(Insecure.MD5.self, secret: [1, 2, 3], seed: seed, count: 20)
        let sha1Only = TLSPRF.pHash(Insecure.SHA1.self, secret: [3, 4, 5], seed: seed, count: 20)
        let expected = zip(md5Only, sha1Only).map { $0 ^ $1 }
        #expect(TLSPRF.tls10.derive(secret: base, labelAndSeed: seed, count: 20) == expected)
    }

    // MARK: OpenSSL cross-check

    /// `openssl kdf -keylen N -kdfopt digest:D -kdfopt hexsecret:S -kdfopt hexseed:LS TLS1-PRF`,
    /// where the seed is label ‖ seed (OpenSSL's TLS1-PRF takes them joined).
    static func openSSLPRF(digest: String, secret: [UInt8], labelAndSeed: [UInt8], count: Int) throws -> [UInt8] {
        guard let openssl = ExternalTool.openssl else { throw FixtureError(description: "openssl missing") }
        let result = try ExternalTool.run(openssl, [
            "kdf", "-keylen", String(count),
            "-kdfopt", "digest:\(digest)",
            "-kdfopt", "hexsecret:\(Hex.string(secret))",
            "-kdfopt", "hexseed:\(Hex.string(labelAndSeed))",
            "TLS1-PRF",
        ])
        guard result.status == 0 else { throw FixtureError(description: "openssl kdf failed: \(result.stderr)") }
        return Hex.bytes(result.stdout)
    }

    @Test(CrossCheckRequirement.trait(ExternalTool.openssl != nil, missing: "openssl is not on the PATH (PRF cross-check)"),
          arguments: [(TLSPRF.sha256, "SHA256"), (TLSPRF.sha384, "SHA384"), (TLSPRF.tls10, "MD5-SHA1")])
    func matchesOpenSSL(prf: TLSPRF, digest: String) throws {
        let random = HMACDRBG(seed: Array("prf cross-check \(digest)".utf8))
        // Secret lengths include odd ones (TLS 1.0 shares the middle byte) and a 48-byte master secret.
        for (secretLength, count) in [(48, 104), (47, 12), (1, 33), (129, 200)] {
            let secret = random.bytes(count: secretLength)
            let labelAndSeed = Array("key expansion".utf8) + random.bytes(count: 64)
            let ours = prf.derive(secret: secret, labelAndSeed: labelAndSeed, count: count)
            let theirs = try Self.openSSLPRF(digest: digest, secret: secret, labelAndSeed: labelAndSeed, count: count)
            #expect(ours == theirs, "PRF \(prf) secret length \(secretLength)")
        }
    }
}

@Suite("Fixture vectors")
struct FixtureVectorsTests {
    /// Tests/Fixtures/tls12-vectors.json is a copy of the shared vectors file: byte for byte the same
    /// whenever the shared file is present beside the package (skipped, with this reason, when it is not).
    @Test(.enabled(if: SharedVectors.exists, "../shared/vectors/tls12-vectors.json not present beside the package root"))
    func fixtureEqualsTheSharedVectors() throws {
        let fixture = try Data(contentsOf: Vectors.url)
        let shared = try Data(contentsOf: SharedVectors.url)
        #expect(fixture == shared, "Tests/Fixtures/tls12-vectors.json differs from ../shared/vectors/tls12-vectors.json: copy it again")
    }
}
