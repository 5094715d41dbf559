/// Turns a disposition into an outcome (what the URL loading system then does).
public enum ChallengeResolver {
    /// For `.serverTrust`, `.performDefaultHandling` decides by the system default evaluation for `host` (the one `trust` holds when it was made for `host`).
    /// For `.clientCertificate`, `useCredential` sends `hasCredential`'s certificate; default handling sends none.
    public static func resolve(method: AuthenticationMethod, disposition: ChallengeDisposition, trust: ServerTrust?,
                               host: String, hasCredential: Bool = true, reasons: [TrustReason]) -> ChallengeOutcome {
        var reasons = reasons
        let continues: Bool
        switch (method, disposition) {
        case (.serverTrust, .useCredential):
            continues = true
            reasons.append(.serverTrustCredentialUsed)
        case (.serverTrust, .performDefaultHandling):
            if let result = trust?.evaluate(.sslServer(host: host)) {
                continues = result.isValid
                reasons.append(.defaultHandling(host: host, EvaluationSummary(result)))
            } else {
                continues = false
                reasons.append(.defaultHandlingWithoutTrust)
            }
        case (.clientCertificate, .useCredential):
            continues = true
            reasons.append(.clientCredentialUsed(hasCredential: hasCredential))
        case (.clientCertificate, .performDefaultHandling):
            continues = true
            reasons.append(.clientCertificateDefaultHandling)
        case (_, .cancelAuthenticationChallenge):
            continues = false
            reasons.append(.cancelled)
        case (_, .rejectProtectionSpace):
            continues = false
            reasons.append(.protectionSpaceRejected)
        }
        return ChallengeOutcome(method: method, disposition: disposition, handshakeContinues: continues, reasons: reasons)
    }

    /// AFURLSessionManager's default server-trust handling: a policy YES → UseCredential, NO → Cancel;
    /// other methods → PerformDefaultHandling.
    public static func afNetworking(policy: AFSecurityPolicy, method: AuthenticationMethod, trust: ServerTrust, host: String) -> ChallengeOutcome {
        guard method == .serverTrust else {
            return resolve(method: method, disposition: .performDefaultHandling, trust: trust, host: host,
                           reasons: [.afOnlyServerTrust])
        }
        let decision = policy.evaluate(trust, forDomain: host)
        return resolve(method: method, disposition: decision.accepted ? .useCredential : .cancelAuthenticationChallenge,
                       trust: trust, host: host, reasons: decision.reasons)
    }
}
