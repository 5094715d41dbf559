/// What the server presented, plus the client's trust environment: the simulator's `SecTrustRef`.
///
/// The trust is made for one host (the challenge's SSL policy names it) and runs the system default
/// evaluation for that host once, when it is made: every rule that asks for the default evaluation
/// (ATS's default-trust rule, `performDefaultHandling`, an AFSecurityPolicy that validates the domain
/// name, the evaluation a refusal is explained by) reads `defaultEvaluation` instead of validating
/// the chain again.
public struct ServerTrust: Sendable {
    public let presented: [X509Certificate]
    public let anchors: AnchorSelection
    public let time: Int64
    public let rejectWeakAlgorithms: Bool
    /// The host the SSL policy checks the leaf against (nil: no name is checked).
    public let host: String?
    /// The system default evaluation (`PerformDefaultHandling`): SSL policy with `host`, these anchors.
    public let defaultEvaluation: ChainValidationResult

    public init(presented: [X509Certificate], anchors: AnchorSelection, time: Int64, host: String?,
                rejectWeakAlgorithms: Bool = true) {
        self.presented = presented
        self.anchors = anchors
        self.time = time
        self.host = host
        self.rejectWeakAlgorithms = rejectWeakAlgorithms
        defaultEvaluation = ChainValidator(anchors: anchors, purpose: .sslServer(host: host), time: time,
                                           rejectWeakAlgorithms: rejectWeakAlgorithms).validate(presented)
    }

    /// `SecTrustEvaluate` under a policy. The default policy with these anchors is the evaluation the
    /// trust already holds; another policy or other anchors are evaluated now.
    public func evaluate(_ purpose: ChainValidator.Purpose, anchors override: AnchorSelection? = nil) -> ChainValidationResult {
        if purpose == .sslServer(host: host), override == nil || override == anchors { return defaultEvaluation }
        return ChainValidator(anchors: override ?? anchors, purpose: purpose, time: time,
                              rejectWeakAlgorithms: rejectWeakAlgorithms).validate(presented)
    }
}
