/// What the server presented, plus the client's trust environment: the simulator's `SecTrustRef`.
public struct ServerTrust: Sendable {
    public let presented: [X509Certificate]
    public var anchors: AnchorSelection
    public let time: Int64
    public var rejectWeakAlgorithms: Bool

    public init(presented: [X509Certificate], anchors: AnchorSelection, time: Int64, rejectWeakAlgorithms: Bool = true) {
        self.presented = presented
        self.anchors = anchors
        self.time = time
        self.rejectWeakAlgorithms = rejectWeakAlgorithms
    }

    /// `SecTrustEvaluate` under a policy.
    public func evaluate(_ purpose: ChainValidator.Purpose, anchors override: AnchorSelection? = nil) -> ChainValidationResult {
        ChainValidator(anchors: override ?? anchors, purpose: purpose, time: time,
                       rejectWeakAlgorithms: rejectWeakAlgorithms).validate(presented)
    }

    /// The system default evaluation (`PerformDefaultHandling`): SSL policy with the host.
    public func defaultEvaluation(host: String) -> ChainValidationResult { evaluate(.sslServer(host: host)) }
}
