import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import PKI

/// Certificates built by `CertificateBuilder` and hierarchies by `PKIHierarchy`, cross-checked with OpenSSL.
@Suite struct CertificateBuilderTests {
    static let seed: UInt64 = 4

    static func hierarchy(_ defect: PKIDefect) throws -> PKIHierarchy {
        try PKIHierarchy(PKIHierarchySpec(seed: seed, defect: defect))
    }

    /// A scratch directory for PEM files handed to openssl.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ certificates: [X509Certificate], to url: URL) throws {
        try certificates.map(\.pem).joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    /// OpenSSL's first `error N at D depth lookup: TEXT` line mapped to our check kind.
    static func kind(forOpenSSL text: String) -> ChainCheck.Kind? {
        let table: [(String, ChainCheck.Kind)] = [
            ("certificate has expired", .validity), ("certificate is not yet valid", .validity),
            ("hostname mismatch", .name), ("too weak", .algorithmStrength),
            ("unable to get local issuer certificate", .anchor), ("self-signed certificate", .anchor),
            ("self signed certificate", .anchor), ("certificate signature failure", .signature),
            ("invalid CA certificate", .caFlag), ("path length constraint exceeded", .pathLength),
            ("unsuitable certificate purpose", .extendedKeyUsage),
        ]
        return table.first { text.contains($0.0) }?.1
    }

    // MARK: one certificate

    @Test func everyFieldRoundTripsThroughOurParser() throws {
        let key = try PKIKeyCache.key(seed: Self.seed, label: "leaf", bits: 2048)
        var template = CertificateTemplate(
            serialNumber: [0x80, 0x01, 0x02], subject: [.country("DE"), .organization("TLSLab"), .commonName("www.example.com")],
            notBefore: 1_780_000_000, notAfter: 2_600_000_000,   // the second is after 2049: GeneralizedTime
            basicConstraints: .init(isCA: true, pathLength: 1), keyUsage: [.digitalSignature, .keyCertSign, .cRLSign],
            extendedKeyUsage: [CertificateExtensions.serverAuth, CertificateExtensions.clientAuth])
        template.addSubjectAltNames(["www.example.com", "*.example.com", "192.0.2.7", "2001:db8::1"])
        let cert = try CertificateBuilder.selfSigned(template, key: key)
        #expect(cert.version == 3)
        #expect(cert.serialNumber == [0x00, 0x80, 0x01, 0x02])
        #expect(cert.subject.description == "C=DE, O=TLSLab, CN=www.example.com")
        #expect(cert.isSelfIssued)
        #expect(cert.notBefore == 1_780_000_000 && cert.notAfter == 2_600_000_000)
        #expect(cert.signatureAlgorithm == .rsaPKCS1v15(.sha256))
        #expect(cert.publicKey.der == key.publicKey.subjectPublicKeyInfoDER)
        #expect(cert.extensions.basicConstraints == CertificateExtensions.BasicConstraints(isCA: true, pathLength: 1))
        #expect(cert.extensions.keyUsage?.description == "digitalSignature, keyCertSign, cRLSign")
        #expect(cert.extensions.extendedKeyUsage == [CertificateExtensions.serverAuth, CertificateExtensions.clientAuth])
        #expect(cert.extensions.dnsNames == ["www.example.com", "*.example.com"])
        #expect(cert.extensions.ipAddresses == [[192, 0, 2, 7], [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]])
        #expect(cert.extensions.subjectKeyIdentifier == CertificateBuilder.keyIdentifier(key.publicKey))
        #expect(cert.extensions.authorityKeyIdentifier == cert.extensions.subjectKeyIdentifier)
        #expect(HostnameMatcher.finding(cert, host: "mail.example.com").0)
        #expect(HostnameMatcher.finding(cert, host: "192.0.2.7").0)
        #expect(!HostnameMatcher.finding(cert, host: "a.b.example.com").0)
        let sig = SignatureCheck.verify(tbs: cert.tbsDER, signature: cert.signatureValue, algorithm: cert.signatureAlgorithm,
                                        issuerKey: cert.publicKey)
        #expect(sig.passed)
    }

    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed"))
    func openSSLReadsWhatWeBuild() throws {
        let h = try Self.hierarchy(.none)
        for (label, cert) in h.labelledCertificates {
            let result = try #require(ExternalTool.run("openssl", ["x509", "-noout", "-text"], input: Data(cert.pem.utf8)))
            let text = String(decoding: result.out, as: UTF8.self)
            #expect(result.status == 0, "\(label): \(result.err)")
            #expect(text.contains("Signature Algorithm: sha256WithRSAEncryption"), "\(label)")
            #expect(text.contains("X509v3 Subject Key Identifier"), "\(label)")
        }
        let leafText = String(decoding: try #require(ExternalTool.run("openssl", ["x509", "-noout", "-text"], input: Data(h.leaf.pem.utf8))).out,
                              as: UTF8.self)
        #expect(leafText.contains("DNS:example.com, DNS:www.example.com"))
        #expect(leafText.contains("TLS Web Server Authentication"))
        #expect(leafText.contains("CA:FALSE"))
        #expect(leafText.contains("Digital Signature, Key Encipherment"))
        let intText = String(decoding: try #require(ExternalTool.run("openssl", ["x509", "-noout", "-text"], input: Data(h.intermediate.pem.utf8))).out,
                             as: UTF8.self)
        #expect(intText.contains("CA:TRUE, pathlen:0"))
        #expect(intText.contains("Certificate Sign, CRL Sign"))
        // Re-encoding through OpenSSL gives our bytes back: the DER is canonical.
        let der = try #require(ExternalTool.run("openssl", ["x509", "-outform", "DER"], input: Data(h.leaf.pem.utf8)))
        #expect([UInt8](der.out) == h.leaf.der)
    }

