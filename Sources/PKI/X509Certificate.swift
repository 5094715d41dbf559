import SwiftASN1
import Crypto

/// An X.509 v3 certificate read structurally (RFC 5280 §4.1), keeping the original bytes that
/// signatures and pins are computed over. Accepts keys and algorithms swift-certificates rejects
/// (RSA-1024, RSA-PSS, …): nothing is re-encoded.
public struct X509Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The whole Certificate DER.
    public let der: [UInt8]
    /// TBSCertificate exactly as signed (Hash1 is computed over these bytes).
    public let tbsDER: [UInt8]
    /// 1, 2 or 3 (the encoded value plus one).
    public let version: Int
    /// serialNumber content octets (RFC 5280 §4.1.2.2).
    public let serialNumber: [UInt8]
    public let issuer: DistinguishedName
    public let subject: DistinguishedName
    /// Validity in Unix seconds (RFC 5280 §4.1.2.5): valid iff notBefore ≤ t ≤ notAfter.
    public let notBefore: Int64
    public let notAfter: Int64
    public let publicKey: SubjectPublicKeyInfo
    public let signatureAlgorithm: SignatureAlgorithm
    /// The outer signatureAlgorithm equals the TBS `signature` field (RFC 5280 §4.1.1.2).
    public let signatureAlgorithmsMatch: Bool
    public let signatureValue: [UInt8]
    public let extensions: CertificateExtensions

    public var serialHex: String { serialNumber.hex }
    public var isSelfIssued: Bool { issuer.der == subject.der }
    public var isCA: Bool { extensions.basicConstraints?.isCA == true }
    public var description: String { "\(subject) (issuer \(issuer))" }

    /// Parses one DER certificate; trailing bytes or any structural defect → `PKIError`.
    public init(der bytes: [UInt8]) throws(PKIError) {
        let root = try DERWalker.parse(bytes)
        der = bytes
        let top = try DERWalker.sequence(root, "Certificate")
        guard top.count == 3 else { throw .malformedCertificate(.wrongElementCount(field: "Certificate")) }
        tbsDER = Array(top[0].encodedBytes)
        signatureAlgorithm = try SignatureAlgorithm(node: top[1])
        let (signatureBytes, unused) = try DERWalker.bitString(top[2], "signatureValue")
        guard unused == 0 else { throw .malformedCertificate(.unusedBits(field: "signatureValue")) }
        signatureValue = signatureBytes

        var fields = try DERWalker.sequence(top[0], "TBSCertificate")[...]
        var version = 1
        if let first = fields.first, first.identifier.tagClass == .contextSpecific, first.identifier.tagNumber == 0 {
            let inner = try DERWalker.children(first, "version")
            guard inner.count == 1 else { throw .malformedCertificate(.wrongElementCount(field: "version")) }
            version = try DERWalker.smallInteger(inner[0], "version") + 1
            guard (2...3).contains(version) else { throw .malformedCertificate(.unsupportedVersion(version)) }
            fields = fields.dropFirst()
        }
        self.version = version
        let required = Array(fields.prefix(6))
        guard required.count == 6 else { throw .malformedCertificate(.wrongElementCount(field: "TBSCertificate")) }
        serialNumber = try DERWalker.integerBytes(required[0], "serialNumber")
        signatureAlgorithmsMatch = required[1].encodedBytes.elementsEqual(top[1].encodedBytes)
        issuer = try DistinguishedName(node: required[2])
        let validity = try DERWalker.sequence(required[3], "Validity")
        guard validity.count == 2 else { throw .malformedCertificate(.wrongElementCount(field: "Validity")) }
        notBefore = try DERWalker.time(validity[0], "notBefore")
        notAfter = try DERWalker.time(validity[1], "notAfter")
        subject = try DistinguishedName(node: required[4])
        publicKey = try SubjectPublicKeyInfo(node: required[5])
        var extensions = CertificateExtensions()
        for optional in fields.dropFirst(6) {
            guard optional.identifier.tagClass == .contextSpecific else { throw .malformedCertificate(.unexpectedTag(field: "TBSCertificate", tag: nil)) }
            if optional.identifier.tagNumber == 3 {
                guard version == 3 else { throw .malformedCertificate(.extensionsBeforeV3(version: version)) }
                let inner = try DERWalker.children(optional, "extensions")
                guard inner.count == 1 else { throw .malformedCertificate(.wrongElementCount(field: "extensions")) }
                extensions = try CertificateExtensions(node: inner[0])
            }
        }
        self.extensions = extensions
    }

    /// Every certificate in `data`: PEM text with one or more CERTIFICATE blocks, or one DER certificate.
    /// `source` names the input in errors (a file name, say).
    public static func parseAll(_ data: [UInt8], source: String = "input") throws(PKIError) -> [X509Certificate] {
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("-----BEGIN") {
            let documents: [PEMDocument]
            do { documents = try PEMDocument.parseMultiple(pemString: text) } catch {
                throw .notACertificate(source: source, reason: .unreadablePEM)
            }
            let certificates = documents.filter { $0.discriminator == "CERTIFICATE" }
            guard !certificates.isEmpty else {
                throw .notACertificate(source: source, reason: .noCertificateBlock(labels: documents.map(\.discriminator)))
            }
            var result: [X509Certificate] = []
            for document in certificates {
                do { result.append(try X509Certificate(der: document.derBytes)) } catch {
                    throw .notACertificate(source: source, reason: .bundleMember(index: result.count + 1, error.malformation))
                }
            }
            return result
        }
        do { return [try X509Certificate(der: data)] } catch {
            throw .notACertificate(source: source, reason: .malformed(error.malformation))
        }
    }

    /// PEM text (one or more certificates).
    public static func parsePEM(_ text: String, source: String = "input") throws(PKIError) -> [X509Certificate] {
        try parseAll(Array(text.utf8), source: source)
    }

    /// `-----BEGIN CERTIFICATE-----` PEM of this certificate.
    public var pem: String { PEMDocument(type: "CERTIFICATE", derBytes: der).pemString }
}
