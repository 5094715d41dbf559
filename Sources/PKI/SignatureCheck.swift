import Crypto
import TLSCrypto

/// The signature check of one chain link, as it is usually taught: Hash1 = digest of the
/// TBSCertificate, Hash2 = the digest recovered from signatureValue with the issuer's public key;
/// valid iff they are equal. RFC 8017 §8.2.2 (PKCS#1 v1.5), §8.1.2 (PSS). An ECDSA link has no
/// Hash2: signatureValue is Ecdsa-Sig-Value (r, s) (RFC 5758 §3.2, RFC 3279 §2.2.3), and the
/// verification equation takes Hash1, r, s and the issuer's point (FIPS 186-5 §6.4.2).
public struct SignatureCheck: Sendable, Equatable {
    public let algorithm: SignatureAlgorithm
    /// Hash1: digest(TBSCertificate) under the algorithm's hash (empty when the hash is unknown).
    public let hash1: [UInt8]
    /// Hash2: the digest recovered from the signature (PKCS#1 v1.5 only).
    public let hash2: [UInt8]?
    /// The decoded EM block and DigestInfo (PKCS#1 v1.5 only).
    public let recoveredBlock: RSASignatureBlock?
    /// ECDSA only: the signature's two integers r and s (big-endian, no sign octet), the inputs of
    /// the verification equation besides Hash1 and the issuer's public key.
    public let ecdsaR: [UInt8]?
    public let ecdsaS: [UInt8]?
    public let passed: Bool
    /// What the verification found (why Hash2 is absent for PSS/ECDSA, why a check failed), as
    /// facts for the renderers to word.
    public let outcome: Outcome

