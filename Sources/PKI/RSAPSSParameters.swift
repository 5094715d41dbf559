import SwiftASN1
import TLSCrypto

/// RSASSA-PSS-params (RFC 4055 §3.1, RFC 8017 Appendix A.2.3): the message hash, the MGF1 hash,
/// the salt length and the trailer field. In a signature's AlgorithmIdentifier they say how the
/// signature was made; in an id-RSASSA-PSS SubjectPublicKeyInfo they restrict what the key may sign
/// (RFC 4055 §3.3: same hash and MGF, salt at least `saltLength`).
public struct RSAPSSParameters: Sendable, Hashable, CustomStringConvertible {
    public static let oid = "1.2.840.113549.1.1.10"
    static let mgf1OID = "1.2.840.113549.1.1.8"

    public var hash: HashAlgorithm
    /// The hash MGF1 runs (maskGenAlgorithm [1]); it may differ from `hash`.
    public var maskHash: HashAlgorithm
    public var saltLength: Int

    /// The RFC 4055 defaults: SHA-1, MGF1 with SHA-1, salt 20, trailer 1.
    public init(hash: HashAlgorithm = .sha1, maskHash: HashAlgorithm? = nil, saltLength: Int = 20) {
        self.hash = hash
        self.maskHash = maskHash ?? hash
        self.saltLength = saltLength
    }

    public var description: String {
        "\(hash), MGF1-\(maskHash), salt \(saltLength)"
    }

    /// Well-formed parameters TLSLab cannot verify with (RFC 4055 §3.1), as data: the catalogue words them.
    public enum Unsupported: Error, Sendable, Hashable, CustomStringConvertible {
        /// maskGenAlgorithm names a function other than id-mgf1, the only one RFC 4055 §3.1 defines.
        case maskGenerationFunction(oid: String)
        /// trailerField other than 1, the only value RFC 4055 §3.1 defines (trailerFieldBC, 0xBC).
        case trailerField(Int)
        /// hashAlgorithm names a hash TLSLab does not implement.
        case hashAlgorithm(oid: String)
        /// MGF1's hash names a hash TLSLab does not implement.
        case maskGenerationHash(oid: String)

        /// The offending field as RFC 4055's ASN.1 names it, with its value (data, not a sentence).
        public var description: String {
            switch self {
            case .maskGenerationFunction(let oid): return "maskGenAlgorithm=\(oid)"
            case .trailerField(let value): return "trailerField=\(value)"
            case .hashAlgorithm(let oid): return "hashAlgorithm=\(oid)"
            case .maskGenerationHash(let oid): return "maskGenAlgorithm.mgf1.hashAlgorithm=\(oid)"
            }
        }
    }

    /// Parses RSASSA-PSS-params; `nil` (absent parameters) gives the defaults. Throws `PKIError`
    /// for malformed DER, `Unsupported` for well-formed parameters we cannot verify with.
    static func parse(_ node: ASN1Node?) throws -> RSAPSSParameters {
        var parameters = RSAPSSParameters()
        var maskHash: HashAlgorithm?
        guard let node else { return parameters }
        for field in try DERWalker.sequence(node, "RSASSA-PSS-params") {
            guard field.identifier.tagClass == .contextSpecific else {
                throw PKIError.malformedCertificate(.unexpectedTag(field: "RSASSA-PSS-params", tag: nil))
            }
            let inner = try DERWalker.children(field, "PSS field")
            guard inner.count == 1, let value = inner.first else { throw PKIError.malformedCertificate(.wrongElementCount(field: "RSASSA-PSS-params")) }
            switch field.identifier.tagNumber {
            case 0:
                parameters.hash = try hashAlgorithm(value, "PSS hashAlgorithm", unsupported: Unsupported.hashAlgorithm)
            case 1:
                // MaskGenAlgorithm ::= AlgorithmIdentifier { id-mgf1, HashAlgorithm }
                let mgf = try DERWalker.sequence(value, "PSS maskGenAlgorithm")
                guard let oidNode = mgf.first else { throw PKIError.malformedCertificate(.empty(field: "maskGenAlgorithm")) }
                let oid = try DERWalker.oid(oidNode, "mask generation function")
                guard oid == mgf1OID else { throw Unsupported.maskGenerationFunction(oid: oid) }
                guard mgf.count == 2 else { throw PKIError.malformedCertificate(.missing(field: "MGF1 hashAlgorithm")) }
                maskHash = try hashAlgorithm(mgf[1], "MGF1 hash", unsupported: Unsupported.maskGenerationHash)
            case 2:
                parameters.saltLength = try DERWalker.smallInteger(value, "PSS salt length")
                guard parameters.saltLength >= 0 else { throw PKIError.malformedCertificate(.invalidValue(field: "saltLength")) }
            case 3:
                let trailer = try DERWalker.smallInteger(value, "PSS trailerField")
                guard trailer == 1 else { throw Unsupported.trailerField(trailer) }
            default:
                throw PKIError.malformedCertificate(.unexpectedTag(field: "RSASSA-PSS-params", tag: field.identifier.tagNumber))
            }
        }
        // Absent [1] means MGF1 with SHA-1 (RFC 4055 §3.1), whatever [0] says.
        parameters.maskHash = maskHash ?? .sha1
        return parameters
    }

    private static func hashAlgorithm(_ node: ASN1Node, _ what: String, unsupported: (String) -> Unsupported) throws -> HashAlgorithm {
        let algorithm = try DERWalker.sequence(node, what)
        guard let oidNode = algorithm.first else { throw PKIError.malformedCertificate(.empty(field: what)) }
        let oid = try DERWalker.oid(oidNode, what)
        guard let hash = SignatureAlgorithm.hashOID(oid) else { throw unsupported(oid) }
        return hash
    }

    /// Why a signature made with `self` may not come from a key restricted to `key` (RFC 4055 §3.3), or nil.
    func violation(ofKeyRestriction key: RSAPSSParameters) -> [SignatureCheck.PSSRestrictionViolation]? {
        var problems: [SignatureCheck.PSSRestrictionViolation] = []
        if hash != key.hash { problems.append(.hash(used: hash, allowed: key.hash)) }
        if maskHash != key.maskHash { problems.append(.maskHash(used: maskHash, allowed: key.maskHash)) }
        if saltLength < key.saltLength { problems.append(.saltTooShort(used: saltLength, minimum: key.saltLength)) }
        return problems.isEmpty ? nil : problems
    }
}
