/// A trust policy's answer: the decision and the reasons, in the order they were reached.
public struct PolicyDecision: Sendable, Equatable {
    public let accepted: Bool
    public let reasons: [TrustReason]
    /// The chain evaluation the policy relied on, when it ran one.
    public let evaluation: ChainValidationResult?
    /// App Transport Security only: each rule it applied, in order, as facts (empty for other policies).
    public let atsChecks: [ATSRuleCheck]

    public init(accepted: Bool, reasons: [TrustReason], evaluation: ChainValidationResult? = nil, atsChecks: [ATSRuleCheck] = []) {
        self.accepted = accepted
        self.reasons = reasons
        self.evaluation = evaluation
        self.atsChecks = atsChecks
    }
}
