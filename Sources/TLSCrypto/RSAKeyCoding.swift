import BigNum
import SwiftASN1

/// DER and PEM for RSA keys, with swift-asn1:
/// - RFC 8017 Appendix A.1.1 `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`
/// - RFC 5280 §4.1.2.7 `SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier,
///   subjectPublicKey BIT STRING }` with rsaEncryption (RFC 3279 §2.3.1, NULL parameters)
/// - RFC 8017 Appendix A.1.2 `RSAPrivateKey ::= SEQUENCE { version, n, e, d, p, q, dP, dQ, qInv,
///   otherPrimeInfos OPTIONAL }` (two-prime keys, version 0, only)
/// - RFC 5208 §5 / RFC 5958 §2 `PrivateKeyInfo ::= SEQUENCE { version, privateKeyAlgorithm,
///   privateKey OCTET STRING, attributes [0] OPTIONAL, publicKey [1] OPTIONAL }`
/// - RFC 8017 §9.2 `DigestInfo ::= SEQUENCE { digestAlgorithm AlgorithmIdentifier, digest OCTET STRING }`
enum RSAKeyCoding {
    /// rsaEncryption, RFC 8017 Appendix A.1.
    static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1]

    // MARK: Integers

    static func readInteger(_ nodes: inout ASN1NodeCollection.Iterator) throws -> BigInt {
        BigInt(bigEndian: try ArraySlice<UInt8>(derEncoded: &nodes))
    }

    static func writeInteger(_ value: BigInt, into coder: inout DER.Serializer) throws {
        try coder.serialize(ArraySlice(value.bigEndianBytes))
    }

    static func writeSmallInteger(_ value: Int, into coder: inout DER.Serializer) throws {
        try coder.serialize(value)
    }

    // MARK: AlgorithmIdentifier (RFC 5280 §4.1.1.2)

    /// Reads `SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`; returns the OID and whether
    /// the parameters were absent or NULL (anything else is `false`).
    static func readAlgorithmIdentifier(_ nodes: inout ASN1NodeCollection.Iterator) throws
        -> (oid: ASN1ObjectIdentifier, parametersNullOrAbsent: Bool) {
        guard let node = nodes.next() else {
            throw RSAError.invalidKeyEncoding("missing AlgorithmIdentifier")
        }
        return try DER.sequence(node, identifier: .sequence) { inner in
            let oid = try ASN1ObjectIdentifier(derEncoded: &inner)
            guard let parameters = inner.next() else { return (oid, true) }
            let isNull = (try? ASN1Null(derEncoded: parameters)) != nil
            // Read every child so DER.sequence does not reject the sequence; extra children are an error.
            guard inner.next() == nil else { throw RSAError.invalidKeyEncoding("AlgorithmIdentifier too long") }
            return (oid, isNull)
        }
    }

    static func writeRSAAlgorithmIdentifier(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { inner in
            try inner.serialize(rsaEncryption)
            try inner.serialize(ASN1Null())
        }
    }

    static func requireRSA(_ id: (oid: ASN1ObjectIdentifier, parametersNullOrAbsent: Bool)) throws(RSAError) {
        guard id.oid == rsaEncryption else { throw .invalidKeyEncoding("algorithm \(id.oid) is not rsaEncryption") }
        guard id.parametersNullOrAbsent else { throw .invalidKeyEncoding("rsaEncryption parameters must be NULL") }
    }

    // MARK: Error mapping

    static func wrap<T>(_ what: String, _ body: () throws -> T) throws(RSAError) -> T {
        do {
            return try body()
        } catch let error as RSAError {
            throw error
        } catch {
            throw .invalidKeyEncoding("\(what): \(error)")
        }
    }

    static func serialize(_ body: (inout DER.Serializer) throws -> Void) -> [UInt8] {
        var coder = DER.Serializer()
        // Serialising integers, OIDs and octet strings we built ourselves cannot fail.
        do { try body(&coder) } catch { preconditionFailure("DER serialisation of our own key failed: \(error)") }
        return coder.serializedBytes
    }

    // MARK: Public keys

    static func parsePKCS1PublicKey(_ der: [UInt8]) throws(RSAError) -> (n: BigInt, e: BigInt) {
        try wrap("RSAPublicKey") {
            let root = try DER.parse(der)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                let n = try readInteger(&nodes)
                let e = try readInteger(&nodes)
                return (n, e)
            }
        }
    }

    static func pkcs1PublicKeyDER(_ key: RSAPublicKey) -> [UInt8] {
        serialize { coder in
            try coder.appendConstructedNode(identifier: .sequence) { inner in
                try writeInteger(key.modulus, into: &inner)
                try writeInteger(key.publicExponent, into: &inner)
            }
        }
    }

    static func parseSubjectPublicKeyInfo(_ der: [UInt8]) throws(RSAError) -> [UInt8] {
        let (algorithm, bits) = try wrap("SubjectPublicKeyInfo") {
            let root = try DER.parse(der)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                let algorithm = try readAlgorithmIdentifier(&nodes)
                let bits = try ASN1BitString(derEncoded: &nodes)
                return (algorithm, bits)
            }
        }
        try requireRSA(algorithm)
        guard bits.paddingBits == 0 else { throw .invalidKeyEncoding("public key BIT STRING has padding bits") }
        return Array(bits.bytes)
    }

    static func subjectPublicKeyInfoDER(_ key: RSAPublicKey) -> [UInt8] {
        let inner = pkcs1PublicKeyDER(key)
        return serialize { coder in
            try coder.appendConstructedNode(identifier: .sequence) { seq in
                try writeRSAAlgorithmIdentifier(into: &seq)
                try seq.serialize(ASN1BitString(bytes: ArraySlice(inner)))
            }
        }
    }

    // MARK: Private keys

    struct PrivateNumbers {
        var n, e, d, p, q, dP, dQ, qInv: BigInt
    }

    static func parsePKCS1PrivateKey(_ der: [UInt8]) throws(RSAError) -> PrivateNumbers {
        try wrap("RSAPrivateKey") {
            let root = try DER.parse(der)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                let version = try Int(derEncoded: &nodes)
                guard version == 0 else {
                    throw RSAError.invalidKeyEncoding("RSAPrivateKey version \(version) (multi-prime keys are not supported)")
                }
                return PrivateNumbers(n: try readInteger(&nodes), e: try readInteger(&nodes),
                                      d: try readInteger(&nodes), p: try readInteger(&nodes),
                                      q: try readInteger(&nodes), dP: try readInteger(&nodes),
                                      dQ: try readInteger(&nodes), qInv: try readInteger(&nodes))
            }
        }
    }

    static func pkcs1PrivateKeyDER(_ key: RSAPrivateKey) -> [UInt8] {
        serialize { coder in
            try coder.appendConstructedNode(identifier: .sequence) { inner in
                try writeSmallInteger(0, into: &inner)
                for value in [key.publicKey.modulus, key.publicKey.publicExponent, key.privateExponent,
                              key.prime1, key.prime2, key.exponent1, key.exponent2, key.coefficient] {
                    try writeInteger(value, into: &inner)
                }
            }
        }
    }

    /// The RSAPrivateKey DER inside a PrivateKeyInfo / OneAsymmetricKey.
    static func parsePKCS8(_ der: [UInt8]) throws(RSAError) -> [UInt8] {
        let (algorithm, inner) = try wrap("PrivateKeyInfo") {
            let root = try DER.parse(der)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                let version = try Int(derEncoded: &nodes)
                guard version == 0 || version == 1 else {
                    throw RSAError.invalidKeyEncoding("PrivateKeyInfo version \(version)")
                }
                let algorithm = try readAlgorithmIdentifier(&nodes)
                let octets = try ASN1OctetString(derEncoded: &nodes)
                // attributes [0] and publicKey [1] are optional: read and ignore them.
                while let node = nodes.next() {
                    guard node.identifier.tagClass == .contextSpecific,
                          node.identifier.tagNumber == 0 || node.identifier.tagNumber == 1 else {
                        throw RSAError.invalidKeyEncoding("unexpected field in PrivateKeyInfo")
                    }
                }
                return (algorithm, Array(octets.bytes))
            }
        }
        try requireRSA(algorithm)
        return inner
    }

    static func pkcs8DER(_ key: RSAPrivateKey) -> [UInt8] {
        let inner = pkcs1PrivateKeyDER(key)
        return serialize { coder in
            try coder.appendConstructedNode(identifier: .sequence) { seq in
                try writeSmallInteger(0, into: &seq)
                try writeRSAAlgorithmIdentifier(into: &seq)
                try seq.serialize(ASN1OctetString(contentBytes: ArraySlice(inner)))
            }
        }
    }

    // MARK: DigestInfo

    static func parseDigestInfo(_ der: [UInt8]) throws(RSAError) -> (oid: String, digest: [UInt8]) {
        do {
            let root = try DER.parse(der)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                let algorithm = try readAlgorithmIdentifier(&nodes)
                let digest = try ASN1OctetString(derEncoded: &nodes)
                return (algorithm.oid.description, Array(digest.bytes))
            }
        } catch {
            throw .invalidSignatureBlock(.malformedDigestInfo)
        }
    }

    // MARK: PEM

    static func pemDocument(_ text: String) throws(RSAError) -> PEMDocument {
        do {
            return try PEMDocument(pemString: text)
        } catch {
            throw .invalidKeyEncoding("PEM: \(error)")
        }
    }
}

