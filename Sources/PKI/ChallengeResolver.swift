/// Turns a disposition into an outcome (what the URL loading system then does).
public enum ChallengeResolver {
    /// For `.serverTrust`, `.performDefaultHandling` runs the system default evaluation of `trust` for `host`.
    /// For `.clientCertificate`, `useCredential` sends `hasCredential`'s certificate; default handling sends none.
    public static func resolve(method: AuthenticationMethod, disposition: ChallengeDisposition, trust: ServerTrust?,
                               host: String, hasCredential: Bool = true, reasons: [String]) -> ChallengeOutcome {
        var reasons = reasons
        let continues: Bool
        switch (method, disposition) {
        case (.serverTrust, .useCredential):
            continues = true
            reasons.append("UseCredential with the server trust: the server is accepted")
        case (.serverTrust, .performDefaultHandling):
            if let result = trust?.defaultEvaluation(host: host) {
                continues = result.isValid
                reasons.append("PerformDefaultHandling: system evaluation for \(host) → \(result.result.rawValue)"
                               + (result.firstFailure.map { " (\($0.detail))" } ?? ""))
            } else {
                continues = false
                reasons.append("PerformDefaultHandling without a server trust: fails")
            }
        case (.clientCertificate, .useCredential):
            continues = true
            reasons.append(hasCredential ? "UseCredential: the client certificate is sent" : "UseCredential with no credential: an empty Certificate is sent")
        case (.clientCertificate, .performDefaultHandling):
            continues = true
            reasons.append("PerformDefaultHandling: no client certificate is sent (the server decides)")
        case (_, .cancelAuthenticationChallenge):
            continues = false
            reasons.append("CancelAuthenticationChallenge: the connection is cancelled")
        case (_, .rejectProtectionSpace):
            continues = false
            reasons.append("RejectProtectionSpace: this protection space is refused; for TLS there is no other, the connection fails")
        }
        return ChallengeOutcome(method: method, disposition: disposition, handshakeContinues: continues, reasons: reasons)
    }

    /// AFURLSessionManager's default server-trust handling: a policy YES → UseCredential, NO → Cancel;
    /// other methods → PerformDefaultHandling.
    public static func afNetworking(policy: AFSecurityPolicy, method: AuthenticationMethod, trust: ServerTrust, host: String) -> ChallengeOutcome {
        guard method == .serverTrust else {
            return resolve(method: method, disposition: .performDefaultHandling, trust: trust, host: host,
                           reasons: ["AFNetworking evaluates only ServerTrust challenges"])
        }
        let decision = policy.evaluate(trust, forDomain: host)
        return resolve(method: method, disposition: decision.accepted ? .useCredential : .cancelAuthenticationChallenge,
                       trust: trust, host: host, reasons: decision.reasons)
    }
}
