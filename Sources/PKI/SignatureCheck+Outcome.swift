import TLSCrypto

extension SignatureCheck {
    /// The key family a signature algorithm needs.
    public enum KeyFamily: String, Sendable, Hashable {
        case rsa, ec, ed25519
    }

    /// What a signature verification found (RFC 8017 §8.1.2, §8.2.2; FIPS 186-5 §6.4.2; RFC 8032 §5.1.7).
    public enum Outcome: Sendable, Equatable {
        /// PKCS#1 v1.5: Hash1 == Hash2.
        case hashesEqual
        /// PKCS#1 v1.5: Hash1 != Hash2 — the signature does not match the TBSCertificate.
        case hashesDiffer
        /// PKCS#1 v1.5: the recovered DigestInfo names another hash (nil: one TLSLab does not know).
        case digestInfoNamesOtherHash(named: HashAlgorithm?, algorithmSays: HashAlgorithm)
        /// PKCS#1 v1.5: signature^e mod n is not a valid `00 01 FF… 00 DigestInfo` block (the step
        /// of RFC 8017 §8.2.2 / §9.2 that failed, as data).
        case noValidPKCS1Block(RSASignatureBlock.Fault)
        /// The algorithm needs a key of `family`; the issuer's is `issuerKey`.
        case issuerKeyIsNot(KeyFamily, issuerKey: SubjectPublicKeyInfo.KeyKind)
        /// The issuer's RSA key does not decode.
        case issuerRSAKeyUnusable(RSAError)
        /// The issuer's key cannot verify anything (the certificate parser's account of its parameters).
        case issuerKeyUnusable(RSAPSSParameters.Unsupported)
        /// RFC 4055 §3.3: the issuer's RSA-PSS key is restricted to `restriction`; the signature uses `used`.
        case pssKeyRestrictionViolated(restriction: RSAPSSParameters, used: RSAPSSParameters, violations: [PSSRestrictionViolation])
        /// RSASSA-PSS: verified when `failure` is nil, else the EMSA-PSS-VERIFY step that failed.
        case pss(failure: PSSFailure?)
        /// The signatureValue is not an Ecdsa-Sig-Value of two positive INTEGERs (RFC 3279 §2.2.3).
        case ecdsaSignatureMalformed
        /// ECDSA: verify(Hash1, r, s) with the issuer's point.
        case ecdsa(verified: Bool)
        /// Ed25519 verification (RFC 8032 §5.1.7).
        case ed25519(verified: Bool)
        /// A signature algorithm TLSLab does not implement (its OID).
        case unsupportedAlgorithm(oid: String)
        /// RSASSA-PSS with parameters TLSLab cannot verify with (RFC 4055 §3.1).
        case pssParametersUnusable(RSAPSSParameters.Unsupported)
    }

    /// How a PSS signature breaks its key's restriction (RFC 4055 §3.3).
    public enum PSSRestrictionViolation: Sendable, Hashable {
        case hash(used: HashAlgorithm, allowed: HashAlgorithm)
        case maskHash(used: HashAlgorithm, allowed: HashAlgorithm)
        case saltTooShort(used: Int, minimum: Int)
    }

    /// The step of RSASSA-PSS-VERIFY / EMSA-PSS-VERIFY (RFC 8017 §8.1.2, §9.1.2) that failed.
    public enum PSSFailure: Sendable, Hashable {
        /// §8.1.2 step 1: the signature is not exactly as long as the modulus.
        case signatureLength(bytes: Int, modulusBytes: Int)
        /// §8.1.2 step 2: the signature representative is not below the modulus.
        case representativeOutOfRange
        /// §8.1.2 step 2c: s^e mod n does not fit in emLen bytes.
        case messageRepresentativeTooLong(emLen: Int)
        /// §9.1.2 step 3: emLen < hLen + sLen + 2.
        case modulusTooShort(hash: HashAlgorithm, saltLength: Int)
        /// §9.1.2 step 4: EM does not end in 0xbc.
        case noTrailerByte
        /// §9.1.2 step 6: the leftmost bits of EM are not zero.
        case leftmostBitsNotZero
        /// §9.1.2 step 10: DB is not PS ‖ 0x01 ‖ salt (wrong key, MGF1 hash or salt length).
        case dataBlockMalformed
        /// §9.1.2 step 14: H ≠ Hash(0x00×8 ‖ Hash1 ‖ salt).
        case hashMismatch
    }
}
