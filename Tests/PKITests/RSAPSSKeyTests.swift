import Testing
@testable import PKI
import TLSCrypto

/// RSA-PSS keys (id-RSASSA-PSS in SubjectPublicKeyInfo, RFC 4055 §1.2) and RSASSA-PSS-params (RFC 4055 §3.1),
/// on the OpenSSL-made fixtures of scripts/make-pki-fixtures.sh.
@Suite struct RSAPSSKeyTests {
    @Test func pssKeysParseWithTheirRestrictions() {
        let free = PKIFixtures.cert("int-pss").publicKey
        #expect(free.kind == .rsaPSS && free.algorithmOID == "1.2.840.113549.1.1.10" && free.keyBits == 2048)
        #expect(free.pssRestriction == nil && free.unusableReason == nil)
        let restricted = PKIFixtures.cert("int-pss-restricted").publicKey
        #expect(restricted.kind == .rsaPSS)
        #expect(restricted.pssRestriction == RSAPSSParameters(hash: .sha256, maskHash: .sha256, saltLength: 32))
        // An RSA-PSS key can only make PSS signatures, so what it signed says so.
        #expect(PKIFixtures.cert("leaf-under-pss").signatureAlgorithm.hash == .sha256)
        if case .rsaPSS = PKIFixtures.cert("leaf-under-pss").signatureAlgorithm {} else { Issue.record("not PSS") }
    }

