import Foundation
import Testing
@testable import PKI
import TLSCrypto

@Suite struct CertificateParsingTests {
    @Test func rsaLeafFields() {
        let leaf = PKIFixtures.cert("leaf")
        #expect(leaf.version == 3)
        #expect(leaf.subject.commonNames == ["www.example.com"])
        #expect(leaf.issuer.commonNames == ["TLSLab Test Intermediate CA"])
        #expect(leaf.subject.description == "CN=www.example.com, O=TLSLab Test, C=US")
        #expect(leaf.notBefore == UnixTime.seconds(year: 2020, month: 1, day: 1))
        #expect(leaf.notAfter == UnixTime.seconds(year: 2099, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(leaf.publicKey.kind == .rsa)
        #expect(leaf.publicKey.keyBits == 2048)
        #expect(leaf.signatureAlgorithm == .rsaPKCS1v15(.sha256))
        #expect(leaf.extensions.basicConstraints == .init(isCA: false, pathLength: nil))
        #expect(leaf.extensions.extendedKeyUsage == [CertificateExtensions.serverAuth])
        #expect(leaf.extensions.dnsNames == ["www.example.com", "*.api.example.com"])
        #expect(leaf.extensions.ipAddresses == [[192, 0, 2, 10]])
        #expect(leaf.extensions.keyUsage?.digitalSignature == true)
        #expect(leaf.extensions.authorityKeyIdentifier == PKIFixtures.cert("int").extensions.subjectKeyIdentifier)
        #expect(leaf.tbsDER.count < leaf.der.count)
        #expect(leaf.signatureValue.count == 256)
    }

    @Test func caAndUnusualCertificates() {
        let int = PKIFixtures.cert("int")
        #expect(int.extensions.basicConstraints == .init(isCA: true, pathLength: 0))
        #expect(int.extensions.keyUsage?.keyCertSign == true)
        #expect(PKIFixtures.cert("leaf-rsa1024").publicKey.keyBits == 1024)
        #expect(PKIFixtures.cert("leaf-sha1").signatureAlgorithm == .rsaPKCS1v15(.sha1))
        #expect(PKIFixtures.cert("leaf-pss").signatureAlgorithm == .rsaPSS(RSAPSSParameters(hash: .sha256, saltLength: 32)))
        #expect(PKIFixtures.cert("ec-root").publicKey.kind == .ec(curve: "P-384"))
        let ecLeaf = PKIFixtures.cert("ec-leaf")
        #expect(ecLeaf.publicKey.kind == .ec(curve: "P-256"))
        #expect(ecLeaf.signatureAlgorithm == .ecdsa(.sha256))
        #expect(PKIFixtures.cert("ec-int").signatureAlgorithm == .ecdsa(.sha384))
        #expect(ecLeaf.extensions.ipAddresses.first?.count == 16)
    }

    @Test func pemBundleAndDER() throws {
        let chain = try X509Certificate.parseAll(PKIFixtures.data("chain-rsa"), source: "chain-rsa.pem")
        #expect(chain.map { $0.subject.commonNames.first ?? "" } == ["www.example.com", "TLSLab Test Intermediate CA", "TLSLab Test Root CA"])
        let der = try X509Certificate.parseAll(chain[0].der, source: "leaf.der")
        #expect(der == [chain[0]])
        #expect(try X509Certificate.parsePEM(chain[0].pem) == [chain[0]])
    }

    /// One helper parses a peer's chain for every evaluator: all of it, or the first certificate
    /// that does not parse, by position.
    @Test func aChainParsesWholeOrNamesItsBadCertificate() throws {
        let leaf = PKIFixtures.cert("leaf"), int = PKIFixtures.cert("int")
        #expect(try X509Certificate.parseChain([leaf.der, int.der]) == [leaf, int])
        #expect(try X509Certificate.parseChain([]) == [])
        #expect(throws: ChainParseFailure.self) { try X509Certificate.parseChain([leaf.der, [0x30, 0x00], int.der]) }
        do {
            _ = try X509Certificate.parseChain([leaf.der, int.der, Array(leaf.der.prefix(50))])
            Issue.record("a truncated third certificate parsed")
        } catch {
            #expect(error.index == 2)
        }
    }

    @Test func malformedInputIsATypedError() {
        let leaf = PKIFixtures.cert("leaf").der
        #expect(throws: PKIError.self) { try X509Certificate(der: Array(leaf.prefix(100))) }
        #expect(throws: PKIError.self) { try X509Certificate(der: leaf + [0]) }
        #expect(throws: PKIError.self) { try X509Certificate(der: []) }
        #expect(throws: PKIError.self) { try X509Certificate(der: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        // Every truncation and a sweep of single-byte corruptions must throw or parse, never trap.
        for cut in stride(from: 0, to: leaf.count, by: 97) { _ = try? X509Certificate(der: Array(leaf.prefix(cut))) }
        for index in stride(from: 0, to: leaf.count, by: 13) {
            var bytes = leaf
            bytes[index] ^= 0xFF
            _ = try? X509Certificate(der: bytes)
        }
    }

    @Test func derErrorsAreFactsWithoutLibraryInternals() {
        #expect(throws: PKIError.malformedCertificate(.derTruncated)) { try X509Certificate(der: Array("hello".utf8)) }
        let broken = "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n"
        do {
            _ = try X509Certificate.parsePEM(broken, source: "x.pem")
            Issue.record("broken PEM parsed")
        } catch {
            #expect(error == .notACertificate(source: "x.pem", reason: .unreadablePEM), "\(error)")
            #expect(!error.description.contains(".swift") && !error.description.contains("ASN1Error"), "\(error)")
        }
    }

    @Test func nonCertificateFileIsNamed() {
        do {
            _ = try PinReport.reports(for: PKIFixtures.data("leaf-pubkey"), source: "leaf-pubkey.pem")
            Issue.record("a public key file must be refused")
        } catch {
            #expect(error == .notACertificate(source: "leaf-pubkey.pem", reason: .noCertificateBlock(labels: ["PUBLIC KEY"])), "\(error)")
        }
        do {
            _ = try PinReport.reports(for: Array("hello".utf8), source: "notes.txt")
            Issue.record("text must be refused")
        } catch {
            guard case .notACertificate(let source, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(source == "notes.txt")
        }
    }
}
