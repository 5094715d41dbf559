import Testing
@testable import PKI
import TLSCrypto

@Suite struct SignatureAndTimeTests {
    @Test func pssSignatureVerifiesAndTamperingFails() {
        let leaf = PKIFixtures.cert("leaf-pss")
        let issuer = PKIFixtures.cert("int").publicKey
        let good = SignatureCheck.verify(tbs: leaf.tbsDER, signature: leaf.signatureValue, algorithm: leaf.signatureAlgorithm, issuerKey: issuer)
        #expect(good.passed)
        #expect(good.hash2 == nil && good.recoveredBlock == nil)
        var tbs = leaf.tbsDER
        tbs[tbs.count / 2] ^= 0x01
        #expect(!SignatureCheck.verify(tbs: tbs, signature: leaf.signatureValue, algorithm: leaf.signatureAlgorithm, issuerKey: issuer).passed)
        // Wrong salt length in the algorithm parameters must fail too.
        #expect(!SignatureCheck.verify(tbs: leaf.tbsDER, signature: leaf.signatureValue, algorithm: .rsaPSS(RSAPSSParameters(hash: .sha256, saltLength: 20)), issuerKey: issuer).passed)
    }

    /// Why a PKCS#1 v1.5 signature does not open to a block, and RSA-PSS parameters TLSLab cannot use,
    /// are typed data in the outcome (issue #34: no English of PKI's or TLSCrypto's in it).
    @Test func signatureFaultsAreTypedData() {
        let leaf = PKIFixtures.cert("leaf")
        let issuer = PKIFixtures.cert("int").publicKey
        let cut = SignatureCheck.verify(tbs: leaf.tbsDER, signature: Array(leaf.signatureValue.dropLast()), algorithm: leaf.signatureAlgorithm,
                                        issuerKey: issuer)
        #expect(!cut.passed)
        #expect(cut.outcome == .noValidPKCS1Block(.signatureLength(bytes: leaf.signatureValue.count - 1, modulusBytes: leaf.signatureValue.count)))
        let tooBig = SignatureCheck.verify(tbs: leaf.tbsDER, signature: [UInt8](repeating: 0xFF, count: leaf.signatureValue.count),
                                           algorithm: leaf.signatureAlgorithm, issuerKey: issuer)
        #expect(tooBig.outcome == .noValidPKCS1Block(.representativeOutOfRange))
        // Another key's signature opens to a random-looking block, not 00 01 FF…
        let other = PKIFixtures.cert("leaf-pss")
        let wrongKey = SignatureCheck.verify(tbs: leaf.tbsDER, signature: other.signatureValue, algorithm: leaf.signatureAlgorithm, issuerKey: issuer)
        #expect(wrongKey.outcome == .noValidPKCS1Block(.notBlockType1))
        let unusable = SignatureCheck.verify(tbs: leaf.tbsDER, signature: leaf.signatureValue,
                                             algorithm: .rsaPSSUnusable(.trailerField(2)), issuerKey: issuer)
        #expect(!unusable.passed && unusable.outcome == .pssParametersUnusable(.trailerField(2)))
    }

    @Test func keyKindMismatchesFailCleanly() {
        let rsaLeaf = PKIFixtures.cert("leaf")
        let ecKey = PKIFixtures.cert("ec-int").publicKey
        let check = SignatureCheck.verify(tbs: rsaLeaf.tbsDER, signature: rsaLeaf.signatureValue, algorithm: rsaLeaf.signatureAlgorithm, issuerKey: ecKey)
        #expect(!check.passed)
        #expect(check.outcome == .issuerKeyIsNot(.rsa, issuerKey: .ec(curve: "P-256")))
        let ecLeaf = PKIFixtures.cert("ec-leaf")
        #expect(!SignatureCheck.verify(tbs: ecLeaf.tbsDER, signature: ecLeaf.signatureValue, algorithm: ecLeaf.signatureAlgorithm,
                                       issuerKey: PKIFixtures.cert("int").publicKey).passed)
        #expect(!SignatureCheck.verify(tbs: [], signature: [1, 2, 3], algorithm: .unknown(oid: "1.2.3"), issuerKey: ecKey).passed)
    }

    @Test func ecdsaWithP384Issuer() {
        let int = PKIFixtures.cert("ec-int")
        let check = SignatureCheck.verify(tbs: int.tbsDER, signature: int.signatureValue, algorithm: int.signatureAlgorithm,
                                          issuerKey: PKIFixtures.cert("ec-root").publicKey)
        #expect(check.passed)
        #expect(check.hash1.count == 48)
    }

    @Test func times() {
        #expect(UnixTime.seconds(year: 1970, month: 1, day: 1) == 0)
        #expect(UnixTime.seconds(year: 2000, month: 3, day: 1) == 951_868_800)
        #expect(UnixTime.seconds(iso8601: "2030-06-01T00:00:00+00:00") == PKIFixtures.now)
        #expect(UnixTime.seconds(fromDigits: "20301301000000") == nil)
        // notAfter 2060 is a GeneralizedTime, 2049 and earlier UTCTime (RFC 5280 §4.1.2.5).
        #expect(PKIFixtures.cert("root").notAfter == UnixTime.seconds(year: 2060, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(PKIFixtures.cert("leaf-expired").notAfter == UnixTime.seconds(year: 2001, month: 1, day: 1))
    }
}
