import TLSCrypto

/// What to put in a certificate that `CertificateBuilder` signs (RFC 5280 §4.1 and §4.2).
/// Only the fields TLSLab's hierarchies need; every extension is optional so defects can be built.
public struct CertificateTemplate: Sendable, Hashable {
    /// One AttributeTypeAndValue of a Name (RFC 5280 §4.1.2.4), one per RDN.
    public struct NameAttribute: Sendable, Hashable {
        public let oid: String
        public let value: String

        public init(oid: String, value: String) {
            self.oid = oid
            self.value = value
        }

        public static func commonName(_ value: String) -> NameAttribute { NameAttribute(oid: "2.5.4.3", value: value) }
        public static func organization(_ value: String) -> NameAttribute { NameAttribute(oid: "2.5.4.10", value: value) }
        public static func organizationalUnit(_ value: String) -> NameAttribute { NameAttribute(oid: "2.5.4.11", value: value) }
        /// countryName: two letters, encoded as PrintableString (RFC 5280 Appendix A).
        public static func country(_ value: String) -> NameAttribute { NameAttribute(oid: "2.5.4.6", value: value) }
    }

    /// keyUsage bits (RFC 5280 §4.2.1.3), named as the RFC names them.
    public enum KeyUsageBit: Int, Sendable, Hashable, CaseIterable {
        case digitalSignature = 0, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement, keyCertSign, cRLSign
    }

    /// serialNumber content octets: positive, at most 20 octets (RFC 5280 §4.1.2.2).
    public var serialNumber: [UInt8]
    public var subject: [NameAttribute]
    /// Validity in Unix seconds (UTCTime before 2050, GeneralizedTime from 2050, RFC 5280 §4.1.2.5).
    public var notBefore: Int64
    public var notAfter: Int64
    /// basicConstraints (critical): nil leaves the extension out; `isCA: false` writes CA:FALSE.
    public var basicConstraints: BasicConstraints?
    /// keyUsage (critical); empty leaves the extension out.
    public var keyUsage: Set<KeyUsageBit>
    /// extendedKeyUsage purpose OIDs (e.g. `CertificateExtensions.serverAuth`); nil leaves it out.
    public var extendedKeyUsage: [String]?
    /// subjectAltName dNSName entries (wildcards allowed as written).
    public var dnsNames: [String]
    /// subjectAltName iPAddress entries: 4 or 16 bytes each.
    public var ipAddresses: [[UInt8]]
    /// Write subjectKeyIdentifier (SHA-1 of the subjectPublicKey BIT STRING, RFC 5280 §4.2.1.2 method 1).
    public var includeSubjectKeyIdentifier: Bool
    /// Write authorityKeyIdentifier (the issuer's key identifier, computed the same way).
    public var includeAuthorityKeyIdentifier: Bool
    /// The hash of the sha*WithRSAEncryption signature: SHA-256 normally; SHA-1 only to show a rejection.
    public var signatureHash: HashAlgorithm

    /// basicConstraints to write (RFC 5280 §4.2.1.9).
    public struct BasicConstraints: Sendable, Hashable {
        public var isCA: Bool
        /// pathLenConstraint; only meaningful with `isCA`.
        public var pathLength: Int?
        public init(isCA: Bool, pathLength: Int? = nil) {
            self.isCA = isCA
            self.pathLength = pathLength
        }
    }

    public init(serialNumber: [UInt8], subject: [NameAttribute], notBefore: Int64, notAfter: Int64,
                basicConstraints: BasicConstraints? = nil, keyUsage: Set<KeyUsageBit> = [],
                extendedKeyUsage: [String]? = nil, dnsNames: [String] = [], ipAddresses: [[UInt8]] = [],
                includeSubjectKeyIdentifier: Bool = true, includeAuthorityKeyIdentifier: Bool = true,
                signatureHash: HashAlgorithm = .sha256) {
        self.serialNumber = serialNumber
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.basicConstraints = basicConstraints
        self.keyUsage = keyUsage
        self.extendedKeyUsage = extendedKeyUsage
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
        self.includeSubjectKeyIdentifier = includeSubjectKeyIdentifier
        self.includeAuthorityKeyIdentifier = includeAuthorityKeyIdentifier
        self.signatureHash = signatureHash
    }

    /// Adds each host to the SAN: IPv4/IPv6 literals as iPAddress, everything else as dNSName.
    public mutating func addSubjectAltNames(_ hosts: [String]) {
        for host in hosts {
            if case .ip(let bytes) = HostnameMatcher.Reference(host) { ipAddresses.append(bytes) } else { dnsNames.append(host) }
        }
    }
}