    @Test func maskGenerationHashIsParsedNotAssumed() throws {
        let leaf = PKIFixtures.cert("leaf-pss-mgf384")
        #expect(leaf.signatureAlgorithm == .rsaPSS(RSAPSSParameters(hash: .sha256, maskHash: .sha384, saltLength: 32)))
        let issuer = PKIFixtures.cert("int").publicKey
        #expect(SignatureCheck.verify(tbs: leaf.tbsDER, signature: leaf.signatureValue, algorithm: leaf.signatureAlgorithm,
                                      issuerKey: issuer).passed)
        // Assuming MGF1 over the message hash (the old behaviour) unmasks the wrong DB and fails.
        let assumed = SignatureCheck.verify(tbs: leaf.tbsDER, signature: leaf.signatureValue,
                                            algorithm: .rsaPSS(RSAPSSParameters(hash: .sha256, saltLength: 32)), issuerKey: issuer)
        #expect(!assumed.passed)
        #expect(assumed.outcome == .pss(failure: .dataBlockMalformed))
    }

    @Test func absentParametersTakeTheRFC4055Defaults() throws {
        // SEQUENCE { [0] { SEQUENCE { id-sha256, NULL } } }: MGF1 stays SHA-1 (its own default), salt 20.
        let der: [UInt8] = [0x30, 0x11, 0xa0, 0x0f, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00]
        let parameters = try RSAPSSParameters.parse(try DERWalker.parse(der))
        #expect(parameters == RSAPSSParameters(hash: .sha256, maskHash: .sha1, saltLength: 20))
        #expect(try RSAPSSParameters.parse(nil) == RSAPSSParameters(hash: .sha1, maskHash: .sha1, saltLength: 20))
        // maskGenAlgorithm that is not MGF1 (1.2.3.4): unusable, so the signature algorithm says why as data, not a crash.
        let otherMGF: [UInt8] = [0x30, 0x09, 0xa1, 0x07, 0x30, 0x05, 0x06, 0x03, 0x2a, 0x03, 0x04]
        #expect(try SignatureAlgorithm.pssParameters(try DERWalker.parse(otherMGF)) == .rsaPSSUnusable(.maskGenerationFunction(oid: "1.2.3.4")))
    }

    @Test func unusableParametersAreTypedData() throws {
        // SEQUENCE { [3] { INTEGER 2 } }: RFC 4055 §3.1 defines trailerField 1 only.
        let trailer: [UInt8] = [0x30, 0x05, 0xa3, 0x03, 0x02, 0x01, 0x02]
        #expect(throws: RSAPSSParameters.Unsupported.trailerField(2)) { try RSAPSSParameters.parse(try DERWalker.parse(trailer)) }
        // SEQUENCE { [0] { SEQUENCE { id-sha224 } } }: a hash TLSLab does not implement.
        let sha224: [UInt8] = [0x30, 0x0f, 0xa0, 0x0d, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04]
        #expect(throws: RSAPSSParameters.Unsupported.hashAlgorithm(oid: "2.16.840.1.101.3.4.2.4")) { try RSAPSSParameters.parse(try DERWalker.parse(sha224)) }
        // SEQUENCE { [1] { SEQUENCE { id-mgf1, SEQUENCE { id-sha224 } } } }: MGF1 over an unimplemented hash.
        let mgfSHA224: [UInt8] = [0x30, 0x1c, 0xa1, 0x1a, 0x30, 0x18, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08,
                                  0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04]
        #expect(throws: RSAPSSParameters.Unsupported.maskGenerationHash(oid: "2.16.840.1.101.3.4.2.4")) { try RSAPSSParameters.parse(try DERWalker.parse(mgfSHA224)) }
    }

    @Test func keyRestrictionIsEnforced() {
        let leaf = PKIFixtures.cert("leaf-pss-violates")
        #expect(leaf.signatureAlgorithm == .rsaPSS(RSAPSSParameters(hash: .sha384, maskHash: .sha384, saltLength: 48)))
        let restricted = PKIFixtures.cert("int-pss-restricted").publicKey
        let check = SignatureCheck.verify(tbs: leaf.tbsDER, signature: leaf.signatureValue, algorithm: leaf.signatureAlgorithm,
                                          issuerKey: restricted)
        #expect(!check.passed)
        guard case .pssKeyRestrictionViolated(_, _, let violations) = check.outcome else {
            Issue.record("\(check.outcome)")
            return
        }
        #expect(violations.contains(.hash(used: .sha384, allowed: .sha256)))
        // A salt shorter than the key's minimum is refused before any arithmetic; a longer one would be allowed.
        let good = PKIFixtures.cert("leaf-under-pss-restricted")
        let shortSalt = SignatureCheck.verify(tbs: good.tbsDER, signature: good.signatureValue,
                                              algorithm: .rsaPSS(RSAPSSParameters(hash: .sha256, saltLength: 20)), issuerKey: restricted)
        #expect(!shortSalt.passed)
        guard case .pssKeyRestrictionViolated(_, _, let saltViolations) = shortSalt.outcome else {
            Issue.record("\(shortSalt.outcome)")
            return
        }
        #expect(saltViolations == [.saltTooShort(used: 20, minimum: 32)])
        #expect(RSAPSSParameters(hash: .sha256, saltLength: 64).violation(ofKeyRestriction: RSAPSSParameters(hash: .sha256, saltLength: 32)) == nil)
        // A PSS key never verifies a PKCS#1 v1.5 signature (RFC 4055 §1.2).
        let v15 = PKIFixtures.cert("leaf")
        #expect(!SignatureCheck.verify(tbs: v15.tbsDER, signature: v15.signatureValue, algorithm: v15.signatureAlgorithm,
                                       issuerKey: PKIFixtures.cert("int-pss").publicKey).passed)
    }

    @Test func ourEMSAPSSAgreesWithTLSCrypto() throws {
        // Same hash for message and MGF1: the PKI verifier and RSAPublicKey.verifyPSS must agree, tampered or not.
        for name in ["leaf-pss", "leaf-under-pss", "leaf-under-pss-restricted"] {
            let leaf = PKIFixtures.cert(name)
            let issuerName = name == "leaf-pss" ? "int" : (name == "leaf-under-pss" ? "int-pss" : "int-pss-restricted")
            let key = try RSAPublicKey(pkcs1DER: PKIFixtures.cert(issuerName).publicKey.rawKey)
            guard case .rsaPSS(let p) = leaf.signatureAlgorithm else { Issue.record("\(name) is not PSS"); continue }
            var tbs = leaf.tbsDER
            for tamper in [false, true] {
                if tamper { tbs[10] ^= 0x40 }
                let ours = SignatureCheck.verifyPSS(key: key, signature: leaf.signatureValue, message: tbs, parameters: p).passed
                let theirs = key.verifyPSS(signature: leaf.signatureValue, message: tbs, hash: p.hash, saltLength: p.saltLength)
                #expect(ours == theirs && ours == !tamper, "\(name) tampered \(tamper)")
            }
        }
    }
}
