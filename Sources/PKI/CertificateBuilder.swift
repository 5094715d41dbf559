import SwiftASN1
import TLSCrypto

/// Builds X.509 v3 certificates (RFC 5280 §4.1) signed by TLSLab's own RSA (PKCS#1 v1.5,
/// sha256WithRSAEncryption by default; sha1WithRSAEncryption only to demonstrate rejections) or
/// ECDSA (ecdsa-with-SHA256 / SHA384, RFC 5758 §3.2).
///
/// The TBSCertificate is serialized with swift-asn1's DER serializer and signed here. We do not go
/// through swift-certificates' builder: its public keys are swift-crypto `_RSA` keys, which refuse
/// RSA-1024, and the defect variants need exactly such keys and SHA-1 signatures.
public enum CertificateBuilder {
    /// Signs `template` for `subjectKey` with `issuerKey`. `issuer` is the issuing CA's certificate:
    /// its subject becomes this certificate's issuer (byte for byte) and its key identifier the AKI.
    /// With `issuer` nil the certificate is self-signed: issuer = subject, AKI = own SKI.
    public static func build(_ template: CertificateTemplate, subjectKey: RSAPublicKey,
                             issuer: X509Certificate?, issuerKey: RSAPrivateKey) throws(PKIError) -> X509Certificate {
        try build(template, subjectKey: .rsa(subjectKey), issuer: issuer, issuerKey: .rsa(issuerKey))
    }

