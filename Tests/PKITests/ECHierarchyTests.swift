import Foundation
import Testing
import TLSCrypto
import TestSupport
@testable import PKI

/// Hierarchies with EC keys (`PKIHierarchySpec.keyKinds`): ECDSA-signed certificates (RFC 5758 §3.2)
/// that TLSLab's own validator and OpenSSL both accept, reproducible from the seed.
@Suite struct ECHierarchyTests {
    static let mixed = PKIKeyKinds(root: .rsa, intermediate: .p384, leaf: .p256, clientRoot: .p256, client: .p384)

    static func hierarchy(_ kinds: PKIKeyKinds, seed: UInt64 = 31, defect: PKIDefect = .none) throws -> PKIHierarchy {
        var spec = PKIHierarchySpec(seed: seed, defect: defect)
        spec.keyKinds = kinds
        return try PKIHierarchy(spec)
    }

    @Test func eachCertificateHasTheKindItWasGiven() throws {
        let h = try Self.hierarchy(Self.mixed)
        func kind(_ c: X509Certificate) -> String? { VerificationKey(subjectPublicKeyInfoDER: c.publicKey.der)?.description }
        #expect(kind(h.root) == "RSA-2048")
        #expect(kind(h.intermediate) == "EC P-384")
        #expect(kind(h.leaf) == "EC P-256")
        #expect(kind(h.clientRoot) == "EC P-256")
        #expect(kind(h.client.leaf) == "EC P-384")
        // Who signs decides the algorithm: RSA root → sha256WithRSAEncryption; P-384 intermediate →
        // ecdsa-with-SHA384 (RFC 5480 §4 pairs P-384 with SHA-384); P-256 client CA → ecdsa-with-SHA256.
        #expect(h.intermediate.signatureAlgorithm == .rsaPKCS1v15(.sha256))
        #expect(h.leaf.signatureAlgorithm == .ecdsa(.sha384))
        #expect(h.client.leaf.signatureAlgorithm == .ecdsa(.sha256))
        #expect(h.clientRoot.signatureAlgorithm == .ecdsa(.sha256))
        // The private keys match the certificates.
        #expect(h.serverKey.publicKey == VerificationKey(subjectPublicKeyInfoDER: h.leaf.publicKey.der))
        #expect(h.client.privateKey.publicKey == VerificationKey(subjectPublicKeyInfoDER: h.client.leaf.publicKey.der))
        // RFC 5480 §3: no keyEncipherment on an EC end-entity key.
        #expect(h.leaf.extensions.keyUsage?.keyEncipherment == false)
        #expect(h.leaf.extensions.keyUsage?.digitalSignature == true)
    }

    @Test func theChainValidates() throws {
        for kinds in [Self.mixed, PKIKeyKinds(root: .p384, intermediate: .p256, leaf: .p384), PKIKeyKinds(root: .p256, intermediate: .rsa, leaf: .p256)] {
            let h = try Self.hierarchy(kinds)
            let result = h.validateServerChain()
            #expect(result.isValid, "\(kinds): \(String(describing: result.firstFailure))")
        }
        // A defect still fails the check it is built for, whatever the keys.
        let wrong = try Self.hierarchy(Self.mixed, defect: .wrongIssuer)
        #expect(wrong.validateServerChain().firstFailure?.kind == .signature)
        let expired = try Self.hierarchy(Self.mixed, defect: .expired)
        #expect(expired.validateServerChain().firstFailure?.kind == .validity)
    }

    @Test func theSameSeedGivesTheSameBytesAndAllRSAIsUnchanged() throws {
        let a = try Self.hierarchy(Self.mixed), b = try Self.hierarchy(Self.mixed)
        #expect(a.labelledCertificates.map(\.certificate.der) == b.labelledCertificates.map(\.certificate.der))
        #expect(a.serverKey.pem == b.serverKey.pem)
        let other = try Self.hierarchy(Self.mixed, seed: 32)
        #expect(other.leaf.publicKey.der != a.leaf.publicKey.der)
        // Giving every certificate RSA explicitly is the hierarchy TLSLab always built.
        let rsa = try Self.hierarchy(.allRSA)
        let plain = try PKIHierarchy(PKIHierarchySpec(seed: 31))
        #expect(rsa.labelledCertificates.map(\.certificate.der) == plain.labelledCertificates.map(\.certificate.der))
    }

    @Test func rsaOnlyDefectsRefuseECKeys() throws {
        #expect(throws: PKIError.self) { try Self.hierarchy(PKIKeyKinds(leaf: .p256), defect: .rsa1024Leaf) }
        #expect(throws: PKIError.self) { try Self.hierarchy(PKIKeyKinds(intermediate: .p384), defect: .sha1Signature) }
        // The RSA parts of those defects with EC elsewhere are fine.
        _ = try Self.hierarchy(PKIKeyKinds(root: .p256, intermediate: .rsa, leaf: .p256), defect: .sha1Signature)
    }

    @Test func theSpecRoundTripsThroughCodable() throws {
        var spec = PKIHierarchySpec(seed: 9)
        spec.keyKinds = Self.mixed
        let decoded = try JSONDecoder().decode(PKIHierarchySpec.self, from: JSONEncoder().encode(spec))
        #expect(decoded == spec)
        // An all-RSA spec writes no keyKinds, as before.
        let text = String(decoding: try JSONEncoder().encode(PKIHierarchySpec(seed: 9)), as: UTF8.self)
        #expect(!text.contains("keyKinds"))
    }

