import SwiftASN1

/// SubjectPublicKeyInfo (RFC 5280 §4.1.2.7): the original DER — what a public-key pin hashes —
/// plus the algorithm and key size.
public struct SubjectPublicKeyInfo: Sendable, Hashable {
    /// The key kinds TLSLab recognises (RFC 3279, RFC 4055, RFC 5480, RFC 8410).
    public enum KeyKind: Sendable, Hashable, CustomStringConvertible {
        case rsa
        case rsaPSS
        case ec(curve: String)
        case ed25519
        case other(oid: String)

        public var description: String {
            switch self {
            case .rsa: return "RSA"
            case .rsaPSS: return "RSA-PSS"
            case .ec(let curve): return "EC \(curve)"
            case .ed25519: return "Ed25519"
            case .other(let oid): return "key \(oid)"
            }
        }
    }

    /// The complete SubjectPublicKeyInfo SEQUENCE as it appeared in the certificate.
    public let der: [UInt8]
    public let algorithmOID: String
    public let kind: KeyKind
    /// Key size in bits: RSA modulus length, EC field size.
    public let keyBits: Int
    /// The subjectPublicKey BIT STRING content (RSAPublicKey DER for RSA, the point for EC).
    public let rawKey: [UInt8]
    /// For an id-RSASSA-PSS key (RFC 4055 §1.2): the RSASSA-PSS-params that restrict what it may
    /// sign (RFC 4055 §3.3); nil when the parameters are absent (any PSS signature allowed).
    public let pssRestriction: RSAPSSParameters?
    /// Why the key cannot verify anything (unsupported PSS key parameters), or nil.
    public let unusableReason: RSAPSSParameters.Unsupported?

    init(node: ASN1Node) throws(PKIError) {
        der = Array(node.encodedBytes)
        let parts = try DERWalker.sequence(node, "SubjectPublicKeyInfo")
        guard parts.count == 2 else { throw .malformedCertificate(.wrongElementCount(field: "SubjectPublicKeyInfo")) }
        let algorithm = try DERWalker.sequence(parts[0], "AlgorithmIdentifier")
        guard let first = algorithm.first else { throw .malformedCertificate(.empty(field: "AlgorithmIdentifier")) }
        algorithmOID = try DERWalker.oid(first, "key algorithm")
        rawKey = try DERWalker.bitString(parts[1], "subjectPublicKey").bytes
        var restriction: RSAPSSParameters?
        var unusable: RSAPSSParameters.Unsupported?
        if algorithmOID == RSAPSSParameters.oid, algorithm.count > 1 {
            do {
                restriction = try RSAPSSParameters.parse(algorithm[1])
            } catch let error as PKIError {
                throw error
            } catch let why as RSAPSSParameters.Unsupported {
                unusable = why
            } catch {
                throw .malformedCertificate(.invalidValue(field: "RSASSA-PSS-params"))
            }
        }
        pssRestriction = restriction
        unusableReason = unusable
        switch algorithmOID {
        case "1.2.840.113549.1.1.1", "1.2.840.113549.1.1.10":
            kind = algorithmOID == "1.2.840.113549.1.1.1" ? .rsa : .rsaPSS
            let key = try DERWalker.sequence(try DERWalker.parse(rawKey), "RSAPublicKey")
            guard key.count == 2 else { throw .malformedCertificate(.wrongElementCount(field: "RSAPublicKey")) }
            var modulus = try DERWalker.integerBytes(key[0], "modulus")
            while modulus.first == 0 { modulus.removeFirst() }
            guard let top = modulus.first else { throw .malformedCertificate(.invalidValue(field: "modulus")) }
            keyBits = (modulus.count - 1) * 8 + (8 - top.leadingZeroBitCount)
        case "1.2.840.10045.2.1":
            guard algorithm.count == 2, algorithm[1].identifier == .objectIdentifier else {
                throw .malformedCertificate(.missing(field: "namedCurve"))
            }
            let curveOID = try DERWalker.oid(algorithm[1], "namedCurve")
            switch curveOID {
            case "1.2.840.10045.3.1.7": kind = .ec(curve: "P-256"); keyBits = 256
            case "1.3.132.0.34": kind = .ec(curve: "P-384"); keyBits = 384
            case "1.3.132.0.35": kind = .ec(curve: "P-521"); keyBits = 521
            case "1.3.132.0.10": kind = .ec(curve: "secp256k1"); keyBits = 256
            default: kind = .ec(curve: curveOID); keyBits = 0
            }
        case "1.3.101.112":
            kind = .ed25519; keyBits = 256
        default:
            kind = .other(oid: algorithmOID); keyBits = 0
        }
    }
}