    // MARK: hierarchies

    @Test func sameSpecSameBytesOtherSeedOtherKeys() throws {
        let a = try Self.hierarchy(.none)
        let b = try Self.hierarchy(.none)
        #expect(a.labelledCertificates.map(\.certificate.der) == b.labelledCertificates.map(\.certificate.der))
        #expect(a.serverKey.rsa?.pkcs1DER == b.serverKey.rsa?.pkcs1DER)
        let other = try PKIHierarchy(PKIHierarchySpec(seed: Self.seed + 1000))
        #expect(other.leaf.publicKey.der != a.leaf.publicKey.der)
        // The cache answers by (seed, label, bits): the same value twice, distinct labels distinct keys.
        let k1 = try PKIKeyCache.key(seed: Self.seed, label: "leaf", bits: 2048)
        #expect(k1.pkcs1DER == a.serverKey.rsa?.pkcs1DER)
        #expect(k1.pkcs1DER != a.rootKey.rsa?.pkcs1DER)
        #expect(a.serverKey.rsa?.publicKey == RSAPublicKey?.some(try RSAPublicKey(subjectPublicKeyInfoDER: a.leaf.publicKey.der)))
    }

    @Test func specDecodesFromPartialJSON() throws {
        let json = #"{"seed": 9, "serverHosts": ["*.example.org", "192.0.2.1"], "defect": "wrong-host"}"#
        let spec = try JSONDecoder().decode(PKIHierarchySpec.self, from: Data(json.utf8))
        #expect(spec == PKIHierarchySpec(seed: 9, serverHosts: ["*.example.org", "192.0.2.1"], defect: .wrongHost))
        let back = try JSONDecoder().decode(PKIHierarchySpec.self, from: try JSONEncoder().encode(spec))
        #expect(back == spec)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PKIHierarchySpec.self, from: Data(#"{"defect": "bogus"}"#.utf8)) }
        let h = try PKIHierarchy(PKIHierarchySpec(seed: Self.seed, serverHosts: ["*.example.org", "192.0.2.1"]))
        #expect(h.leaf.extensions.dnsNames == ["*.example.org"] && h.leaf.extensions.ipAddresses == [[192, 0, 2, 1]])
        #expect(h.validateServerChain(host: "api.example.org").isValid)
        #expect(h.validateServerChain(host: "192.0.2.1").isValid)
        #expect(h.validateServerChain(host: "example.org").firstFailure?.kind == .name)
    }

