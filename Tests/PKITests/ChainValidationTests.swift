import Foundation
import Testing
import TestSupport
@testable import PKI
import TLSCrypto

@Suite struct ChainValidationTests {
    struct Row: Sendable, CustomStringConvertible {
        let leaf: String
        let intermediates: [String]
        let root: String
        /// Our first failing check (nil = valid).
        let failure: ChainCheck.Kind?
        /// The failure's depth in the path.
        let depth: Int
        /// OpenSSL's matching error text (nil = "OK").
        let openssl: String?
        var description: String { "\(leaf) via \(intermediates) to \(root)" }
    }

    /// The defect table: expected results written by hand from RFC 5280 §6 and the fixture script.
    static let rows: [Row] = [
        Row(leaf: "leaf", intermediates: ["int"], root: "root", failure: nil, depth: 0, openssl: nil),
        Row(leaf: "leaf-pss", intermediates: ["int"], root: "root", failure: nil, depth: 0, openssl: nil),
        Row(leaf: "ec-leaf", intermediates: ["ec-int"], root: "ec-root", failure: nil, depth: 0, openssl: nil),
        Row(leaf: "leaf-renewed-same-key", intermediates: ["int"], root: "root", failure: nil, depth: 0, openssl: nil),
        Row(leaf: "leaf-expired", intermediates: ["int"], root: "root", failure: .validity, depth: 0, openssl: "certificate has expired"),
        Row(leaf: "leaf-notyet", intermediates: ["int"], root: "root", failure: .validity, depth: 0, openssl: "certificate is not yet valid"),
        Row(leaf: "leaf-wronghost", intermediates: ["int"], root: "root", failure: .name, depth: 0, openssl: "hostname mismatch"),
        Row(leaf: "selfsigned", intermediates: [], root: "root", failure: .anchor, depth: 0, openssl: "self-signed certificate"),
        Row(leaf: "leaf", intermediates: [], root: "root", failure: .anchor, depth: 0, openssl: "unable to get local issuer certificate"),
        Row(leaf: "other-leaf", intermediates: [], root: "root", failure: .anchor, depth: 0, openssl: "unable to get local issuer certificate"),
        Row(leaf: "leaf-sha1", intermediates: ["int"], root: "root", failure: .algorithmStrength, depth: 0, openssl: "digest algorithm too weak"),
        Row(leaf: "leaf-rsa1024", intermediates: ["int"], root: "root", failure: .algorithmStrength, depth: 0, openssl: "key too weak"),
        Row(leaf: "leaf-clientonly", intermediates: ["int"], root: "root", failure: .extendedKeyUsage, depth: 0, openssl: "unsuitable certificate purpose"),
        Row(leaf: "leaf-under-noca", intermediates: ["int-noca"], root: "root", failure: .caFlag, depth: 1, openssl: "invalid CA certificate"),
        Row(leaf: "leaf-deep", intermediates: ["int2", "int"], root: "root", failure: .pathLength, depth: 2, openssl: "path length constraint exceeded"),
        // RSA-PSS keys (id-RSASSA-PSS SubjectPublicKeyInfo): a CA with an unrestricted PSS key, one whose key
        // parameters restrict it to SHA-256/MGF1-SHA-256/salt ≥ 32, a server whose own key is RSA-PSS, and a
        // PSS signature whose MGF1 hash (SHA-384) differs from its message hash (SHA-256).
        Row(leaf: "leaf-under-pss", intermediates: ["int-pss"], root: "root", failure: nil, depth: 0, openssl: nil),
        Row(leaf: "leaf-under-pss-restricted", intermediates: ["int-pss-restricted"], root: "root", failure: nil, depth: 0, openssl: nil),
        Row(leaf: "leaf-pss-key", intermediates: ["int"], root: "root", failure: nil, depth: 0, openssl: nil),
        Row(leaf: "leaf-pss-mgf384", intermediates: ["int"], root: "root", failure: nil, depth: 0, openssl: nil),
        // The restricted key signed with SHA-384 (RFC 4055 §3.3 forbids it; OpenSSL: "digest not allowed").
        Row(leaf: "leaf-pss-violates", intermediates: ["int-pss-restricted"], root: "root", failure: .signature, depth: 0,
            openssl: "certificate signature failure"),
        // keyUsage for a TLS server: OpenSSL's sslserver purpose wants digitalSignature, keyEncipherment or keyAgreement.
        Row(leaf: "leaf-ku-nonrepudiation", intermediates: ["int"], root: "root", failure: .keyUsage, depth: 0,
            openssl: "unsuitable certificate purpose"),
        Row(leaf: "leaf-ku-keyagreement", intermediates: ["int"], root: "root", failure: nil, depth: 0, openssl: nil),
        // CN = www.example.com but SAN = mail.example.com: a SAN is present, so the CN is ignored.
        Row(leaf: "leaf-cn-only-match", intermediates: ["int"], root: "root", failure: .name, depth: 0, openssl: "hostname mismatch"),
        // A self-signed leaf that is its own trust anchor (a pinned certificate) still has to be a usable server
        // certificate: OpenSSL rejects it with error 26 (purpose) / 66 (EE key too weak), and so do we.
        Row(leaf: "selfsigned", intermediates: [], root: "selfsigned", failure: nil, depth: 0, openssl: nil),
        Row(leaf: "selfsigned-clientonly", intermediates: [], root: "selfsigned-clientonly", failure: .extendedKeyUsage, depth: 0,
            openssl: "unsuitable certificate purpose"),
        Row(leaf: "selfsigned-rsa1024", intermediates: [], root: "selfsigned-rsa1024", failure: .algorithmStrength, depth: 0,
            openssl: "EE certificate key too weak"),
    ]

