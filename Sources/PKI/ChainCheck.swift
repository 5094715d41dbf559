/// One ordered check of the teaching trace (RFC 5280 §6.1.3, §6.1.4; RFC 9525 for the name).
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

    /// What a check found, as facts for a renderer to word (the common outcomes; nil where only
    /// ``detail`` says it yet). ``detail`` is the English line of the JSON Lines contract.
    public enum Finding: Sendable, Hashable {
        /// notBefore ≤ now ≤ notAfter; `anchor` for the trust anchor's own period.
        case withinValidity(anchor: Bool)
        /// The signature algorithm and the key: neither too weak.
        case strongEnough(signatureAlgorithm: String, keyKind: String, keyBits: Int)
        /// No critical extension the verifier does not process.
        case noUnknownCriticalExtension
        /// basicConstraints cA = TRUE.
        case isCA
        /// keyUsage has keyCertSign.
        case hasKeyCertSign
        /// extendedKeyUsage allows the purpose (serverAuth or clientAuth).
        case extendedKeyUsageAllows(purpose: String)
        /// keyUsage (its bits as listed) allows a TLS server's or client's use.
        case keyUsageAllows(keyUsage: String, server: Bool)
        /// Neither CA:TRUE nor keyCertSign on the leaf.
        case endEntity
        /// The path ends in `anchor`, found in the store named `store`.
        case anchoredBy(anchor: String, store: String)
        /// The host-name check's outcome, pass or fail.
        case name(NameFinding)
    }

    public let kind: Kind
    public let finding: Finding?
    /// Position in the path: 0 = leaf.
    public let depth: Int
    public let subject: String
    public let passed: Bool
    public let detail: String
    /// Hash1/Hash2 record for `.signature` checks.
    public let signature: SignatureCheck?
    /// For a failed `.validity` check: expired or not yet valid.
    public let validityFailure: ValidityFailure?

    public init(kind: Kind, depth: Int, subject: String, passed: Bool, detail: String, signature: SignatureCheck? = nil,
                validityFailure: ValidityFailure? = nil, finding: Finding? = nil) {
        self.kind = kind
        self.finding = finding
        self.depth = depth
        self.subject = subject
        self.passed = passed
        self.detail = detail
        self.signature = signature
        self.validityFailure = passed ? nil : validityFailure
    }

    public var description: String { "[\(passed ? "pass" : "FAIL")] depth \(depth) \(kind.rawValue): \(detail)" }
}
