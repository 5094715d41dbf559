/// Name-constraint processing (RFC 5280 §6.1.3 b–c, §6.1.4 g; §4.2.1.10): every CA's constraints,
/// the trust anchor's included, apply to each certificate below it in the path except
/// self-issued intermediates; the leaf is always checked.
extension ChainValidator {
    /// Most name-against-constraint comparisons one path may cost (Go's crypto/x509 uses the same
    /// bound): a chain built to make the check quadratic is refused instead of evaluated.
    static let nameConstraintComparisonLimit = 250_000

    /// The names a certificate is constrained by: its subjectAltName entries, its subject as a
    /// directoryName when non-empty, and emailAddress attributes of the subject as rfc822Names (§4.2.1.10).
    static func constrainedNames(_ cert: X509Certificate) -> [GeneralName] {
        var names = cert.extensions.subjectAltNames ?? []
        if !cert.subject.attributes.isEmpty { names.append(.directoryName(cert.subject)) }
        for attribute in cert.subject.attributes where attribute.oid == "1.2.840.113549.1.9.1" {
            names.append(.rfc822Name(attribute.value))
        }
        return names
    }

    /// For each certificate carrying nameConstraints: its depth and the problems found below it (empty: satisfied).
    static func nameConstraintResults(path: [X509Certificate]) -> [(depth: Int, problems: [ChainCheck.NameConstraintProblem])] {
        var results: [(depth: Int, problems: [ChainCheck.NameConstraintProblem])] = []
        var budget = nameConstraintComparisonLimit
        for (caDepth, ca) in path.enumerated() {
            guard caDepth > 0, let constraints = ca.extensions.nameConstraints else { continue }
            var problems: [ChainCheck.NameConstraintProblem] = []
            let malformed = constraints.malformedBases
            if !malformed.isEmpty {
                problems.append(.malformedConstraints(malformed.map(\.description)))
                results.append((caDepth, problems))
                continue
            }
            for depth in (0..<caDepth).reversed() {
                let cert = path[depth]
                if depth > 0 && cert.isSelfIssued { continue }
                let names = constrainedNames(cert)
                budget -= names.count * constraints.count
                guard budget >= 0 else {
                    problems.append(.tooManyComparisons(limit: nameConstraintComparisonLimit))
                    break
                }
                problems += violations(of: constraints, by: names, at: depth)
            }
            results.append((caDepth, problems))
        }
        return results
    }

    /// §4.2.1.10: a name must lie inside one permitted subtree of its type when any of that type is
    /// listed, and inside no excluded subtree. A name type we cannot compare (otherName, …) fails
    /// when a constraint of that type exists, since it cannot be shown to satisfy it.
    static func violations(of constraints: NameConstraints, by names: [GeneralName], at depth: Int) -> [ChainCheck.NameConstraintProblem] {
        var problems: [ChainCheck.NameConstraintProblem] = []
        let permitted = constraints.permitted ?? []
        let excluded = constraints.excluded ?? []
        for name in names {
            let permittedOfType = permitted.filter { $0.tag == name.tag }
            let excludedOfType = excluded.filter { $0.tag == name.tag }
            if permittedOfType.isEmpty && excludedOfType.isEmpty { continue }
            var malformedName = false
            var excludedBy: GeneralName?
            for base in excludedOfType {
                switch NameConstraintMatching.compare(name, base, excluded: true) {
                case .inside?: excludedBy = base
                case .malformedName?: malformedName = true
                case .outside?: break
                case nil: excludedBy = base   // a type we cannot compare: treated as a match
                }
                if excludedBy != nil || malformedName { break }
            }
            if malformedName {
                problems.append(.malformedName(depth: depth, name: name.description))
                continue
            }
            if let excludedBy {
                problems.append(.excluded(depth: depth, name: name.description, subtree: excludedBy.description))
                continue
            }
            guard !permittedOfType.isEmpty else { continue }
            var inside = false
            for base in permittedOfType {
                switch NameConstraintMatching.compare(name, base, excluded: false) {
                case .inside?: inside = true
                case .malformedName?: malformedName = true
                case .outside?, nil: break
                }
                if inside || malformedName { break }
            }
            if malformedName {
                problems.append(.malformedName(depth: depth, name: name.description))
            } else if !inside {
                problems.append(.notPermitted(depth: depth, name: name.description, permitted: permittedOfType.map(\.description)))
            }
        }
        return problems
    }
}
