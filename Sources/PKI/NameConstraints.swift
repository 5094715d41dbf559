import SwiftASN1

/// The nameConstraints extension of a CA certificate (RFC 5280 §4.2.1.10): the name spaces in
/// which every subject name and subjectAltName below the CA must (permitted) or must not
/// (excluded) lie.
public struct NameConstraints: Sendable, Hashable {
    /// permittedSubtrees' bases; nil when the field is absent.
    public let permitted: [GeneralName]?
    /// excludedSubtrees' bases; nil when the field is absent.
    public let excluded: [GeneralName]?

    /// Reads `NameConstraints ::= SEQUENCE { permittedSubtrees [0] GeneralSubtrees OPTIONAL,
    /// excludedSubtrees [1] GeneralSubtrees OPTIONAL }`. An empty NameConstraints or an empty
    /// GeneralSubtrees (`SIZE (1..MAX)`), a minimum other than 0 or any maximum is malformed (§4.2.1.10).
    init(value: [UInt8]) throws(PKIError) {
        var permitted: [GeneralName]?
        var excluded: [GeneralName]?
        let fields = try DERWalker.sequence(try DERWalker.parse(value), "NameConstraints")
        guard !fields.isEmpty else { throw .malformedCertificate(.empty(field: "NameConstraints")) }
        for field in fields {
            guard field.identifier.tagClass == .contextSpecific, field.identifier.tagNumber <= 1 else {
                throw .malformedCertificate(.unexpectedTag(field: "NameConstraints", tag: nil))
            }
            let subtrees = try DERWalker.children(field, "GeneralSubtrees")
            guard !subtrees.isEmpty else { throw .malformedCertificate(.empty(field: "GeneralSubtrees")) }
            var bases: [GeneralName] = []
            for subtree in subtrees {
                let parts = try DERWalker.sequence(subtree, "GeneralSubtree")
                guard let base = parts.first else { throw .malformedCertificate(.empty(field: "GeneralSubtree")) }
                // minimum [0] DEFAULT 0 (which DER omits) and maximum [1]: both MUST be absent.
                guard parts.count == 1 else {
                    throw .malformedCertificate(.mustBeAbsent(field: "GeneralSubtree minimum / maximum"))
                }
                bases.append(try GeneralName(node: base, inConstraint: true))
            }
            if field.identifier.tagNumber == 0 {
                guard permitted == nil else { throw .malformedCertificate(.twice(field: "permittedSubtrees")) }
                permitted = bases
            } else {
                guard excluded == nil else { throw .malformedCertificate(.twice(field: "excludedSubtrees")) }
                excluded = bases
            }
        }
        self.permitted = permitted
        self.excluded = excluded
    }

    /// Constraint bases that are not well-formed for their type: a dNSName with a wildcard or a
    /// leading period (§4.2.1.10 describes a DNS constraint as a host name to which labels are
    /// added on the left), an rfc822Name with more than one `@`.
    public var malformedBases: [GeneralName] {
        ((permitted ?? []) + (excluded ?? [])).filter { base in
            switch base {
            case .dnsName(let name): return !name.isEmpty && !NameConstraintMatching.isHostName(name, allowWildcard: false)
            case .rfc822Name(let box): return box.filter { $0 == "@" }.count > 1 || box.isEmpty
            case .uri(let host): return host.isEmpty
            default: return false
            }
        }
    }

    /// Number of constraint bases (for the work bound).
    public var count: Int { (permitted?.count ?? 0) + (excluded?.count ?? 0) }
}

/// How one name is compared with one constraint base (RFC 5280 §4.2.1.10).
public enum NameConstraintMatching {
    /// The outcome of comparing a name with a base of the same type.
    public enum Match: Sendable, Equatable {
        case inside, outside
        /// The name is not well-formed for its type, so no constraint can be decided for it.
        case malformedName
    }

    /// Host-name syntax: non-empty LDH labels (RFC 1034 §3.5, RFC 5280 §4.2.1.6), with an optional
    /// `*` as the whole left-most label when `allowWildcard`.
    public static func isHostName(_ name: String, allowWildcard: Bool) -> Bool {
        var text = name.lowercased()
        if text.hasSuffix(".") { text.removeLast() }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty else { return false }
        let ldh = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for (index, label) in labels.enumerated() {
            if allowWildcard && index == 0 && label == "*" && labels.count > 1 { continue }
            guard !label.isEmpty, label.count <= 63, label.allSatisfy({ ldh.contains($0) }) else { return false }
        }
        return true
    }

