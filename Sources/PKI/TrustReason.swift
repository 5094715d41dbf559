/// A chain evaluation as a policy step quotes it: Apple's `SecTrustResultType` and the first failing
/// check (nil when the chain is valid).
public struct EvaluationSummary: Sendable, Equatable {
    public let result: TrustResult
    public let firstFailure: ChainCheck?

    public init(result: TrustResult, firstFailure: ChainCheck?) {
        self.result = result
        self.firstFailure = firstFailure
    }

    public init(_ evaluation: ChainValidationResult) {
        self.init(result: evaluation.result, firstFailure: evaluation.firstFailure)
    }

    public var isValid: Bool { result.isValid }
}

/// Who answered the NSURLSession ServerTrust challenge (``TrustReason/challengeAnsweredBy(_:)``).
public enum ChallengeHandler: Sendable, Equatable {
    /// No delegate method: `PerformDefaultHandling`.
    case systemDefault
    /// AFNetworking's AFSecurityPolicy behind AFURLSessionManager.
    case afNetworking(mode: AFSecurityPolicy.PinningMode, pins: Int, allowInvalidCertificates: Bool, validatesDomainName: Bool)
    /// A hand-written handler's mode None / Simple / Full.
    case challengeMode(ChallengeHandlingPolicies.ChallengeMode)
    /// The hybrid web container that trusts every server.
    case webContainer
    /// The image downloader and its `allowInvalidSSLCertificates` option.
    case imageDownloader(allowInvalidSSLCertificates: Bool)
    /// A delegate anchoring the trust to `certificates` bundled certificates (plus the system's unless `anchorsOnly`).
    case bundledAnchor(certificates: Int, anchorsOnly: Bool)
    /// A handler that answers every ServerTrust challenge with one disposition, without evaluating
    /// anything itself (a lesson's `handlers`: the three answers side by side).
    case fixedAnswer(ChallengeDisposition)
}

/// One step of a certificate decision made by an app policy, the URL loading system or a server's
/// client-certificate policy, as facts with typed values. The steps are recorded in the order they
/// were reached; renderers word each one from their catalogue (with the rule that decided it).
public enum TrustReason: Sendable, Equatable {
    // MARK: Before any policy
    /// Certificate `index` (0: the leaf) of the peer's chain does not parse.
    case unparsable(index: Int, error: PKIError)
    /// The server's Certificate message is empty.
    case noServerCertificate

    // MARK: App Transport Security
    /// A step of ATS's certificate rules (they run before the challenge).
    case ats(ATSReason)

    // MARK: The ServerTrust challenge
    /// The challenge went to this handler.
    case challengeAnsweredBy(ChallengeHandler)
    /// The app has no delegate method for the challenge: default handling.
    case noDelegate
    /// A step of AFSecurityPolicy's `evaluateServerTrust:forDomain:`.
    case afNetworking(AFStep)
    /// `evaluateServerTrust:forDomain:` returned YES (→ UseCredential) or NO (→ Cancel).
    case afAnswer(accepted: Bool)
    /// AFURLSessionManager answers only ServerTrust challenges itself.
    case afOnlyServerTrust
    /// A hand-written handler's mode: None trusts every server, Full leaves it to the system.
    case modeNone, modeFull
    /// Mode Simple: a BasicX509 evaluation (no host name) and its result.
    case modeSimple(EvaluationSummary)
    /// The web container: a credential for any server trust; other challenges get default handling.
    case webContainerTrustsAny, webContainerOtherChallenge
    /// The image downloader: the option set (credential for any server) or not (default handling).
    case imageDownloaderAllowsInvalid, imageDownloaderDefault
    /// The image downloader's answer to a client-certificate challenge: its own credential, or cancel.
    case imageDownloaderOwnCredential, imageDownloaderNoCredential
    /// The app answers a client-certificate challenge with its identity (or has none).
    case appIdentity(present: Bool)
    /// The bundled-anchor delegate set `count` anchor certificates (`anchorsOnly`: the system's no longer count).
    case bundledAnchors(count: Int, anchorsOnly: Bool)
    /// `SecTrustEvaluate` with the SSL policy for `host` against the bundled anchors.
    case bundledEvaluation(host: String, EvaluationSummary)
    /// Proceed or Unspecified → useCredential; anything else → cancelAuthenticationChallenge.
    case bundledProceeds, bundledCancels
    /// A handler that always answers with this disposition (``ChallengeHandler/fixedAnswer(_:)``).
    case fixedAnswer(ChallengeDisposition)

    // MARK: The URL loading system (ChallengeResolver)
    /// UseCredential for the server trust: the server is accepted.
    case serverTrustCredentialUsed
    /// PerformDefaultHandling: the system's SSL evaluation for `host`.
    case defaultHandling(host: String, EvaluationSummary)
    /// PerformDefaultHandling without a server trust.
    case defaultHandlingWithoutTrust
    /// UseCredential on a client-certificate challenge (with or without a certificate).
    case clientCredentialUsed(hasCredential: Bool)
    /// PerformDefaultHandling on a client-certificate challenge: no certificate is sent.
    case clientCertificateDefaultHandling
    /// CancelAuthenticationChallenge.
    case cancelled
    /// RejectProtectionSpace (for TLS there is no other protection space).
    case protectionSpaceRejected
    /// The disposition and whether the handshake continues.
    case disposition(ChallengeDisposition, continues: Bool)