// MARK: - Public-key formats

extension RSAPublicKey {
    /// From PKCS#1 `RSAPublicKey` DER (RFC 8017 Appendix A.1.1).
    public init(pkcs1DER: [UInt8]) throws(RSAError) {
        let (n, e) = try RSAKeyCoding.parsePKCS1PublicKey(pkcs1DER)
        try self.init(modulus: n, publicExponent: e)
    }

    /// From `SubjectPublicKeyInfo` DER with rsaEncryption (RFC 5280 §4.1.2.7, RFC 3279 §2.3.1).
    public init(subjectPublicKeyInfoDER: [UInt8]) throws(RSAError) {
        try self.init(pkcs1DER: RSAKeyCoding.parseSubjectPublicKeyInfo(subjectPublicKeyInfoDER))
    }

    /// From PEM: `PUBLIC KEY` (SubjectPublicKeyInfo) or `RSA PUBLIC KEY` (PKCS#1).
    public init(pem: String) throws(RSAError) {
        let document = try RSAKeyCoding.pemDocument(pem)
        switch document.discriminator {
        case "PUBLIC KEY": try self.init(subjectPublicKeyInfoDER: document.derBytes)
        case "RSA PUBLIC KEY": try self.init(pkcs1DER: document.derBytes)
        default: throw .invalidKeyEncoding("PEM type \(document.discriminator) is not an RSA public key")
        }
    }

