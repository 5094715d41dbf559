/// One ordered check of the teaching trace (RFC 5280 §6.1.3, §6.1.4; RFC 9525 for the name).
/// What the check found is a typed ``Finding``: the renderers word it from their catalogue.
public struct ChainCheck: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case pathBuilding, anchor, signature, validity, algorithmStrength, criticalExtensions
        case caFlag, keyCertSign, pathLength, extendedKeyUsage, keyUsage, endEntity, name
        /// RFC 5280 §4.2.1.10 name constraints of a CA, checked against every certificate below it.
        case nameConstraints
        /// More intermediates than the verifier allows (a maximum chain depth).
        case chainDepth
        /// The certificate profile: serial number, key identifiers, extension criticality rules
        /// (RFC 5280 §4.1.2.2, §4.2.1.x; CABF Baseline Requirements §7.1.2).
        case profile
    }

    /// Which side of the validity period a failed `.validity` check fell on (the TLS alert differs).
    public enum ValidityFailure: String, Sendable, Hashable {
        case expired, notYetValid
    }

    public let kind: Kind
    /// What the check found, pass or fail, as facts.
    public let finding: Finding
    /// Position in the path: 0 = leaf.
    public let depth: Int
    public let subject: String
    public let passed: Bool
    /// Hash1/Hash2 record for `.signature` checks.
    public let signature: SignatureCheck?

    public init(kind: Kind, depth: Int, subject: String, passed: Bool, finding: Finding, signature: SignatureCheck? = nil) {
        self.kind = kind
        self.finding = finding
        self.depth = depth
        self.subject = subject
        self.passed = passed
        self.signature = signature
    }

    /// For a failed `.validity` check: expired or not yet valid.
    public var validityFailure: ValidityFailure? {
        guard !passed else { return nil }
        switch finding {
        case .expired: return .expired
        case .notYetValid: return .notYetValid
        default: return nil
        }
    }

    /// A debugging line (tests, logs); the renderers word ``finding`` from their catalogue.
    public var description: String { "[\(passed ? "pass" : "FAIL")] depth \(depth) \(kind.rawValue): \(finding)" }
}