    @Test(arguments: PKIDefect.allCases)
    func ourVerdictPerDefect(defect: PKIDefect) throws {
        let h = try Self.hierarchy(defect)
        let result = h.validateServerChain()
        #expect(result.firstFailure?.kind == defect.expectedFailure, "\(defect): \(result.checks)")
        #expect(result.isValid == (defect.expectedFailure == nil))
        #expect(h.serverChain.first == h.leaf)
        switch defect {
        case .sha1Signature: #expect(h.leaf.signatureAlgorithm == .rsaPKCS1v15(.sha1))
        case .rsa1024Leaf: #expect(h.leaf.publicKey.keyBits == 1024)
        case .renewedSameKey:
            let original = try #require(h.originalLeaf)
            #expect(original.der == (try Self.hierarchy(.none)).leaf.der)
            #expect(original.publicKey.der == h.leaf.publicKey.der && original.der != h.leaf.der)
        case .renewedNewKey:
            let original = try #require(h.originalLeaf)
            #expect(original.publicKey.der != h.leaf.publicKey.der)
        default: break
        }
    }

    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed (chain cross-check)"), arguments: PKIDefect.allCases)
    func openSSLVerifyAgrees(defect: PKIDefect) throws {
        let h = try Self.hierarchy(defect)
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("root.pem"), untrusted = dir.appendingPathComponent("intermediate.pem")
        let leaf = dir.appendingPathComponent("leaf.pem")
        try Self.write(h.roots, to: root)
        try Self.write([h.leaf], to: leaf)
        var arguments = ["verify", "-auth_level", "2", "-attime", String(h.now), "-check_ss_sig", "-CAfile", root.path]
        let intermediates = Array(h.serverChain.dropFirst())
        if !intermediates.isEmpty {
            try Self.write(intermediates, to: untrusted)
            arguments += ["-untrusted", untrusted.path]
        }
        arguments += ["-purpose", "sslserver", "-verify_hostname", h.spec.primaryHost, leaf.path]
        let result = try #require(ExternalTool.run("openssl", arguments))
        let text = String(decoding: result.out, as: UTF8.self) + result.err
        let firstError = text.split(separator: "\n").first { $0.hasPrefix("error ") }.map(String.init)
        if let expected = defect.expectedFailure {
            #expect(result.status != 0, "\(defect): openssl accepted: \(text)")
            #expect(Self.kind(forOpenSSL: firstError ?? "") == expected, "\(defect): openssl said \(text)")
        } else {
            #expect(result.status == 0, "\(defect): openssl said \(text)")
        }
    }

    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed"))
    func clientCertificateVerifiesForSSLClient() throws {
        let h = try Self.hierarchy(.none)
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("client-root.pem"), leaf = dir.appendingPathComponent("client.pem")
        try Self.write([h.clientRoot], to: root)
        try Self.write([h.client.leaf], to: leaf)
        let base = ["verify", "-auth_level", "2", "-attime", String(h.now), "-check_ss_sig", "-CAfile", root.path]
        let asClient = try #require(ExternalTool.run("openssl", base + ["-purpose", "sslclient", leaf.path]))
        #expect(asClient.status == 0, "\(asClient.err)")
        let asServer = try #require(ExternalTool.run("openssl", base + ["-purpose", "sslserver", leaf.path]))
        #expect(asServer.status != 0)
        let ours = ChainValidator(anchors: AnchorSelection(system: .system([h.clientRoot])), purpose: .sslClient, time: h.now)
            .validate(h.client.chain)
        #expect(ours.isValid, "\(ours.checks)")
    }

    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed"))
    func pinsEqualOpenSSLPipelines() throws {
        let h = try Self.hierarchy(.none)
        for cert in [h.leaf, h.intermediate, h.root] {
            let pubkey = try #require(ExternalTool.run("openssl", ["x509", "-pubkey", "-noout"], input: Data(cert.pem.utf8)))
            let spki = try #require(ExternalTool.run("openssl", ["pkey", "-pubin", "-outform", "der"], input: pubkey.out))
            let digest = try #require(ExternalTool.run("openssl", ["dgst", "-sha256", "-binary"], input: spki.out))
            let base64 = try #require(ExternalTool.run("openssl", ["enc", "-base64"], input: digest.out))
            #expect(String(decoding: base64.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == Pins.publicKeyPin(cert))
            let der = try #require(ExternalTool.run("openssl", ["x509", "-outform", "der"], input: Data(cert.pem.utf8)))
            let certDigest = try #require(ExternalTool.run("openssl", ["dgst", "-sha256", "-binary"], input: der.out))
            let certBase64 = try #require(ExternalTool.run("openssl", ["enc", "-base64"], input: certDigest.out))
            #expect(String(decoding: certBase64.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == Pins.certificatePin(cert))
        }
    }

    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed"))
    func exportedKeysMatchTheirCertificates() throws {
        let h = try Self.hierarchy(.pathLenExceeded)
        let files = Dictionary(uniqueKeysWithValues: h.pemFiles.map { ($0.name, $0.contents) })
        let chain = try X509Certificate.parsePEM(try #require(files["server-chain.pem"]))
        #expect(chain == h.serverChain && chain.count == 3)
        for (keyFile, cert) in [("server.key", h.leaf), ("client.key", h.client.leaf)] {
            let pem = try #require(files[keyFile])
            let spki = try #require(ExternalTool.run("openssl", ["pkey", "-pubout", "-outform", "DER"], input: Data(pem.utf8)))
            #expect(spki.status == 0 && [UInt8](spki.out) == cert.publicKey.der, "\(keyFile)")
        }
    }

    /// AFSecurityPolicy's decision table (AFSecurityPolicyTests) replayed on builder-made hierarchies:
    /// the same situations, the same hand-derived YES/NO strings (mode none, publicKey, certificate ×
    /// (allowInvalid, validatesDomainName) = NN NY YN YY), so the verdicts do not depend on who made
    /// the certificates. Renewals pin the leaf before renewal (`originalLeaf`).
    enum Pin: Sendable { case root, intermediate, leaf, originalLeaf, unrelated }
    static let afSituations: [(PKIDefect, [Pin], String)] = [
        (.none, [.root], "YYYN YYYY YYYY"),
        (.wrongHost, [.leaf], "YNYN YNYY YNYN"),
        (.selfSignedLeaf, [.leaf], "NNYN NNYY NNYY"),
        (.expired, [.leaf], "NNYN NNYY NNNN"),
        (.none, [.leaf], "YYYN YYYY YYYY"),
        (.none, [.intermediate], "YYYN YYYY YYYY"),
        (.none, [.unrelated], "YYYN NNNN NNNN"),
        (.renewedSameKey, [.originalLeaf], "YYYN YYYY NNNN"),
        (.renewedNewKey, [.originalLeaf], "YYYN NNNN NNNN"),
        (.none, [], "YYYN NNNN NNNN"),
    ]

    @Test(arguments: 0..<afSituations.count)
    func afNetworkingDecisionTableOnBuiltCertificates(row: Int) throws {
        let (defect, pins, expectedText) = Self.afSituations[row]
        let h = try Self.hierarchy(defect)
        let unrelated = try PKIHierarchy(PKIHierarchySpec(seed: Self.seed + 1000)).leaf
        let pinned: [[UInt8]] = try pins.map { pin in
            switch pin {
            case .root: return h.root.der
            case .intermediate: return h.intermediate.der
            case .leaf: return h.leaf.der
            case .originalLeaf: return try #require(h.originalLeaf).der
            case .unrelated: return unrelated.der
            }
        }
        let expected = Array(expectedText.filter { $0 != " " })
        var column = 0
        for mode in [AFSecurityPolicy.PinningMode.none, .publicKey, .certificate] {
            for allowInvalid in [false, true] {
                for validatesDomain in [false, true] {
                    let policy = AFSecurityPolicy(mode: mode, pinnedCertificates: pinned,
                                                  allowInvalidCertificates: allowInvalid, validatesDomainName: validatesDomain)
                    let decision = policy.evaluate(h.serverTrust(), forDomain: h.spec.primaryHost)
                    #expect(decision.accepted == (expected[column] == "Y"),
                            "\(defect) pins \(pins): mode \(mode) allowInvalid \(allowInvalid) validatesDomain \(validatesDomain): \(decision.reasons)")
                    column += 1
                }
            }
        }
    }
}