    // MARK: After the decision
    /// Accepted, but the leaf's key is neither RSA nor EC P-256/P-384 (`client`: CertificateVerify's key).
    case keyUnusable(client: Bool)

    // MARK: Mutual TLS (the server's MutualTLSPolicy; RFC 5246 §7.4.4, §7.4.6)
    /// Client authentication off: no CertificateRequest.
    case clientAuthenticationOff
    /// `require`: the client sent none.
    case clientCertificateMissing
    /// `request`: the client sent none, the handshake goes on unauthenticated.
    case clientCertificateOptionalMissing
    /// The client's chain fails this check against the client-CA set.
    case clientChainFails(ChainCheck)
    /// The client's chain is valid and anchored in the client-CA set.
    case clientChainValid
    /// The client leaf's subject is (or is not) on the whitelist.
    case subjectWhitelisted(subject: String, allowed: Bool)
}

/// The steps of AFSecurityPolicy's `evaluateServerTrust:forDomain:` (AFNetworking's source, with the
/// release differences of ``AFSecurityPolicy/Behaviour``).
public enum AFStep: Sendable, Equatable {
    /// AFNetworking 2.5.1: pinning mode none returns YES without evaluating the chain (issue #2590).
    case v251ModeNoneReturnsYES
    /// Step 1: a domain, allowInvalidCertificates and validatesDomainName YES, and mode none (or no pins) → NO.
    case mustUsePinning(modeNone: Bool)
    /// Step 2: the policy the trust is evaluated with: SSL with the host, or BasicX509 (no host).
    case sslPolicy(host: String?)
    case basicX509Policy
    /// Step 3 (mode none): allowInvalidCertificates OR a valid chain.
    case modeNoneResult(allowInvalidCertificates: Bool, chain: EvaluationSummary, accepted: Bool)
    /// Step 4: an invalid chain ends the evaluation unless allowInvalidCertificates is YES.
    case chainRefused(EvaluationSummary)
    case chainChecked(EvaluationSummary, tolerated: Bool)
    /// Step 5 (certificate mode): the pinned certificates as the only anchors.
    case pinnedAnchorsInvalid(pinned: Int, EvaluationSummary)
    case pinnedAnchorsValid
    case pinnedCertificateFound(subject: String)
    case noPinnedCertificateInChain
    /// Step 6 (public-key mode): a chain key equal to a pinned key.
    case publicKeyPinFound(subject: String, matches: Int)
    case noPublicKeyPinInChain(chainKeys: Int, pinnedKeys: Int)
}

/// A step of App Transport Security's evaluation of one load (Apple's Information Property List
/// reference, NSAppTransportSecurity), with the values it compared.
public enum ATSReason: Sendable, Equatable {
    /// NSExceptionDomains[`domain`] covers the host; the global keys are not inherited.
    case exceptionDomain(domain: String, viaSubdomains: Bool)
    /// NSAllowsArbitraryLoads YES is ignored: a more specific global key is present (iOS 10+).
    case arbitraryLoadsIgnored
    /// A global key switches ATS off for this load.
    case arbitraryLoads, webContentExempt, mediaExempt
    case localNetworkingExempt(host: String)
    /// No key relaxes anything: ATS's defaults hold.
    case defaults
    /// The URL's scheme.
    case httpAllowed, httpBlocked
    /// The negotiated version against the minimum.
    case versionBelowMinimum(version: ATSPolicy.TLSVersion, minimum: ATSPolicy.TLSVersion)
    case versionMeetsMinimum(version: ATSPolicy.TLSVersion, minimum: ATSPolicy.TLSVersion)
    /// Forward secrecy: missing, present, or not required by an exception.
    case notForwardSecret, forwardSecret, forwardSecrecyNotRequired
    /// The server sent no certificate.
    case noServerCertificate
    /// The leaf's key (`key`: its kind, e.g. RSA) and size.
    case keyTooSmall(key: String, bits: Int)
    case keySize(key: String, bits: Int)
    /// A presented certificate signed with a SHA-1 or MD5 hash (`hash`: its name).
    case weakSignatureHash(subject: String, hash: String)
    case signaturesStrong
    /// The system's default trust evaluation.
    case defaultTrustLoosened(EvaluationSummary)
    case defaultTrustFails(EvaluationSummary)
    case defaultTrustPasses(TrustResult)
    /// NSPinnedDomains[`domain`]: NSPinnedLeafIdentities / NSPinnedCAIdentities.
    case pinnedLeafMismatch(domain: String)
    case pinnedLeafMatches
    case pinnedCAMismatch(domain: String)
    case pinnedCAMatches(subject: String)
    /// Every rule holds.
    case allowed
    /// Before connecting (``ATSPolicy/requirements(host:loadKind:)``'s plan): an https load's
    /// restrictions, an http load allowed or blocked.
    case planHTTPS(minimum: ATSPolicy.TLSVersion, forwardSecretOnly: Bool)
    case planHTTPAllowed, planHTTPBlocked
}
