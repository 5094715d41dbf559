import SwiftASN1

/// `AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }`
/// (RFC 5280 §4.1.1.2), read only as far as the RSA key and DigestInfo formats need.
struct AlgorithmIdentifier: Sendable, Equatable {
    /// rsaEncryption, RFC 8017 Appendix A.1.
    static let rsaEncryptionOID = "1.2.840.113549.1.1.1"

    /// The dotted OID.
    let oid: String
    /// True when the parameters are absent or an ASN.1 NULL.
    let parametersAreNullOrAbsent: Bool

    /// Reads one AlgorithmIdentifier from `nodes`, consuming every child (NULL parameters included).
    init(from nodes: inout ASN1NodeCollection.Iterator) throws {
        guard let node = nodes.next() else {
            throw ASN1Error.invalidASN1Object(reason: "missing AlgorithmIdentifier")
        }
        (oid, parametersAreNullOrAbsent) = try DER.sequence(node, identifier: .sequence) { inner in
            let oid = try ASN1ObjectIdentifier(derEncoded: &inner)
            var nullOrAbsent = true
            if let parameters = inner.next() {
                nullOrAbsent = parameters.identifier == .null
                    && (try? ASN1Null(derEncoded: parameters)) != nil
            }
            return (oid.description, nullOrAbsent)
        }
    }
}
