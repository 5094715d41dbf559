import SwiftASN1

/// An X.501 Name (RFC 5280 §4.1.2.4): the original DER plus its attributes in order.
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
    /// One AttributeTypeAndValue: OID and its value decoded as text (hex when not a string type).
    public struct Attribute: Sendable, Hashable {
        public let oid: String
        public let value: String
        public var shortName: String {
            switch oid {
            case "2.5.4.3": return "CN"
            case "2.5.4.6": return "C"
            case "2.5.4.7": return "L"
            case "2.5.4.8": return "ST"
            case "2.5.4.10": return "O"
            case "2.5.4.11": return "OU"
            case "2.5.4.5": return "serialNumber"
            case "1.2.840.113549.1.9.1": return "emailAddress"
            case "0.9.2342.19200300.100.1.25": return "DC"
            default: return oid
            }
        }
    }

    /// The Name exactly as encoded (used for issuer/subject chaining, RFC 5280 §7.1 simplified to byte equality).
    public let der: [UInt8]
    /// Attributes in encoding order (RDN sequence flattened).
    public let attributes: [Attribute]
    /// Each RelativeDistinguishedName SET as encoded, in order (name constraints compare these, RFC 5280 §4.2.1.10).
    public let relativeNames: [[UInt8]]

    /// All commonName values.
    public var commonNames: [String] { attributes.filter { $0.oid == "2.5.4.3" }.map(\.value) }

    /// `CN=…, O=…, C=…` in encoding order.
    public var description: String {
        attributes.isEmpty ? "(empty)" : attributes.map { "\($0.shortName)=\($0.value)" }.joined(separator: ", ")
    }

    init(node: ASN1Node) throws(PKIError) {
        der = Array(node.encodedBytes)
        var attributes: [Attribute] = []
        var relativeNames: [[UInt8]] = []
        for rdn in try DERWalker.sequence(node, "Name") {
            guard rdn.identifier == .set else { throw .malformedCertificate(.notOfType(field: "RelativeDistinguishedName", type: "SET")) }
            relativeNames.append(Array(rdn.encodedBytes))
            for pair in try DERWalker.children(rdn, "RDN") {
                let parts = try DERWalker.sequence(pair, "AttributeTypeAndValue")
                guard parts.count == 2 else { throw .malformedCertificate(.wrongElementCount(field: "AttributeTypeAndValue")) }
                let oid = try DERWalker.oid(parts[0], "attribute type")
                attributes.append(Attribute(oid: oid, value: DistinguishedName.text(parts[1])))
            }
        }
        self.attributes = attributes
        self.relativeNames = relativeNames
    }

    static func text(_ node: ASN1Node) -> String {
        guard case .primitive(let bytes) = node.content else { return "#constructed" }
        switch node.identifier {
        case .utf8String, .printableString, .ia5String, .teletexString, .visibleString, .numericString:
            return String(decoding: bytes, as: UTF8.self)
        case .bmpString:
            var units: [UInt16] = []
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        default:
            return "#" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Array where Element == UInt8 {
    /// Lower-case hex, no separators.
    var hex: String { map { String($0, radix: 16).leftPadded(to: 2) }.joined() }
}
