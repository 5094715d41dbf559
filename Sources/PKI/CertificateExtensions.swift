import SwiftASN1

/// The v3 extensions TLSLab reads (RFC 5280 §4.2), plus every extension's OID and criticality.
public struct CertificateExtensions: Sendable, Hashable {
    /// basicConstraints (RFC 5280 §4.2.1.9).
    public struct BasicConstraints: Sendable, Hashable {
        public let isCA: Bool
        public let pathLength: Int?
    }

    /// keyUsage bits (RFC 5280 §4.2.1.3), bit 0 = digitalSignature.
    public struct KeyUsage: Sendable, Hashable, CustomStringConvertible {
        public let bits: UInt16
        public static let names = ["digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment",
                                   "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"]
        public func contains(bit: Int) -> Bool { bits & (1 << UInt16(bit)) != 0 }
        public var keyCertSign: Bool { contains(bit: 5) }
        public var digitalSignature: Bool { contains(bit: 0) }
        public var keyEncipherment: Bool { contains(bit: 2) }
        public var keyAgreement: Bool { contains(bit: 4) }
        public var description: String {
            KeyUsage.names.enumerated().filter { contains(bit: $0.offset) }.map(\.element).joined(separator: ", ")
        }
    }

    /// One raw extension.
    public struct Raw: Sendable, Hashable {
        public let oid: String
        public let critical: Bool
        public let value: [UInt8]
    }

    public static let serverAuth = "1.3.6.1.5.5.7.3.1"
    public static let clientAuth = "1.3.6.1.5.5.7.3.2"
    public static let anyExtendedKeyUsage = "2.5.29.37.0"

    /// OIDs this reader understands; a critical extension outside this set fails validation (§4.2).
    public static let understood: Set<String> = ["2.5.29.19", "2.5.29.15", "2.5.29.37", "2.5.29.17",
                                                 "2.5.29.14", "2.5.29.35", "2.5.29.32", "2.5.29.30",
                                                 authorityInfoAccess]
    /// authorityInfoAccess (RFC 5280 §4.2.2.1).
    public static let authorityInfoAccess = "1.3.6.1.5.5.7.1.1"

    public var all: [Raw] = []
    public var basicConstraints: BasicConstraints?
    public var keyUsage: KeyUsage?
    /// extendedKeyUsage purposes as OIDs (RFC 5280 §4.2.1.12); nil when the extension is absent.
    public var extendedKeyUsage: [String]?
    /// subjectAltName dNSName entries (RFC 5280 §4.2.1.6); nil when the extension is absent.
    public var dnsNames: [String]?
    /// subjectAltName iPAddress entries, 4 or 16 bytes each.
    public var ipAddresses: [[UInt8]] = []
    /// Every subjectAltName entry in order; nil when the extension is absent.
    public var subjectAltNames: [GeneralName]?
    /// nameConstraints (RFC 5280 §4.2.1.10); nil when absent.
    public var nameConstraints: NameConstraints?
    /// The authorityKeyIdentifier carries authorityCertIssuer or authorityCertSerialNumber (§4.2.1.1).
    public var authorityKeyIdentifierHasIssuerAndSerial = false
    public var subjectKeyIdentifier: [UInt8]?
    public var authorityKeyIdentifier: [UInt8]?

    public var hasSubjectAltName: Bool { all.contains { $0.oid == "2.5.29.17" } }
    /// The raw extension with `oid`, if present.
    public func raw(_ oid: String) -> Raw? { all.first { $0.oid == oid } }
    public var unhandledCritical: [String] { all.filter { $0.critical && !Self.understood.contains($0.oid) }.map(\.oid) }

    init() {}

