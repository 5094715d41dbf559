import BigNum
import SwiftASN1

extension RSAPublicKey {
    /// PKCS#1 `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }` (RFC 8017 Appendix A.1.1).
    public init(pkcs1DER: [UInt8]) throws(RSAError) {
        let (n, e): (BigInt, BigInt)
        do {
            (n, e) = try Self.parsePKCS1(try DER.parse(pkcs1DER))
        } catch {
            throw .invalidDER("RSAPublicKey: \(error)")
        }
        try self.init(modulus: n, publicExponent: e)
    }

    /// `SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }`
    /// (RFC 5280 §4.1.2.7) holding rsaEncryption with NULL parameters and a PKCS#1 RSAPublicKey
    /// (RFC 3279 §2.3.1).
    public init(subjectPublicKeyInfoDER der: [UInt8]) throws(RSAError) {
        let algorithm: AlgorithmIdentifier
        let key: [UInt8]
        do {
            (algorithm, key) = try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
                let algorithm = try AlgorithmIdentifier(from: &nodes)
                let bits = try ASN1BitString(derEncoded: &nodes)
                guard bits.paddingBits == 0 else {
                    throw ASN1Error.invalidASN1Object(reason: "subjectPublicKey has unused bits")
                }
                return (algorithm, Array(bits.bytes))
            }
        } catch {
            throw .invalidDER("SubjectPublicKeyInfo: \(error)")
        }
        guard algorithm.oid == AlgorithmIdentifier.rsaEncryptionOID else { throw .unsupportedAlgorithm(algorithm.oid) }
        guard algorithm.parametersAreNullOrAbsent else { throw .invalidDER("rsaEncryption parameters must be NULL") }
        try self.init(pkcs1DER: key)
    }

    /// A PEM "PUBLIC KEY" (SubjectPublicKeyInfo) or "RSA PUBLIC KEY" (PKCS#1) document (RFC 7468 §13);
    /// the first such block in the text is used.
    public init(pem: String) throws(RSAError) {
        let document = try PEMKeyDocument.first(in: pem, accepting: ["PUBLIC KEY", "RSA PUBLIC KEY"])
        if document.discriminator == "PUBLIC KEY" {
            try self.init(subjectPublicKeyInfoDER: document.derBytes)
        } else {
            try self.init(pkcs1DER: document.derBytes)
        }
    }

    /// The PKCS#1 RSAPublicKey DER.
    public var pkcs1DER: [UInt8] {
        DERWriter.sequence([DERWriter.unsignedInteger(modulus.bigEndianBytes),
                            DERWriter.unsignedInteger(publicExponent.bigEndianBytes)])
    }

    /// The SubjectPublicKeyInfo DER (what a certificate carries and what public-key pins hash).
    public var subjectPublicKeyInfoDER: [UInt8] {
        DERWriter.sequence([DERWriter.rsaEncryptionAlgorithm, DERWriter.bitString(pkcs1DER)])
    }

    /// SubjectPublicKeyInfo as a PEM "PUBLIC KEY" document.
    public var pem: String { PEMDocument(type: "PUBLIC KEY", derBytes: subjectPublicKeyInfoDER).pemString }

    /// Reads the two INTEGERs of a PKCS#1 RSAPublicKey.
    static func parsePKCS1(_ node: ASN1Node) throws -> (BigInt, BigInt) {
        try DER.sequence(node, identifier: .sequence) { nodes in
            let n = try ArraySlice<UInt8>(derEncoded: &nodes)
            let e = try ArraySlice<UInt8>(derEncoded: &nodes)
            return (BigInt(bigEndian: n), BigInt(bigEndian: e))
        }
    }
}

/// Picks the key block out of PEM text (RFC 7468) with swift-asn1's `PEMDocument`.
enum PEMKeyDocument {
    static func first(in text: String, accepting labels: Set<String>) throws(RSAError) -> PEMDocument {
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw .invalidPEM("\(error)")
        }
        guard let document = documents.first(where: { labels.contains($0.discriminator) }) else {
            let found = documents.map(\.discriminator).joined(separator: ", ")
            throw .invalidPEM("no \(labels.sorted().joined(separator: " or ")) block (found: \(found.isEmpty ? "none" : found))")
        }
        return document
    }
}