    /// The same for a subject and an issuer key of either kind. An EC issuer signs with ECDSA and the
    /// hash RFC 5480 §4 pairs with its curve (ecdsa-with-SHA256 for P-256, ecdsa-with-SHA384 for
    /// P-384; RFC 5758 §3.2), whatever `template.signatureHash` says.
    public static func build(_ template: CertificateTemplate, subjectKey: VerificationKey,
                             issuer: X509Certificate?, issuerKey: SigningKey) throws(PKIError) -> X509Certificate {
        guard !template.serialNumber.isEmpty, template.serialNumber.count <= 20 else {
            throw .malformedCertificate(.invalidValue(field: "serialNumber"))
        }
        guard template.notBefore <= template.notAfter else { throw .malformedCertificate(.invalidValue(field: "Validity")) }
        for address in template.ipAddresses where address.count != 4 && address.count != 16 {
            throw .malformedCertificate(.invalidValue(field: "iPAddress"))
        }
        let algorithm = try signatureAlgorithm(template.signatureHash, issuerKey: issuerKey)
        let algorithmOID = algorithm.oid
        let spki: [UInt8] = switch subjectKey {
            case .rsa(let key): key.subjectPublicKeyInfoDER
            case .ecdsa(let key): key.subjectPublicKeyInfoDER
            case .ed25519(let key): key.subjectPublicKeyInfoDER
        }
        let subjectName = encodeName(template.subject)
        let issuerName = issuer?.subject.der ?? subjectName
        let ownKeyID = keyIdentifier(subjectKey)
        let authorityKeyID: [UInt8]? = template.includeAuthorityKeyIdentifier
            ? (issuer.map { $0.extensions.subjectKeyIdentifier ?? keyIdentifierFromSPKI($0.publicKey) } ?? ownKeyID) : nil

        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .sequence) { tbsCoder in
            // version [0] EXPLICIT Version DEFAULT v1 — v3 is 2.
            tbsCoder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) {
                $0.appendPrimitiveNode(identifier: .integer) { $0.append(2) }
            }
            tbsCoder.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: positiveInteger(template.serialNumber)) }
            appendAlgorithm(algorithmOID, nullParameters: algorithm.nullParameters, into: &tbsCoder)
            tbsCoder.serializeRawBytes(issuerName)
            tbsCoder.appendConstructedNode(identifier: .sequence) { validity in
                appendTime(template.notBefore, into: &validity)
                appendTime(template.notAfter, into: &validity)
            }
            tbsCoder.serializeRawBytes(subjectName)
            tbsCoder.serializeRawBytes(spki)
            let extensions = encodeExtensions(template, ownKeyID: ownKeyID, authorityKeyID: authorityKeyID)
            if !extensions.isEmpty {
                tbsCoder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific)) {
                    $0.appendConstructedNode(identifier: .sequence) { $0.serializeRawBytes(extensions.joined()) }
                }
            }
        }
        let tbs = serializer.serializedBytes
        let signature: [UInt8]
        do {
            switch issuerKey {
            case .rsa(let key):
                signature = try key.signPKCS1v15(message: tbs, hash: template.signatureHash)
            case .ecdsa(let key):
                // The nonce comes from a DRBG seeded with d and the TBSCertificate, so the same
                // template and keys give the same certificate byte for byte.
                let d = (try? key.scalar.bigEndianBytes(width: key.curve.byteLength)) ?? []
                let nonces = HMACDRBG(seed: Array("TLSLab certificate ECDSA nonce|".utf8) + d + HashAlgorithm.sha256.digest(tbs))
                signature = try key.sign(message: tbs, hash: algorithm.hash, using: nonces)
            case .ed25519:
                throw PKIError.unsupportedKey(.ed25519Signer)
            }
        } catch let error as PKIError {
            throw error
        } catch {
            throw .unsupportedKey(.signingFailed(issuer: PKIKeyKind(issuerKey)))
        }
        var outer = DER.Serializer()
        outer.appendConstructedNode(identifier: .sequence) { coder in
            coder.serializeRawBytes(tbs)
            appendAlgorithm(algorithmOID, nullParameters: algorithm.nullParameters, into: &coder)
            coder.appendPrimitiveNode(identifier: .bitString) { $0.append(0); $0.append(contentsOf: signature) }
        }
        return try X509Certificate(der: outer.serializedBytes)
    }

    /// A self-signed certificate for `key` (issuer = subject).
    public static func selfSigned(_ template: CertificateTemplate, key: RSAPrivateKey) throws(PKIError) -> X509Certificate {
        try build(template, subjectKey: key.publicKey, issuer: nil, issuerKey: key)
    }

    /// A self-signed certificate for an RSA or EC `key`.
    public static func selfSigned(_ template: CertificateTemplate, key: SigningKey) throws(PKIError) -> X509Certificate {
        try build(template, subjectKey: key.publicKey, issuer: nil, issuerKey: key)
    }

    /// RFC 5280 §4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING value.
    public static func keyIdentifier(_ key: RSAPublicKey) -> [UInt8] {
        HashAlgorithm.sha1.digest(key.pkcs1DER)
    }

    /// The same for either kind: the BIT STRING holds RSAPublicKey DER, or the EC point (RFC 5480 §2.2).
    public static func keyIdentifier(_ key: VerificationKey) -> [UInt8] {
        switch key {
        case .rsa(let rsa): return keyIdentifier(rsa)
        case .ecdsa(let ec): return HashAlgorithm.sha1.digest(ec.x963)
        case .ed25519(let ed): return HashAlgorithm.sha1.digest(ed.rawRepresentation)
        }
    }

    /// The signatureAlgorithm for an issuer key: sha*WithRSAEncryption with NULL parameters (RFC 4055
    /// §5), or ecdsa-with-SHA256/384 with the parameters absent (RFC 5758 §3.2).
    static func signatureAlgorithm(_ hash: HashAlgorithm, issuerKey: SigningKey) throws(PKIError)
        -> (oid: String, nullParameters: Bool, hash: HashAlgorithm) {
        switch issuerKey {
        case .rsa:
            guard let oid = signatureOID(hash) else { throw .unsupportedKey(.noRSASignatureAlgorithm(hash: hash)) }
            return (oid, true, hash)
        case .ecdsa(let key):
            guard hash != .sha1, hash != .md5 else { throw .unsupportedKey(.ecdsaHash(hash)) }
            // RFC 5758 §3.2 / RFC 5480 §4: each curve with the hash of its strength.
            switch key.curve.name {
            case .p256: return ("1.2.840.10045.4.3.2", false, .sha256)
            case .p384: return ("1.2.840.10045.4.3.3", false, .sha384)
            case .p521: return ("1.2.840.10045.4.3.4", false, .sha512)
            }
        case .ed25519:
            throw .unsupportedKey(.ed25519Signer)
        }
    }

    static func keyIdentifierFromSPKI(_ spki: SubjectPublicKeyInfo) -> [UInt8] { HashAlgorithm.sha1.digest(spki.rawKey) }

    // MARK: DER pieces

    static func signatureOID(_ hash: HashAlgorithm) -> String? {
        switch hash {
        case .sha1: return "1.2.840.113549.1.1.5"
        case .sha256: return "1.2.840.113549.1.1.11"
        case .sha384: return "1.2.840.113549.1.1.12"
        case .sha512: return "1.2.840.113549.1.1.13"
        case .md5: return nil
        }
    }

    /// AlgorithmIdentifier with NULL parameters (RFC 4055 §5 for sha*WithRSAEncryption) or without
    /// parameters (RFC 5758 §3.2 for ecdsa-with-SHA*).
    static func appendAlgorithm(_ oid: String, nullParameters: Bool = true, into coder: inout DER.Serializer) {
        coder.appendConstructedNode(identifier: .sequence) {
            $0.appendPrimitiveNode(identifier: .objectIdentifier) { $0.append(contentsOf: oidContent(oid)) }
            if nullParameters { $0.appendPrimitiveNode(identifier: .null) { _ in } }
        }
    }

    /// OBJECT IDENTIFIER content octets (X.690 §8.19) from dotted text.
    static func oidContent(_ oid: String) -> [UInt8] {
        let arcs = oid.split(separator: ".").compactMap { UInt64($0) }
        guard arcs.count >= 2 else { return [] }
        var out: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            out += chunk
        }
        return out
    }

    /// INTEGER content for an unsigned big-endian value: minimal, with a 0x00 when the top bit is set.
    static func positiveInteger(_ bytes: [UInt8]) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty { return [0] }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return value
    }

    /// UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5), always with seconds and Z.
    static func appendTime(_ unix: Int64, into coder: inout DER.Serializer) {
        let (year, month, day, hour, minute, second) = civil(unix)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let rest = two(month) + two(day) + two(hour) + two(minute) + two(second) + "Z"
        if (1950...2049).contains(year) {
            coder.appendPrimitiveNode(identifier: .utcTime) { $0.append(contentsOf: Array((two(year % 100) + rest).utf8)) }
        } else {
            let y = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
            coder.appendPrimitiveNode(identifier: .generalizedTime) { $0.append(contentsOf: Array((y + rest).utf8)) }
        }
    }

    /// Unix seconds → proleptic Gregorian UTC date and time (days-from-civil inverted, era arithmetic).
    static func civil(_ unix: Int64) -> (Int, Int, Int, Int, Int, Int) {
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let secs = Int(unix - days * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d), secs / 3600, secs % 3600 / 60, secs % 60)
    }

    /// Name: one RDN per attribute; countryName as PrintableString, the rest UTF8String.
    static func encodeName(_ attributes: [CertificateTemplate.NameAttribute]) -> [UInt8] {
        var coder = DER.Serializer()
        coder.appendConstructedNode(identifier: .sequence) { name in
            for attribute in attributes {
                name.appendConstructedNode(identifier: .set) { rdn in
                    rdn.appendConstructedNode(identifier: .sequence) { pair in
                        pair.appendPrimitiveNode(identifier: .objectIdentifier) { $0.append(contentsOf: oidContent(attribute.oid)) }
                        let tag: ASN1Identifier = attribute.oid == "2.5.4.6" ? .printableString : .utf8String
                        pair.appendPrimitiveNode(identifier: tag) { $0.append(contentsOf: Array(attribute.value.utf8)) }
                    }
                }
            }
        }
        return coder.serializedBytes
    }

    /// Each Extension DER, in the order OpenSSL's `x509v3_config` examples use.
    static func encodeExtensions(_ template: CertificateTemplate, ownKeyID: [UInt8], authorityKeyID: [UInt8]?) -> [[UInt8]] {
        var out: [[UInt8]] = []
        func ext(_ oid: String, critical: Bool, _ value: (inout DER.Serializer) -> Void) {
            var inner = DER.Serializer()
            value(&inner)
            var coder = DER.Serializer()
            coder.appendConstructedNode(identifier: .sequence) {
                $0.appendPrimitiveNode(identifier: .objectIdentifier) { $0.append(contentsOf: oidContent(oid)) }
                if critical { $0.appendPrimitiveNode(identifier: .boolean) { $0.append(0xFF) } }
                $0.appendPrimitiveNode(identifier: .octetString) { $0.append(contentsOf: inner.serializedBytes) }
            }
            out.append(coder.serializedBytes)
        }
        if let bc = template.basicConstraints {
            ext("2.5.29.19", critical: true) { coder in
                coder.appendConstructedNode(identifier: .sequence) {
                    if bc.isCA { $0.appendPrimitiveNode(identifier: .boolean) { $0.append(0xFF) } }
                    if let length = bc.pathLength {
                        $0.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: positiveInteger(bigEndian(length))) }
                    }
                }
            }
        }
        if !template.keyUsage.isEmpty {
            ext("2.5.29.15", critical: true) { coder in
                coder.appendPrimitiveNode(identifier: .bitString) { $0.append(contentsOf: namedBits(template.keyUsage.map(\.rawValue))) }
            }
        }
        if let purposes = template.extendedKeyUsage {
            ext("2.5.29.37", critical: false) { coder in
                coder.appendConstructedNode(identifier: .sequence) { list in
                    for purpose in purposes {
                        list.appendPrimitiveNode(identifier: .objectIdentifier) { $0.append(contentsOf: oidContent(purpose)) }
                    }
                }
            }
        }
        if !template.dnsNames.isEmpty || !template.ipAddresses.isEmpty {
            // RFC 5280 §4.2.1.6: critical when the subject is empty.
            ext("2.5.29.17", critical: template.subject.isEmpty) { coder in
                coder.appendConstructedNode(identifier: .sequence) { names in
                    for name in template.dnsNames {
                        names.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 2, tagClass: .contextSpecific)) {
                            $0.append(contentsOf: Array(name.utf8))
                        }
                    }
                    for address in template.ipAddresses {
                        names.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 7, tagClass: .contextSpecific)) {
                            $0.append(contentsOf: address)
                        }
                    }
                }
            }
        }
        if template.includeSubjectKeyIdentifier {
            ext("2.5.29.14", critical: false) { coder in
                coder.appendPrimitiveNode(identifier: .octetString) { $0.append(contentsOf: ownKeyID) }
            }
        }
        if let authorityKeyID {
            ext("2.5.29.35", critical: false) { coder in
                coder.appendConstructedNode(identifier: .sequence) {
                    $0.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) {
                        $0.append(contentsOf: authorityKeyID)
                    }
                }
            }
        }
        return out
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = UInt64(max(0, value))
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        return bytes
    }

    /// NamedBitList BIT STRING content (X.690 §11.2.2: trailing zero bits removed).
    static func namedBits(_ bits: [Int]) -> [UInt8] {
        guard let highest = bits.max() else { return [0] }
        var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for bit in bits { bytes[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        return [UInt8(7 - highest % 8)] + bytes
    }
}