    /// Reads `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension`.
    init(node: ASN1Node) throws(PKIError) {
        var seen = Set<String>()
        for ext in try DERWalker.sequence(node, "Extensions") {
            let parts = try DERWalker.sequence(ext, "Extension")
            guard parts.count == 2 || parts.count == 3 else { throw .malformedCertificate(.wrongElementCount(field: "Extension")) }
            let oid = try DERWalker.oid(parts[0], "extnID")
            let critical = parts.count == 3 ? try DERWalker.boolean(parts[1], "critical") : false
            let value = try DERWalker.octetString(parts[parts.count - 1], "extnValue")
            guard seen.insert(oid).inserted else { throw .malformedCertificate(.twice(field: "extnID \(oid)")) }
            all.append(Raw(oid: oid, critical: critical, value: value))
            try decode(oid: oid, value: value)
        }
    }

    private mutating func decode(oid: String, value: [UInt8]) throws(PKIError) {
        switch oid {
        case "2.5.29.19":
            let fields = try DERWalker.sequence(try DERWalker.parse(value), "BasicConstraints")
            var isCA = false
            var pathLength: Int?
            for field in fields {
                if field.identifier == .boolean { isCA = try DERWalker.boolean(field, "cA") }
                else if field.identifier == .integer { pathLength = try DERWalker.smallInteger(field, "pathLenConstraint") }
                else { throw .malformedCertificate(.unexpectedTag(field: "BasicConstraints", tag: nil)) }
            }
            basicConstraints = BasicConstraints(isCA: isCA, pathLength: pathLength)
        case "2.5.29.15":
            let (bytes, _) = try DERWalker.bitString(try DERWalker.parse(value), "KeyUsage")
            var bits: UInt16 = 0
            for (byteIndex, byte) in bytes.prefix(2).enumerated() {
                for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                    bits |= 1 << UInt16(byteIndex * 8 + bit)
                }
            }
            keyUsage = KeyUsage(bits: bits)
        case "2.5.29.37":
            let purposes = try DERWalker.sequence(try DERWalker.parse(value), "ExtKeyUsageSyntax")
            guard !purposes.isEmpty else { throw .malformedCertificate(.empty(field: "extendedKeyUsage")) }
            var oids: [String] = []
            for purpose in purposes { oids.append(try DERWalker.oid(purpose, "KeyPurposeId")) }
            extendedKeyUsage = oids
        case "2.5.29.17":
            let general = try GeneralName.sequence(try DERWalker.parse(value))
            subjectAltNames = general
            dnsNames = general.compactMap { if case .dnsName(let name) = $0 { return name } else { return nil } }
            ipAddresses = general.compactMap { if case .ipAddress(let bytes) = $0 { return bytes } else { return nil } }
        case "2.5.29.30":
            nameConstraints = try NameConstraints(value: value)
        case CertificateExtensions.authorityInfoAccess:
            // AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription (§4.2.2.1).
            let descriptions = try DERWalker.sequence(try DERWalker.parse(value), "AuthorityInfoAccessSyntax")
            guard !descriptions.isEmpty else { throw .malformedCertificate(.empty(field: "authorityInfoAccess")) }
            for description in descriptions {
                let parts = try DERWalker.sequence(description, "AccessDescription")
                guard parts.count == 2 else { throw .malformedCertificate(.wrongElementCount(field: "AccessDescription")) }
                _ = try DERWalker.oid(parts[0], "accessMethod")
                _ = try GeneralName(node: parts[1], inConstraint: false)
            }
        case "2.5.29.14":
            subjectKeyIdentifier = try DERWalker.octetString(try DERWalker.parse(value), "SubjectKeyIdentifier")
        case "2.5.29.35":
            for field in try DERWalker.sequence(try DERWalker.parse(value), "AuthorityKeyIdentifier") {
                guard field.identifier.tagClass == .contextSpecific else { throw .malformedCertificate(.unexpectedTag(field: "AuthorityKeyIdentifier", tag: nil)) }
                if field.identifier.tagNumber == 0 {
                    authorityKeyIdentifier = try DERWalker.primitive(field, "keyIdentifier")
                } else {
                    authorityKeyIdentifierHasIssuerAndSerial = true
                }
            }
        default:
            break
        }
    }
}
