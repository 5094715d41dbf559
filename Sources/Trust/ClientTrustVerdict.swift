import PKI

/// What the simulated client decided about the server's chain, with everything a renderer shows:
/// the challenge outcome (disposition), the reasons in order, the first failing chain check and
/// the named reason of a refusal (the engine's table gives the alert).
public struct ClientTrustVerdict: Sendable, Equatable {
    /// The ServerTrust challenge's disposition and whether the handshake continues; nil when the
    /// decision was made before the challenge (ATS, or a chain that does not parse).
    public let outcome: ChallengeOutcome?
    public let accepted: Bool
    /// Every reason in the order it was reached (ATS first, then the app's policy, then the URL loading system).
    public let reasons: [TrustReason]
    /// The chain evaluation the decision relied on (the system default one when the policy ran none).
    public let evaluation: ChainValidationResult?
    /// The first failing check of `evaluation`, if any.
    public var firstFailure: ChainCheck? { evaluation?.firstFailure }
    /// Why the chain was refused; nil when accepted.
    public let refusal: CertificateRefusal?
}