    /// OpenSSL verifies the chain (root → P-384 intermediate → P-256 leaf) and reads the ECDSA
    /// AlgorithmIdentifier without parameters.
    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed"))
    func openSSLVerifiesTheECChain() throws {
        let h = try Self.hierarchy(Self.mixed)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-echierarchy-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, cert) in [("root", h.root), ("intermediate", h.intermediate), ("leaf", h.leaf), ("client-root", h.clientRoot), ("client", h.client.leaf)] {
            try cert.pem.write(to: dir.appendingPathComponent("\(name).pem"), atomically: true, encoding: .utf8)
        }
        let at = "-attime"
        let time = "\(h.now)"
        let server = try #require(ExternalTool.run("openssl", ["verify", at, time, "-purpose", "sslserver", "-CAfile", dir.appendingPathComponent("root.pem").path,
                                                               "-untrusted", dir.appendingPathComponent("intermediate.pem").path,
                                                               dir.appendingPathComponent("leaf.pem").path]))
        #expect(server.status == 0, "\(String(decoding: server.out, as: UTF8.self)) \(server.err)")
        let client = try #require(ExternalTool.run("openssl", ["verify", at, time, "-purpose", "sslclient", "-CAfile", dir.appendingPathComponent("client-root.pem").path,
                                                               dir.appendingPathComponent("client.pem").path]))
        #expect(client.status == 0, "\(String(decoding: client.out, as: UTF8.self)) \(client.err)")
        let text = try #require(ExternalTool.run("openssl", ["x509", "-noout", "-text", "-in", dir.appendingPathComponent("leaf.pem").path]))
        let shown = String(decoding: text.out, as: UTF8.self)
        #expect(shown.contains("Signature Algorithm: ecdsa-with-SHA384"), "\(shown)")
        #expect(shown.contains("ASN1 OID: prime256v1"), "\(shown)")
        // RFC 5758 §3.2: the parameters field is absent — the AlgorithmIdentifier is just the OID (30 0A 06 08 …).
        #expect(h.leaf.der.contains(subsequence: [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03]))
    }

    /// P-521 keys throughout (signed with ecdsa-with-SHA512, RFC 5758 §3.2) and an Ed25519 leaf and
    /// client under RSA CAs (RFC 8410): our validator and OpenSSL both accept the chains.
    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed"),
          arguments: [PKIKeyKinds(root: .p521, intermediate: .p521, leaf: .p521, clientRoot: .p521, client: .p521),
                      PKIKeyKinds(root: .rsa, intermediate: .rsa, leaf: .ed25519, clientRoot: .rsa, client: .ed25519)])
    func p521AndEd25519ChainsValidate(kinds: PKIKeyKinds) throws {
        let h = try Self.hierarchy(kinds)
        let result = h.validateServerChain()
        #expect(result.isValid, "\(kinds): \(String(describing: result.firstFailure))")
        let shown = VerificationKey(subjectPublicKeyInfoDER: h.leaf.publicKey.der)?.description
        #expect(shown == (kinds.leaf == .ed25519 ? "Ed25519" : "EC P-521"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-newkeys-\(getpid())-\(kinds.leaf.rawValue)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, cert) in [("root", h.root), ("intermediate", h.intermediate), ("leaf", h.leaf), ("client-root", h.clientRoot), ("client", h.client.leaf)] {
            try cert.pem.write(to: dir.appendingPathComponent("\(name).pem"), atomically: true, encoding: .utf8)
        }
        let server = try #require(ExternalTool.run("openssl", ["verify", "-attime", "\(h.now)", "-purpose", "sslserver",
                                                               "-CAfile", dir.appendingPathComponent("root.pem").path,
                                                               "-untrusted", dir.appendingPathComponent("intermediate.pem").path,
                                                               dir.appendingPathComponent("leaf.pem").path]))
        #expect(server.status == 0, "\(String(decoding: server.out, as: UTF8.self)) \(server.err)")
        let client = try #require(ExternalTool.run("openssl", ["verify", "-attime", "\(h.now)", "-purpose", "sslclient",
                                                               "-CAfile", dir.appendingPathComponent("client-root.pem").path,
                                                               dir.appendingPathComponent("client.pem").path]))
        #expect(client.status == 0, "\(String(decoding: client.out, as: UTF8.self)) \(client.err)")
        let text = try #require(ExternalTool.run("openssl", ["x509", "-noout", "-text", "-in", dir.appendingPathComponent("leaf.pem").path]))
        let leafText = String(decoding: text.out, as: UTF8.self)
        if kinds.leaf == .p521 {
            #expect(leafText.contains("Signature Algorithm: ecdsa-with-SHA512") && leafText.contains("NIST CURVE: P-521"), "\(leafText)")
        } else {
            #expect(leafText.contains("Public Key Algorithm: ED25519"), "\(leafText)")
        }
    }
}


extension Array where Element == UInt8 {
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0 ... count - needle.count).contains { Array(self[$0 ..< $0 + needle.count]) == needle }
    }
}