    static func normalized(_ name: String) -> String {
        var text = name.lowercased()
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `name` equals `base` or is `base` with labels added on the left (§4.2.1.10 for dNSName).
    static func dnsWithin(_ name: String, _ base: String) -> Bool {
        base.isEmpty || name == base || name.hasSuffix("." + base)
    }

    /// A dNSName against a dNSName base. A wildcard SAN `*.d` stands for every name one label
    /// below `d`: it is inside a permitted base only when all of them are (`d` within the base),
    /// and hits an excluded base when any of them might (`d` within it, or the base below `d`).
    public static func dns(_ rawName: String, base rawBase: String, excluded: Bool) -> Match {
        guard isHostName(rawName, allowWildcard: true) else { return .malformedName }
        let name = normalized(rawName), base = normalized(rawBase)
        if name.hasPrefix("*.") {
            let domain = String(name.dropFirst(2))
            if dnsWithin(domain, base) { return .inside }
            return excluded && base.hasSuffix("." + domain) ? .inside : .outside
        }
        return dnsWithin(name, base) ? .inside : .outside
    }

    /// An rfc822Name against an rfc822Name base: a mailbox (exact; host case-insensitive), a host
    /// (every mailbox on it), or `.domain` (every mailbox on a host below it). `*` is literal.
    public static func email(_ mailbox: String, base: String) -> Match {
        let parts = mailbox.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, isHostName(String(parts[1]), allowWildcard: false) else { return .malformedName }
        let local = String(parts[0]), host = normalized(String(parts[1]))
        if base.contains("@") {
            let baseParts = base.split(separator: "@", omittingEmptySubsequences: false)
            guard baseParts.count == 2 else { return .outside }
            return local == baseParts[0] && host == normalized(String(baseParts[1])) ? .inside : .outside
        }
        let domain = normalized(base)
        if domain.hasPrefix(".") { return host.hasSuffix(domain) ? .inside : .outside }
        return host == domain ? .inside : .outside
    }

    /// A URI against a URI base: the URI's host equals the base, or, for `.domain`, lies below it.
    public static func uri(_ uri: String, base: String) -> Match {
        guard let schemeEnd = uri.range(of: "://") else { return .malformedName }
        var authority = Substring(uri[schemeEnd.upperBound...])
        if let end = authority.firstIndex(where: { "/?#".contains($0) }) { authority = authority[..<end] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let colon = authority.firstIndex(of: ":") { authority = authority[..<colon] }
        let host = normalized(String(authority))
        guard isHostName(host, allowWildcard: false) else { return .malformedName }
        let domain = normalized(base)
        if domain.hasPrefix(".") { return host.hasSuffix(domain) ? .inside : .outside }
        return host == domain ? .inside : .outside
    }

    /// An address against an address range of the same family (§4.2.1.10: address and mask).
    public static func ip(_ address: [UInt8], range: [UInt8], mask: [UInt8]) -> Match {
        guard address.count == range.count else { return .outside }
        for i in 0..<address.count where address[i] & mask[i] != range[i] & mask[i] { return .outside }
        return .inside
    }

    /// A directory name against a directoryName base: the base's RDNs begin the name (§4.2.1.10;
    /// RDNs compared by their encoding, a simplification of §7.1).
    public static func directory(_ name: DistinguishedName, base: DistinguishedName) -> Match {
        guard base.relativeNames.count <= name.relativeNames.count else { return .outside }
        return zip(base.relativeNames, name.relativeNames).allSatisfy { $0 == $1 } ? .inside : .outside
    }

    /// `name` against `base` when both have the same type; nil when the types differ or the type
    /// cannot be compared (otherName, x400Address, ediPartyName, registeredID).
    public static func compare(_ name: GeneralName, _ base: GeneralName, excluded: Bool) -> Match? {
        switch (name, base) {
        case (.dnsName(let n), .dnsName(let b)): return dns(n, base: b, excluded: excluded)
        case (.rfc822Name(let n), .rfc822Name(let b)): return email(n, base: b)
        case (.uri(let n), .uri(let b)): return uri(n, base: b)
        case (.ipAddress(let n), .ipRange(let range, let mask)): return ip(n, range: range, mask: mask)
        case (.directoryName(let n), .directoryName(let b)): return directory(n, base: b)
        default: return nil
        }
    }
}
