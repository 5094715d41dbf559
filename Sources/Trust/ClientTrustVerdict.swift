import PKI

/// What the simulated client decided about the server's chain, with everything a renderer shows:
/// the challenge outcome (disposition), the reasons in order, the first failing chain check and
/// the alert the client sends when it refuses.
public struct ClientTrustVerdict: Sendable, Equatable {
    /// The ServerTrust challenge's disposition and whether the handshake continues; nil when the
    /// decision was made before the challenge (ATS, or a chain that does not parse).
    public let outcome: ChallengeOutcome?
    public let accepted: Bool
    /// Every reason in the order it was reached (ATS first, then the app's policy, then the URL loading system).
    public let reasons: [String]
    /// The chain evaluation the decision relied on (the system default one when the policy ran none).
    public let evaluation: ChainValidationResult?
    /// The first failing check of `evaluation`, if any.
    public var firstFailure: ChainCheck? { evaluation?.firstFailure }
    /// The alert sent on refusal (RFC 5246 §7.2.2), as OpenSSL's client maps the failure; nil when accepted.
    public let alert: TLSAlertName?
}