    static func validator(root: String) -> ChainValidator {
        ChainValidator(anchors: AnchorSelection(system: .system([PKIFixtures.cert(root)])),
                       purpose: .sslServer(host: "www.example.com"), time: PKIFixtures.now)
    }

    @Test(arguments: rows)
    func defectTable(row: Row) {
        let result = Self.validator(root: row.root).validate(([row.leaf] + row.intermediates).map(PKIFixtures.cert))
        #expect(result.firstFailure?.kind == row.failure, "\(result.checks)")
        if row.failure != nil {
            #expect(result.firstFailure?.depth == row.depth)
            #expect(!result.isValid)
        } else {
            #expect(result.result == .unspecified)
            #expect(result.path.count == row.intermediates.count + (row.leaf == row.root ? 1 : 2))
        }
    }

    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed (chain cross-check)"), arguments: rows)
    func openSSLAgrees(row: Row) throws {
        var arguments = ["verify", "-auth_level", "2", "-attime", String(PKIFixtures.now), "-check_ss_sig",
                         "-CAfile", PKIFixtures.path(row.root), "-purpose", "sslserver", "-verify_hostname", "www.example.com"]
        for intermediate in row.intermediates { arguments += ["-untrusted", PKIFixtures.path(intermediate)] }
        arguments.append(PKIFixtures.path(row.leaf))
        let result = try #require(ExternalTool.run("openssl", arguments))
        let text = String(decoding: result.out, as: UTF8.self) + result.err
        if let expected = row.openssl {
            #expect(result.status != 0)
            let firstError = text.split(separator: "\n").first { $0.hasPrefix("error ") }.map(String.init) ?? ""
            #expect(firstError.contains(expected), "openssl said: \(text)")
        } else {
            #expect(result.status == 0, "openssl said: \(text)")
        }
    }

    @Test func tamperedSignatureIsFatalAndShowsBothHashes() throws {
        let leaf = PKIFixtures.cert("leaf")
        var der = leaf.der
        der[der.count - 5] ^= 0x01
        let tampered = try X509Certificate(der: der)
        let result = Self.validator(root: "root").validate([tampered, PKIFixtures.cert("int")])
        #expect(result.result == .fatalTrustFailure)
        let failure = try #require(result.firstFailure)
        #expect(failure.kind == .signature)
        // A flipped signature bit decrypts to garbage: no valid PKCS#1 block, so no Hash2.
        #expect(failure.signature?.hash2 == nil)
        #expect(failure.signature?.hash1.count == 32)
    }

