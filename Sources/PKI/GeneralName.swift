import SwiftASN1

/// One GeneralName (RFC 5280 §4.2.1.6), as it appears in a subjectAltName or — with an address
/// range instead of an address — in a name-constraints subtree (§4.2.1.10).
public enum GeneralName: Sendable, Hashable, CustomStringConvertible {
    /// otherName [0]: only the type OID is kept.
    case otherName(typeID: String)
    /// rfc822Name [1]: a mailbox, or in a constraint a host / `.domain` / mailbox.
    case rfc822Name(String)
    /// dNSName [2].
    case dnsName(String)
    /// directoryName [4].
    case directoryName(DistinguishedName)
    /// uniformResourceIdentifier [6].
    case uri(String)
    /// iPAddress [7] in a SAN: 4 or 16 octets.
    case ipAddress([UInt8])
    /// iPAddress [7] in a constraint: address ‖ mask, 8 or 32 octets.
    case ipRange(address: [UInt8], mask: [UInt8])
    /// x400Address [3], ediPartyName [5], registeredID [8]: the tag number only.
    case unsupported(tag: UInt)

    /// The GeneralName CHOICE tag (RFC 5280 §4.2.1.6), which is also what a constraint's type is.
    public var tag: UInt {
        switch self {
        case .otherName: return 0
        case .rfc822Name: return 1
        case .dnsName: return 2
        case .directoryName: return 4
        case .uri: return 6
        case .ipAddress, .ipRange: return 7
        case .unsupported(let tag): return tag
        }
    }

    public var description: String {
        switch self {
        case .otherName(let oid): return "otherName:\(oid)"
        case .rfc822Name(let mailbox): return "email:\(mailbox)"
        case .dnsName(let name): return "DNS:\(name)"
        case .directoryName(let name): return "DirName:\(name)"
        case .uri(let uri): return "URI:\(uri)"
        case .ipAddress(let bytes): return "IP:\(HostnameMatcher.format(ip: bytes))"
        case .ipRange(let address, let mask):
            return "IP:\(HostnameMatcher.format(ip: address))/\(mask.reduce(0) { $0 + $1.nonzeroBitCount })"
        case .unsupported(let tag): return "GeneralName[\(tag)]"
        }
    }

    /// Reads one GeneralName; `inConstraint` reads iPAddress as address ‖ mask (§4.2.1.10).
    init(node: ASN1Node, inConstraint: Bool) throws(PKIError) {
        guard node.identifier.tagClass == .contextSpecific else { throw .malformedCertificate(.unexpectedTag(field: "GeneralName", tag: nil)) }
        func ia5(_ what: String) throws(PKIError) -> String {
            let bytes = try DERWalker.primitive(node, what)
            guard bytes.allSatisfy({ $0 < 0x80 }) else { throw .malformedCertificate(.notOfType(field: what, type: "IA5String")) }
            return String(decoding: bytes, as: UTF8.self)
        }
        switch node.identifier.tagNumber {
        case 0:
            let parts = try DERWalker.children(node, "otherName")
            guard let first = parts.first else { throw .malformedCertificate(.empty(field: "otherName")) }
            self = .otherName(typeID: try DERWalker.oid(first, "otherName type-id"))
        case 1: self = .rfc822Name(try ia5("rfc822Name"))
        case 2: self = .dnsName(try ia5("dNSName"))
        case 4:
            // directoryName is an explicit tag around the Name.
            let inner = try DERWalker.children(node, "directoryName")
            guard inner.count == 1 else { throw .malformedCertificate(.wrongElementCount(field: "directoryName")) }
            self = .directoryName(try DistinguishedName(node: inner[0]))
        case 6: self = .uri(try ia5("uniformResourceIdentifier"))
        case 7:
            let bytes = try DERWalker.primitive(node, "iPAddress")
            if inConstraint {
                // RFC 5280 §4.2.1.10: address followed by mask, 8 octets (IPv4) or 32 (IPv6).
                guard bytes.count == 8 || bytes.count == 32 else {
                    throw .malformedCertificate(.invalidValue(field: "iPAddress"))
                }
                let half = bytes.count / 2
                let mask = Array(bytes[half...])
                guard GeneralName.isContiguous(mask: mask) else { throw .malformedCertificate(.invalidValue(field: "iPAddress")) }
                self = .ipRange(address: Array(bytes[..<half]), mask: mask)
            } else {
                guard bytes.count == 4 || bytes.count == 16 else { throw .malformedCertificate(.invalidValue(field: "iPAddress")) }
                self = .ipAddress(bytes)
            }
        case 3, 5, 8: self = .unsupported(tag: node.identifier.tagNumber)
        default: throw .malformedCertificate(.unexpectedTag(field: "GeneralName", tag: node.identifier.tagNumber))
        }
    }

    /// A mask is ones then zeros (a CIDR prefix).
    static func isContiguous(mask: [UInt8]) -> Bool {
        var seenZero = false
        for byte in mask {
            for bit in (0..<8).reversed() {
                let one = byte & (1 << UInt8(bit)) != 0
                if one && seenZero { return false }
                if !one { seenZero = true }
            }
        }
        return true
    }

    /// Reads `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName` (a subjectAltName value).
    static func sequence(_ node: ASN1Node) throws(PKIError) -> [GeneralName] {
        let items = try DERWalker.sequence(node, "GeneralNames")
        guard !items.isEmpty else { throw .malformedCertificate(.empty(field: "GeneralNames")) }
        var names: [GeneralName] = []
        for item in items { names.append(try GeneralName(node: item, inConstraint: false)) }
        return names
    }
}
