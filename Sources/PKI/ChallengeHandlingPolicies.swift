/// Hand-written `NSURLSessionDelegate` challenge handlers an app may ship (beside AFSecurityPolicy): the
/// three server-trust modes, a hybrid web container that trusts every server, and an image downloader
/// with an opt-in for invalid certificates.
public enum ChallengeHandlingPolicies {
    /// Three server-trust modes such a handler offers.
    public enum ChallengeMode: String, Sendable, Hashable, CaseIterable {
        /// Trust anything, even self-signed or expired.
        case none
        /// X.509 chain check without the host name (risky: any certificate from a trusted issuer passes).
        case simple
        /// The system default: chain and host.
        case full
    }

    /// Server-trust decision for a challenge mode.
    public static func challengeMode(_ mode: ChallengeMode, trust: ServerTrust, host: String) -> ChallengeOutcome {
        switch mode {
        case .none:
            return ChallengeResolver.resolve(method: .serverTrust, disposition: .useCredential, trust: trust, host: host,
                                             reasons: [.modeNone])
        case .simple:
            let result = trust.evaluate(.basicX509)
            return ChallengeResolver.resolve(method: .serverTrust, disposition: result.isValid ? .useCredential : .cancelAuthenticationChallenge,
                                             trust: trust, host: host,
                                             reasons: [.modeSimple(EvaluationSummary(result))])
        case .full:
            return ChallengeResolver.resolve(method: .serverTrust, disposition: .performDefaultHandling, trust: trust, host: host,
                                             reasons: [.modeFull])
        }
    }

    /// The hybrid web container that trusts every server.
    public static func webContainer(method: AuthenticationMethod, trust: ServerTrust, host: String) -> ChallengeOutcome {
        guard method == .serverTrust else {
            return ChallengeResolver.resolve(method: method, disposition: .performDefaultHandling, trust: trust, host: host,
                                             reasons: [.webContainerOtherChallenge])
        }
        return ChallengeResolver.resolve(method: method, disposition: .useCredential, trust: trust, host: host,
                                         reasons: [.webContainerTrustsAny])
    }

    /// The image downloader: trusts invalid certificates only when `allowInvalidSSLCertificates` is set,
    /// otherwise default handling; other challenges get its own credential, or are cancelled.
    public static func imageDownloader(method: AuthenticationMethod, allowInvalidSSLCertificates: Bool,
                                       ownCredential: Bool, trust: ServerTrust, host: String) -> ChallengeOutcome {
        switch method {
        case .serverTrust:
            if allowInvalidSSLCertificates {
                return ChallengeResolver.resolve(method: method, disposition: .useCredential, trust: trust, host: host,
                                                 reasons: [.imageDownloaderAllowsInvalid])
            }
            return ChallengeResolver.resolve(method: method, disposition: .performDefaultHandling, trust: trust, host: host,
                                             reasons: [.imageDownloaderDefault])
        case .clientCertificate:
            if ownCredential {
                return ChallengeResolver.resolve(method: method, disposition: .useCredential, trust: trust, host: host,
                                                 reasons: [.imageDownloaderOwnCredential])
            }
            return ChallengeResolver.resolve(method: method, disposition: .cancelAuthenticationChallenge, trust: trust, host: host,
                                             reasons: [.imageDownloaderNoCredential])
        }
    }

    /// A handler that answers every ServerTrust challenge with `disposition` and evaluates nothing
    /// itself: `useCredential` with a credential made from the challenge's trust (URLCredential(trust:)),
    /// `performDefaultHandling` (the system evaluates the trust for the host), or
    /// `cancelAuthenticationChallenge` (the request is cancelled whatever the chain).
    public static func fixedAnswer(_ disposition: ChallengeDisposition, trust: ServerTrust, host: String) -> ChallengeOutcome {
        ChallengeResolver.resolve(method: .serverTrust, disposition: disposition, trust: trust, host: host,
                                  reasons: [.fixedAnswer(disposition)])
    }
}
