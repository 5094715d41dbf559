import SwiftASN1

/// `DigestInfo ::= SEQUENCE { digestAlgorithm DigestAlgorithmIdentifier, digest OCTET STRING }`
/// (RFC 8017 §9.2, Appendix A.2.4), as found inside a PKCS#1 v1.5 signature.
struct DigestInfo: Sendable, Equatable {
    /// The algorithm OID, dotted.
    let algorithm: String
    /// The hash the OID names, when it is one we know.
    let hash: HashAlgorithm?
    let digest: [UInt8]

    init(derEncoded bytes: [UInt8]) throws(RSAError) {
        do {
            let root = try DER.parse(bytes)
            let (identifier, digest) = try DER.sequence(root, identifier: .sequence) { nodes in
                let identifier = try AlgorithmIdentifier(from: &nodes)
                let digest = try ASN1OctetString(derEncoded: &nodes)
                return (identifier, digest)
            }
            guard identifier.parametersAreNullOrAbsent else {
                throw RSAError.invalidSignatureEncoding("unexpected digest algorithm parameters")
            }
            algorithm = identifier.oid
            hash = HashAlgorithm.allCases.first { $0.objectIdentifier == identifier.oid }
            self.digest = Array(digest.bytes)
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidSignatureEncoding("DigestInfo is not valid DER: \(error)")
        }
    }
}
