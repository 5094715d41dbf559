import PKI

/// The server-trust behaviour of the simulated client app: who answers the NSURLSession
/// ServerTrust challenge, and how (seeds 000–004).
public enum ClientTrustPolicy: Sendable {
    /// No delegate: `PerformDefaultHandling`, the system's SSL evaluation with the host.
    case systemDefault
    /// AFNetworking's `AFSecurityPolicy` behind AFURLSessionManager (YES → UseCredential, NO → Cancel).
    case afNetworking(AFSecurityPolicy)
    /// A hand-written challenge handler's modes None / Simple / Full.
    case challengeMode(ChallengeHandlingPolicies.ChallengeMode)
    /// The hybrid web container that trusts every server.
    case webContainer
    /// The image downloader (`allowInvalidSSLCertificates` option).
    case imageDownloader(allowInvalidSSLCertificates: Bool)
    /// The bundled-anchor delegate: the app's bundled certificates as the trust's anchors, `SecTrustEvaluate`,
    /// Proceed/Unspecified → UseCredential, anything else → Cancel.
    case bundledAnchor([X509Certificate], anchorsOnly: Bool)

    /// A short name for traces.
    public var name: String {
        switch self {
        case .systemDefault: return "system default handling"
        case .afNetworking(let p):
            return "AFSecurityPolicy(mode \(p.mode.rawValue), \(p.pinnedCertificates.count) pin(s), allowInvalid \(p.allowInvalidCertificates ? "YES" : "NO"), "
                + "validatesDomainName \(p.validatesDomainName ? "YES" : "NO"))"
        case .challengeMode(let mode): return "challenge mode \(mode.rawValue)"
        case .webContainer: return "web container"
        case .imageDownloader(let allow): return "image downloader (allowInvalidSSLCertificates \(allow ? "YES" : "NO"))"
        case .bundledAnchor(let certificates, let only):
            return "a delegate anchoring the trust to \(certificates.count) bundled certificate(s)\(only ? "" : " plus the system anchors")"
        }
    }
}