    /// Verifies `tbs` + `signature` under `algorithm` with the issuer's SubjectPublicKeyInfo.
    public static func verify(tbs: [UInt8], signature: [UInt8], algorithm: SignatureAlgorithm,
                              issuerKey: SubjectPublicKeyInfo) -> SignatureCheck {
        let hash1 = algorithm.hash?.digest(tbs) ?? []
        func result(_ passed: Bool, _ outcome: Outcome, hash2: [UInt8]? = nil, block: RSASignatureBlock? = nil,
                    rs: (r: [UInt8], s: [UInt8])? = nil) -> SignatureCheck {
            SignatureCheck(algorithm: algorithm, hash1: hash1, hash2: hash2, recoveredBlock: block, ecdsaR: rs?.r, ecdsaS: rs?.s,
                           passed: passed, outcome: outcome)
        }
        switch algorithm {
        case .rsaPKCS1v15(let hash):
            guard issuerKey.kind == .rsa else { return result(false, .issuerKeyIsNot(.rsa, issuerKey: issuerKey.kind)) }
            let key: RSAPublicKey
            do { key = try RSAPublicKey(subjectPublicKeyInfoDER: issuerKey.der) } catch {
                return result(false, .issuerRSAKeyUnusable(error))
            }
            let block: RSASignatureBlock
            do { block = try key.recoverPKCS1v15(signature: signature) } catch {
                switch error {
                case .invalidSignatureBlock(let fault): return result(false, .noValidPKCS1Block(fault))
                case let .wrongLength(expected, actual):
                    return result(false, .noValidPKCS1Block(.signatureLength(bytes: actual, modulusBytes: expected)))
                case .representativeOutOfRange: return result(false, .noValidPKCS1Block(.representativeOutOfRange))
                default: return result(false, .issuerRSAKeyUnusable(error))
                }
            }
            guard block.hash == hash else {
                return result(false, .digestInfoNamesOtherHash(named: block.hash, algorithmSays: hash), hash2: block.digest, block: block)
            }
            let same = block.digest == hash1
            return result(same, same ? .hashesEqual : .hashesDiffer, hash2: block.digest, block: block)
        case .rsaPSS(let parameters):
            guard issuerKey.kind == .rsa || issuerKey.kind == .rsaPSS else {
                return result(false, .issuerKeyIsNot(.rsa, issuerKey: issuerKey.kind))
            }
            if let why = issuerKey.unusableReason { return result(false, .issuerKeyUnusable(why)) }
            // RFC 4055 §3.3: an id-RSASSA-PSS key with parameters signs only with that hash and MGF
            // and at least that salt (OpenSSL: "certificate signature failure").
            if let restriction = issuerKey.pssRestriction, let violation = parameters.violation(ofKeyRestriction: restriction) {
                return result(false, .pssKeyRestrictionViolated(restriction: restriction, used: parameters, violations: violation))
            }
            // The SubjectPublicKeyInfo names rsaEncryption or id-RSASSA-PSS; the key inside is the
            // same PKCS#1 RSAPublicKey either way (RFC 4055 §1.2).
            let key: RSAPublicKey
            do { key = try RSAPublicKey(pkcs1DER: issuerKey.rawKey) } catch {
                return result(false, .issuerRSAKeyUnusable(error))
            }
            let (ok, failure) = verifyPSS(key: key, signature: signature, message: tbs, parameters: parameters)
            return result(ok, .pss(failure: failure))
        case .ecdsa(let hash):
            guard case .ec(let curve) = issuerKey.kind else { return result(false, .issuerKeyIsNot(.ec, issuerKey: issuerKey.kind)) }
            guard let rs = ecdsaIntegers(signature) else {
                return result(false, .ecdsaSignatureMalformed)
            }
            let ok = ecdsaVerify(curve: curve, spki: issuerKey.der, signature: signature, tbs: tbs, hash: hash)
            return result(ok, .ecdsa(verified: ok), rs: rs)
        case .ed25519:
            guard issuerKey.kind == .ed25519, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: issuerKey.rawKey) else {
                return result(false, .issuerKeyIsNot(.ed25519, issuerKey: issuerKey.kind))
            }
            let ok = key.isValidSignature(signature, for: tbs)
            return result(ok, .ed25519(verified: ok))
        case .rsaPSSUnusable(let why):
            return result(false, .pssParametersUnusable(why))
        case .unknown(let oid):
            return result(false, .unsupportedAlgorithm(oid: oid))
        }
    }

    /// Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (RFC 3279 §2.2.3): r and s without
    /// the sign octet, or nil when the DER is not that shape or a value is not positive.
    static func ecdsaIntegers(_ signature: [UInt8]) -> (r: [UInt8], s: [UInt8])? {
        guard let node = try? DERWalker.parse(signature), let parts = try? DERWalker.sequence(node, "Ecdsa-Sig-Value"),
              parts.count == 2, let r = try? DERWalker.integerBytes(parts[0], "r"), let s = try? DERWalker.integerBytes(parts[1], "s"),
              r[0] & 0x80 == 0, s[0] & 0x80 == 0 else { return nil }
        func magnitude(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.drop { $0 == 0 }) }
        let (mr, ms) = (magnitude(r), magnitude(s))
        guard !mr.isEmpty, !ms.isEmpty else { return nil }
        return (mr, ms)
    }

    private static func ecdsaVerify(curve: String, spki: [UInt8], signature: [UInt8], tbs: [UInt8], hash: HashAlgorithm) -> Bool {
        switch curve {
        case "P-256":
            guard let key = try? P256.Signing.PublicKey(derRepresentation: spki),
                  let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return verify(hash: hash, tbs: tbs) { key.isValidSignature(sig, for: $0) }
        case "P-384":
            guard let key = try? P384.Signing.PublicKey(derRepresentation: spki),
                  let sig = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return verify(hash: hash, tbs: tbs) { key.isValidSignature(sig, for: $0) }
        case "P-521":
            guard let key = try? P521.Signing.PublicKey(derRepresentation: spki),
                  let sig = try? P521.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return verify(hash: hash, tbs: tbs) { key.isValidSignature(sig, for: $0) }
        default:
            return false
        }
    }

    private static func verify(hash: HashAlgorithm, tbs: [UInt8], _ check: (any Digest) -> Bool) -> Bool {
        switch hash {
        case .sha256: return check(SHA256.hash(data: tbs))
        case .sha384: return check(SHA384.hash(data: tbs))
        case .sha512: return check(SHA512.hash(data: tbs))
        case .sha1: return check(Insecure.SHA1.hash(data: tbs))
        case .md5: return false
        }
    }
}
