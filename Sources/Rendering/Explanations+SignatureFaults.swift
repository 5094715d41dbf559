import PKI
import TLSCrypto

/// A certificate signature's algorithm, RSA-PSS parameters, key kind and the faults of a PKCS#1 v1.5
/// block or an issuer's RSA key, worded from typed data (issue #34: PKI and TLSCrypto hold the facts,
/// no sentence); the English here, the Chinese in `Explanations+zhSignatureFaults.swift`.
extension Explanations {
    /// A signature algorithm by its ASN.1 name ("sha256WithRSAEncryption", "ecdsa-with-SHA256"), with
    /// RSA-PSS's parameters worded and an unknown or unusable one said so.
    public func signatureAlgorithmName(_ algorithm: SignatureAlgorithm) -> String {
        switch algorithm {
        case .rsaPSS(let parameters): return say("signatureAlgorithm.rsaPSS", ["parameters": pssParameters(parameters)])
        case .rsaPSSUnusable: return say("signatureAlgorithm.rsaPSSUnusable")
        case .unknown(let oid): return say("signatureAlgorithm.unknown", ["oid": oid])
        case .rsaPKCS1v15, .ecdsa, .ed25519: return "\(algorithm)"
        }
    }

    /// RSASSA-PSS parameters (RFC 4055 §3.1): hash, MGF1's hash, salt length.
    public func pssParameters(_ parameters: RSAPSSParameters) -> String {
        say("pss.parameters", ["hash": "\(parameters.hash)", "maskHash": "\(parameters.maskHash)", "salt": "\(parameters.saltLength)"])
    }

    /// A public key's kind ("RSA", "EC P-256"); a key algorithm TLSLab does not know by its OID.
    public func keyKindName(_ kind: SubjectPublicKeyInfo.KeyKind) -> String {
        guard case .other(let oid) = kind else { return "\(kind)" }
        return say("keyKind.other", ["oid": oid])
    }

    /// Why signature^e mod n is not a PKCS#1 v1.5 block (RFC 8017 §8.2.2, §9.2).
    public func signatureBlockFault(_ fault: RSASignatureBlock.Fault) -> String {
        switch fault {
        case let .signatureLength(bytes, modulus): return say("pkcs1Block.signatureLength", ["bytes": "\(bytes)", "modulus": "\(modulus)"])
        case .representativeOutOfRange: return say("pkcs1Block.representativeOutOfRange")
        case .notBlockType1: return say("pkcs1Block.notBlockType1")
        case .noZeroSeparator: return say("pkcs1Block.noZeroSeparator")
        case .shortPadding(let count): return say("pkcs1Block.shortPadding", ["count": "\(count)"])
        case .malformedDigestInfo: return say("pkcs1Block.malformedDigestInfo")
        }
    }

    /// Why the issuer's RSA key cannot verify: its encoding, its numbers, or the public operation.
    public func issuerRSAKeyFault(_ error: RSAError) -> String {
        switch error {
        case .invalidKeyEncoding: return say("rsaKeyFault.encoding")
        case .invalidKey: return say("rsaKeyFault.numbers")
        default: return say("rsaKeyFault.operation")
        }
    }

    private func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }

    static let englishSignatureFaults: [String: String] = [
        "signatureAlgorithm.rsaPSS": "RSASSA-PSS({parameters})",
        "signatureAlgorithm.rsaPSSUnusable": "RSASSA-PSS (with parameters TLSLab cannot use)",
        "signatureAlgorithm.unknown": "unknown({oid})",
        "pss.parameters": "{hash}, MGF1-{maskHash}, salt {salt}",
        "keyKind.other": "key {oid}",
        "signature.pssParametersUnusable": "this RSASSA-PSS signature cannot be verified: {why}",
        "pkcs1Block.signatureLength": "the signature is {bytes} bytes, the modulus {modulus} (RFC 8017 §8.2.2 step 1)",
        "pkcs1Block.representativeOutOfRange": "the signature, as a number, is not below the modulus (RFC 8017 §5.2.2 step 1)",
        "pkcs1Block.notBlockType1": "the block does not start with 00 01 (RFC 8017 §9.2 step 5)",
        "pkcs1Block.noZeroSeparator": "the FF padding is not followed by a 00 byte (RFC 8017 §9.2 step 5)",
        "pkcs1Block.shortPadding": "the FF padding is {count} bytes, fewer than the 8 RFC 8017 §9.2 step 4 requires",
        "pkcs1Block.malformedDigestInfo": "what follows the 00 byte is not a DER DigestInfo (RFC 8017 §9.2 step 2)",
        "rsaKeyFault.encoding": "its subjectPublicKey is not a DER RSAPublicKey (RFC 8017 §A.1.1)",
        "rsaKeyFault.numbers": "its modulus or public exponent is not one TLSLab accepts (RFC 8017 §3.1: n odd, 3 ≤ e < n, e odd; n of 256 to 16,384 bits)",
        "rsaKeyFault.operation": "the RSA public operation with it failed (RFC 8017 §5.2.2)",
    ]
}
