import BigNum
import SwiftASN1

extension RSAPrivateKey {
    /// PKCS#1 `RSAPrivateKey ::= SEQUENCE { version, modulus, publicExponent, privateExponent, prime1,
    /// prime2, exponent1, exponent2, coefficient, otherPrimeInfos OPTIONAL }` (RFC 8017 Appendix A.1.2).
    /// Only two-prime keys (version 0) are supported.
    public init(pkcs1DER der: [UInt8]) throws(RSAError) {
        let values: [BigInt]
        do {
            values = try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
                let version = try Int(derEncoded: &nodes)
                guard version == 0 else {
                    throw RSAError.invalidDER("RSAPrivateKey version \(version) (multi-prime keys are not supported)")
                }
                var values: [BigInt] = []
                for _ in 0..<8 { values.append(BigInt(bigEndian: try ArraySlice<UInt8>(derEncoded: &nodes))) }
                return values
            }
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidDER("RSAPrivateKey: \(error)")
        }
        guard values.count == 8 else { throw .invalidDER("RSAPrivateKey: missing fields") }
        try self.init(modulus: values[0], publicExponent: values[1], privateExponent: values[2],
                      prime1: values[3], prime2: values[4], exponent1: values[5], exponent2: values[6],
                      coefficient: values[7])
    }

    /// PKCS#8 `PrivateKeyInfo ::= SEQUENCE { version, privateKeyAlgorithm AlgorithmIdentifier,
    /// privateKey OCTET STRING, attributes [0] OPTIONAL }` (RFC 5208 §5; RFC 5958 §2 adds version 1 and
    /// `publicKey [1]`, both accepted and ignored) holding rsaEncryption and a PKCS#1 RSAPrivateKey.
    public init(pkcs8DER der: [UInt8]) throws(RSAError) {
        let algorithm: AlgorithmIdentifier
        let inner: [UInt8]
        do {
            (algorithm, inner) = try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
                let version = try Int(derEncoded: &nodes)
                guard version == 0 || version == 1 else {
                    throw RSAError.invalidDER("PrivateKeyInfo version \(version)")
                }
                let algorithm = try AlgorithmIdentifier(from: &nodes)
                let key = try ASN1OctetString(derEncoded: &nodes)
                while nodes.next() != nil {}   // attributes [0], publicKey [1]: not needed
                return (algorithm, Array(key.bytes))
            }
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidDER("PrivateKeyInfo: \(error)")
        }
        guard algorithm.oid == AlgorithmIdentifier.rsaEncryptionOID else { throw .unsupportedAlgorithm(algorithm.oid) }
        guard algorithm.parametersAreNullOrAbsent else { throw .invalidDER("rsaEncryption parameters must be NULL") }
        try self.init(pkcs1DER: inner)
    }

    /// A PEM "PRIVATE KEY" (PKCS#8, `openssl genpkey`) or "RSA PRIVATE KEY" (PKCS#1,
    /// `openssl genrsa -traditional`) document (RFC 7468 §10); the first such block in the text is used.
    /// Encrypted keys are not supported.
    public init(pem: String) throws(RSAError) {
        let document = try PEMKeyDocument.first(in: pem, accepting: ["PRIVATE KEY", "RSA PRIVATE KEY"])
        if document.discriminator == "PRIVATE KEY" {
            try self.init(pkcs8DER: document.derBytes)
        } else {
            try self.init(pkcs1DER: document.derBytes)
        }
    }

    /// The PKCS#1 RSAPrivateKey DER (version 0).
    public var pkcs1DER: [UInt8] {
        let values = [publicKey.modulus, publicKey.publicExponent, privateExponent, prime1, prime2,
                      exponent1, exponent2, coefficient]
        return DERWriter.sequence([DERWriter.unsignedInteger([])]
                                  + values.map { DERWriter.unsignedInteger($0.bigEndianBytes) })
    }

    /// The PKCS#8 PrivateKeyInfo DER (version 0, rsaEncryption with NULL parameters).
    public var pkcs8DER: [UInt8] {
        DERWriter.sequence([DERWriter.unsignedInteger([]), DERWriter.rsaEncryptionAlgorithm,
                            DERWriter.octetString(pkcs1DER)])
    }

    /// PKCS#8 as a PEM "PRIVATE KEY" document.
    public var pem: String { PEMDocument(type: "PRIVATE KEY", derBytes: pkcs8DER).pemString }

    /// PKCS#1 as a PEM "RSA PRIVATE KEY" document.
    public var pkcs1PEM: String { PEMDocument(type: "RSA PRIVATE KEY", derBytes: pkcs1DER).pemString }
}
