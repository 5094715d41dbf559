/// The full answer of a chain validation: outcome, the path used, every check in order.
public struct ChainValidationResult: Sendable, Equatable {
    public let result: TrustResult
    /// leaf … anchor (or as far as the path could be built).
    public let path: [X509Certificate]
    public let checks: [ChainCheck]
    /// The store whose anchor ended the path.
    public let anchorStore: TrustStoreName?

    public var firstFailure: ChainCheck? { checks.first { !$0.passed } }
    public var isValid: Bool { result.isValid }
}
