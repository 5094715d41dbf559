/// The delegate's answer and what it means for the handshake.
public struct ChallengeOutcome: Sendable, Equatable {
    public let method: AuthenticationMethod
    public let disposition: ChallengeDisposition
    /// True when the TLS handshake goes on (server trusted / client credential sent or omitted).
    public let handshakeContinues: Bool
    public let reasons: [TrustReason]

    public init(method: AuthenticationMethod, disposition: ChallengeDisposition, handshakeContinues: Bool, reasons: [TrustReason]) {
        self.method = method
        self.disposition = disposition
        self.handshakeContinues = handshakeContinues
        self.reasons = reasons
    }
}
