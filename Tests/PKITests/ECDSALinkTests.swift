import Crypto
import Foundation
import Testing
import TestSupport
@testable import PKI

/// An ECDSA chain link in the teaching trace: Hash1 = digest(TBSCertificate), then r and s, the
/// inputs of the verification equation (FIPS 186-5 §6.4.2), and no recovered Hash2.
@Suite struct ECDSALinkTests {
    static func validator() -> ChainValidator {
        ChainValidator(anchors: AnchorSelection(system: .system([PKIFixtures.cert("ec-root")])),
                       purpose: .sslServer(host: "www.example.com"), time: PKIFixtures.now)
    }

    /// Cross-check: r and s as the trace shows them, with Hash1, verify under swift-crypto's P-256
    /// (BoringSSL) with the issuer's key — so they are the signature's real integers and Hash1 is the
    /// digest the signature covers.
    @Test func theTraceShowsRAndSThatVerifyHash1WithTheIssuersKey() throws {
        let leaf = PKIFixtures.cert("ec-leaf"), intermediate = PKIFixtures.cert("ec-int")
        let result = Self.validator().validate([leaf, intermediate])
        #expect(result.isValid, "\(result.checks)")
        let link = try #require(result.checks.first { $0.kind == .signature && $0.depth == 0 }?.signature)
        #expect(link.hash2 == nil && link.recoveredBlock == nil)
        #expect(link.hash1 == Array(SHA256.hash(data: leaf.tbsDER)))
        let r = try #require(link.ecdsaR), s = try #require(link.ecdsaS)
        #expect(r.count <= 32 && s.count <= 32 && r.first != 0 && s.first != 0)
        func padded(_ bytes: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 32 - bytes.count) + bytes }
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: padded(r) + padded(s))
        let key = try P256.Signing.PublicKey(derRepresentation: intermediate.publicKey.der)
        #expect(key.isValidSignature(signature, for: SHA256.hash(data: leaf.tbsDER)))
        // A different Hash1 does not verify with the same (r, s): the equation binds the digest.
        var other = leaf.tbsDER
        other[other.count - 1] ^= 1
        #expect(!key.isValidSignature(signature, for: SHA256.hash(data: other)))
    }

    /// The same r and s as OpenSSL reads from the certificate (`openssl asn1parse` of the signature).
    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed"))
    func rAndSAgreeWithOpenSSL() throws {
        let leaf = PKIFixtures.cert("ec-leaf")
        let rs = try #require(SignatureCheck.ecdsaIntegers(leaf.signatureValue))
        let run = try #require(ExternalTool.run("openssl", ["asn1parse", "-inform", "DER"], input: Data(leaf.signatureValue)))
        #expect(run.status == 0, "\(run.err)")
        let integers = String(decoding: run.out, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
            guard line.contains("INTEGER"), let colon = line.lastIndex(of: ":") else { return nil }
            return String(line[line.index(after: colon)...]).lowercased()
        }
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(integers == [hex(rs.r), hex(rs.s)])
    }
}