    @Test func tamperedTBSKeepsHash2ButDiffersFromHash1() throws {
        let leaf = PKIFixtures.cert("leaf")
        var der = leaf.der
        // Flip a byte inside the subject CN text ("www.example.com" → "xww.example.com").
        let needle = Array("www.example.com".utf8)
        let start = try #require((0..<(der.count - needle.count)).first { Array(der[$0..<($0 + needle.count)]) == needle })
        der[start] = UInt8(ascii: "x")
        let tampered = try X509Certificate(der: der)
        let check = SignatureCheck.verify(tbs: tampered.tbsDER, signature: tampered.signatureValue,
                                          algorithm: tampered.signatureAlgorithm, issuerKey: PKIFixtures.cert("int").publicKey)
        #expect(!check.passed)
        let hash2 = try #require(check.hash2)
        #expect(hash2 != check.hash1)
        #expect(hash2 == HashAlgorithm.sha256.digest(leaf.tbsDER))
    }

    @Test func teachingTraceForRSAAndECDSA() throws {
        let result = Self.validator(root: "root").validate([PKIFixtures.cert("leaf"), PKIFixtures.cert("int")])
        let signatures = result.checks.filter { $0.kind == .signature }
        #expect(signatures.count == 2)
        let first = try #require(signatures.first?.signature)
        #expect(first.hash2 == first.hash1)
        let block = try #require(first.recoveredBlock)
        #expect(Array(block.encodedMessage.prefix(2)) == [0x00, 0x01])
        #expect(block.hash == .sha256)
        #expect(block.digestInfo.count == 19 + 32)
        let order = result.checks.filter { $0.depth == 0 }.map(\.kind)
        #expect(order == [.signature, .validity, .algorithmStrength, .criticalExtensions, .extendedKeyUsage, .keyUsage, .endEntity, .name])
        #expect(result.checks.last?.kind == .anchor)

        let ec = Self.validator(root: "ec-root").validate([PKIFixtures.cert("ec-leaf"), PKIFixtures.cert("ec-int")])
        #expect(ec.isValid)
        let ecCheck = try #require(ec.checks.first { $0.kind == .signature }?.signature)
        #expect(ecCheck.hash2 == nil)
        #expect(ecCheck.outcome == .ecdsa(verified: true))
    }

    @Test func anchorSets() {
        // SecTrustSetAnchorCertificates with a self-signed company CA plus one public CA .
        let system = AnchorSelection(system: .system([PKIFixtures.cert("other-root")]))
        let custom = system.withAnchors([PKIFixtures.cert("company-ca"), PKIFixtures.cert("root")], name: .appAnchors)
        func valid(_ names: [String], host: String, _ anchors: AnchorSelection) -> Bool {
            ChainValidator(anchors: anchors, purpose: .sslServer(host: host), time: PKIFixtures.now)
                .validate(names.map(PKIFixtures.cert)).isValid
        }
        #expect(valid(["intranet"], host: "intranet.example.com", custom))
        #expect(valid(["leaf", "int"], host: "www.example.com", custom))
        #expect(!valid(["other-leaf"], host: "www.example.com", custom))       // anchors only: system ignored
        var both = custom
        both.anchorsOnly = false
        #expect(valid(["other-leaf"], host: "www.example.com", both))          // …unless anchorsOnly is off
        #expect(!valid(["intranet"], host: "intranet.example.com", system))
        #expect(!valid(["selfsigned"], host: "www.example.com", custom))
        let confirmed = AnchorSelection(system: TrustStore(name: .systemRoots, anchors: [PKIFixtures.cert("root")], userConfirmed: true))
        #expect(ChainValidator(anchors: confirmed, purpose: .basicX509, time: PKIFixtures.now)
            .validate([PKIFixtures.cert("leaf"), PKIFixtures.cert("int")]).result == .proceed)
    }

    @Test func weakAlgorithmsPassWhenAllowed() {
        var validator = Self.validator(root: "root")
        validator.rejectWeakAlgorithms = false
        #expect(validator.validate([PKIFixtures.cert("leaf-sha1"), PKIFixtures.cert("int")]).isValid)
        #expect(validator.validate([PKIFixtures.cert("leaf-rsa1024"), PKIFixtures.cert("int")]).isValid)
    }
}