    public var subjectPublicKeyInfoDER: [UInt8] { RSAKeyCoding.subjectPublicKeyInfoDER(self) }

    public var pkcs1DER: [UInt8] { RSAKeyCoding.pkcs1PublicKeyDER(self) }

    /// SubjectPublicKeyInfo as `PUBLIC KEY` PEM.
    public var pem: String { PEMDocument(type: "PUBLIC KEY", derBytes: subjectPublicKeyInfoDER).pemString }
}

// MARK: - Private-key formats

extension RSAPrivateKey {
    /// From PKCS#1 `RSAPrivateKey` DER (RFC 8017 Appendix A.1.2), two-prime keys.
    public init(pkcs1DER: [UInt8]) throws(RSAError) {
        let k = try RSAKeyCoding.parsePKCS1PrivateKey(pkcs1DER)
        try self.init(modulus: k.n, publicExponent: k.e, privateExponent: k.d, prime1: k.p, prime2: k.q,
                      exponent1: k.dP, exponent2: k.dQ, coefficient: k.qInv)
    }

    /// From PKCS#8 `PrivateKeyInfo` DER (RFC 5208 §5) holding an rsaEncryption key.
    public init(pkcs8DER: [UInt8]) throws(RSAError) {
        try self.init(pkcs1DER: RSAKeyCoding.parsePKCS8(pkcs8DER))
    }

    /// From PEM: `RSA PRIVATE KEY` (PKCS#1, `openssl genrsa -traditional`) or `PRIVATE KEY`
    /// (PKCS#8, `openssl genpkey`). Encrypted PEM is not supported.
    public init(pem: String) throws(RSAError) {
        let document = try RSAKeyCoding.pemDocument(pem)
        switch document.discriminator {
        case "RSA PRIVATE KEY": try self.init(pkcs1DER: document.derBytes)
        case "PRIVATE KEY": try self.init(pkcs8DER: document.derBytes)
        default: throw .invalidKeyEncoding("PEM type \(document.discriminator) is not an RSA private key")
        }
    }

    public var pkcs1DER: [UInt8] { RSAKeyCoding.pkcs1PrivateKeyDER(self) }

    public var pkcs8DER: [UInt8] { RSAKeyCoding.pkcs8DER(self) }

    /// PKCS#8 as `PRIVATE KEY` PEM.
    public var pem: String { PEMDocument(type: "PRIVATE KEY", derBytes: pkcs8DER).pemString }

    /// PKCS#1 as `RSA PRIVATE KEY` PEM (what `openssl genrsa -traditional` writes).
    public var pkcs1PEM: String { PEMDocument(type: "RSA PRIVATE KEY", derBytes: pkcs1DER).pemString }
}
