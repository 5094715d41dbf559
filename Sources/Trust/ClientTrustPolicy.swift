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
    /// A handler that answers every ServerTrust challenge with one disposition, evaluating nothing itself.
    case fixedAnswer(ChallengeDisposition)

    /// Who answers the challenge, as a fact for the trace (renderers name it).
    public var handler: ChallengeHandler {
        switch self {
        case .systemDefault: return .systemDefault
        case .afNetworking(let p):
            return .afNetworking(mode: p.mode, pins: p.pinnedCertificates.count, allowInvalidCertificates: p.allowInvalidCertificates,
                                 validatesDomainName: p.validatesDomainName)
        case .challengeMode(let mode): return .challengeMode(mode)
        case .webContainer: return .webContainer
        case .imageDownloader(let allow): return .imageDownloader(allowInvalidSSLCertificates: allow)
        case .bundledAnchor(let certificates, let only): return .bundledAnchor(certificates: certificates.count, anchorsOnly: only)
        case .fixedAnswer(let disposition): return .fixedAnswer(disposition)
        }
    }
}
