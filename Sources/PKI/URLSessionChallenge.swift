/// The NSURLSession authentication-challenge layer (seed 000): which method the challenge is,
/// what the delegate answers, and whether the handshake then continues.
public enum AuthenticationMethod: String, Sendable, Hashable, CaseIterable {
    /// `NSURLAuthenticationMethodServerTrust`: the server's certificate chain is to be judged.
    case serverTrust
    /// `NSURLAuthenticationMethodClientCertificate`: the server asked for a client certificate.
    case clientCertificate
}

/// `NSURLSessionAuthChallengeDisposition`.
public enum ChallengeDisposition: String, Sendable, Hashable, CaseIterable {
    /// Use the supplied credential (for server trust: accept this server).
    case useCredential
    /// Let the system decide (for server trust: the default SSL evaluation with the host).
    case performDefaultHandling
    /// Cancel: the connection fails.
    case cancelAuthenticationChallenge
    /// Reject this protection space; the next method is tried (for TLS: the connection fails).
    case rejectProtectionSpace
}

/// The delegate's answer and what it means for the handshake.
public struct ChallengeOutcome: Sendable, Equatable {
    public let method: AuthenticationMethod
    public let disposition: ChallengeDisposition
    /// True when the TLS handshake goes on (server trusted / client credential sent or omitted).
    public let handshakeContinues: Bool
    public let reasons: [String]
}

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
