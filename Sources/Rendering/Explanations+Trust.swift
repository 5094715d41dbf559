import PKI
import TLSEngine

/// The steps of a policy's certificate decision (``TrustReason``, ``ATSReason``, ``AFStep``) worded from
/// the catalogue: each says which rule decided — Apple's NSURLSession challenge and ATS documentation,
/// AFNetworking's `AFSecurityPolicy` source, RFC 5246 for mutual TLS — and, where it refuses or
/// relaxes, what the rule protects against.
extension Explanations {
    /// One step, in one line.
    public func trustReason(_ reason: TrustReason) -> String {
        let (key, values) = trustReasonKey(reason)
        return say(key, values)
    }

    /// A decision's steps joined in reading order (the list separator of this language).
    public func trustReasons(_ reasons: [TrustReason]) -> String {
        reasons.map(trustReason).joined(separator: say("trust.separator"))
    }

    /// The catalogue key of a step (JSON Lines' `key`) and its values.
    public func trustReasonKey(_ reason: TrustReason) -> (String, [String: String]) {
        switch reason {
        case let .unparsable(index, error): return ("trust.unparsable", ["index": "\(index)", "error": pkiError(error)])
        case .noServerCertificate: return ("trust.noServerCertificate", [:])
        case .ats(let ats): return ("trust.ats", ["step": atsReason(ats)])
        case .challengeAnsweredBy(let handler): return ("trust.answeredBy", ["handler": challengeHandler(handler)])
        case .noDelegate: return ("trust.noDelegate", [:])
        case .afNetworking(let step): return ("trust.af", ["step": afStep(step)])
        case .afAnswer(let accepted): return (accepted ? "trust.afAnswer.yes" : "trust.afAnswer.no", [:])
        case .afOnlyServerTrust: return ("trust.afOnlyServerTrust", [:])
        case .modeNone: return ("trust.modeNone", [:])
        case .modeFull: return ("trust.modeFull", [:])
        case .modeSimple(let chain): return ("trust.modeSimple", ["result": outcome(chain)])
        case .webContainerTrustsAny: return ("trust.webContainerTrustsAny", [:])
        case .webContainerOtherChallenge: return ("trust.webContainerOtherChallenge", [:])
        case .imageDownloaderAllowsInvalid: return ("trust.imageDownloaderAllowsInvalid", [:])
        case .imageDownloaderDefault: return ("trust.imageDownloaderDefault", [:])
        case .imageDownloaderOwnCredential: return ("trust.imageDownloaderOwnCredential", [:])
        case .imageDownloaderNoCredential: return ("trust.imageDownloaderNoCredential", [:])
        case .appIdentity(let present): return (present ? "trust.appIdentity.yes" : "trust.appIdentity.no", [:])
        case let .bundledAnchors(count, only):
            return (only ? "trust.bundledAnchors.only" : "trust.bundledAnchors.plusSystem", ["count": "\(count)"])
        case let .bundledEvaluation(host, chain): return ("trust.bundledEvaluation", ["host": host, "result": outcome(chain)])
        case .bundledProceeds: return ("trust.bundledProceeds", [:])
        case .bundledCancels: return ("trust.bundledCancels", [:])
        case .fixedAnswer(let disposition):
            switch disposition {
            case .useCredential: return ("trust.fixedAnswer.useCredential", [:])
            case .performDefaultHandling: return ("trust.fixedAnswer.performDefaultHandling", [:])
            case .cancelAuthenticationChallenge: return ("trust.fixedAnswer.cancelAuthenticationChallenge", [:])
            case .rejectProtectionSpace: return ("trust.protectionSpaceRejected", [:])
            }
        case .serverTrustCredentialUsed: return ("trust.serverTrustCredentialUsed", [:])
        case let .defaultHandling(host, chain): return ("trust.defaultHandling", ["host": host, "result": outcome(chain)])
        case .defaultHandlingWithoutTrust: return ("trust.defaultHandlingWithoutTrust", [:])
        case .clientCredentialUsed(let has): return (has ? "trust.clientCredentialUsed" : "trust.clientCredentialUsed.empty", [:])
        case .clientCertificateDefaultHandling: return ("trust.clientCertificateDefaultHandling", [:])
        case .cancelled: return ("trust.cancelled", [:])
        case .protectionSpaceRejected: return ("trust.protectionSpaceRejected", [:])
        case let .disposition(disposition, continues):
            return (continues ? "trust.disposition.continues" : "trust.disposition.aborted", ["disposition": disposition.rawValue])
        case .keyUnusable(let client): return (client ? "trust.keyUnusable.client" : "trust.keyUnusable.server", [:])
        case .clientAuthenticationOff: return ("trust.clientAuthenticationOff", [:])
        case .clientCertificateMissing: return ("trust.clientCertificateMissing", [:])
        case .clientCertificateOptionalMissing: return ("trust.clientCertificateOptionalMissing", [:])
        case .clientChainFails(let check): return ("trust.clientChainFails", ["detail": chainCheckDetail(check)])
        case .clientChainValid: return ("trust.clientChainValid", [:])
        case let .subjectWhitelisted(subject, allowed):
            return (allowed ? "trust.subjectWhitelisted.yes" : "trust.subjectWhitelisted.no", ["subject": subject])
        }
    }

    /// Who answered the ServerTrust challenge.
    public func challengeHandler(_ handler: ChallengeHandler) -> String {
        switch handler {
        case .systemDefault: return say("handler.systemDefault")
        case let .afNetworking(mode, pins, allowInvalid, validates):
            return say("handler.afNetworking", ["mode": Self.pinningModeName(mode), "pins": "\(pins)", "allowInvalid": yesNo(allowInvalid),
                                                "validatesDomainName": yesNo(validates)])
        case .challengeMode(let mode): return say("handler.challengeMode", ["mode": Self.challengeModeName(mode)])
        case .webContainer: return say("handler.webContainer")
        case .imageDownloader(let allow): return say("handler.imageDownloader", ["allow": yesNo(allow)])
        case let .bundledAnchor(count, only):
            return say(only ? "handler.bundledAnchor" : "handler.bundledAnchor.plusSystem", ["count": "\(count)"])
        case .fixedAnswer(let disposition): return say("handler.fixedAnswer", ["disposition": disposition.rawValue])
        }
    }

    /// A step of AFSecurityPolicy's `evaluateServerTrust:forDomain:`.
    public func afStep(_ step: AFStep) -> String {
        switch step {
        case .v251ModeNoneReturnsYES: return say("af.v251ModeNone")
        case .mustUsePinning(let modeNone): return say(modeNone ? "af.mustUsePinning.modeNone" : "af.mustUsePinning.noPins")
        case .sslPolicy(let host): return say("af.sslPolicy", ["host": host ?? say("af.noHost")])
        case .basicX509Policy: return say("af.basicX509Policy")
        case let .modeNoneResult(allow, chain, accepted):
            return say(accepted ? "af.modeNoneResult.yes" : "af.modeNoneResult.no", ["allowInvalid": yesNo(allow), "chain": evaluation(chain)])
        case .chainRefused(let chain): return say("af.chainRefused", ["chain": evaluation(chain)])
        case let .chainChecked(chain, tolerated):
            return say(tolerated ? "af.chainChecked.tolerated" : "af.chainChecked", ["chain": evaluation(chain)])
        case let .pinnedAnchorsInvalid(pinned, chain):
            return say("af.pinnedAnchorsInvalid", ["count": "\(pinned)", "why": chain.firstFailure.map(chainCheckDetail) ?? chain.result.rawValue])
        case .pinnedAnchorsValid: return say("af.pinnedAnchorsValid")
        case .pinnedCertificateFound(let subject): return say("af.pinnedCertificateFound", ["subject": subject])
        case .noPinnedCertificateInChain: return say("af.noPinnedCertificateInChain")
        case let .publicKeyPinFound(subject, matches): return say("af.publicKeyPinFound", ["subject": subject, "matches": "\(matches)"])
        case let .noPublicKeyPinInChain(chainKeys, pinnedKeys):
            return say("af.noPublicKeyPinInChain", ["chainKeys": "\(chainKeys)", "pinnedKeys": "\(pinnedKeys)"])
        }
    }

    /// A step of App Transport Security.
    public func atsReason(_ reason: ATSReason) -> String {
        switch reason {
        case let .exceptionDomain(domain, via):
            return say(via ? "atsReason.exceptionDomain.subdomains" : "atsReason.exceptionDomain", ["domain": domain])
        case .arbitraryLoadsIgnored: return say("atsReason.arbitraryLoadsIgnored")
        case .arbitraryLoads: return say("atsReason.arbitraryLoads")
        case .webContentExempt: return say("atsReason.webContentExempt")
        case .mediaExempt: return say("atsReason.mediaExempt")
        case .localNetworkingExempt(let host): return say("atsReason.localNetworkingExempt", ["host": host])
        case .defaults: return say("atsReason.defaults")
        case .httpAllowed: return say("atsReason.httpAllowed")
        case .httpBlocked: return say("atsReason.httpBlocked")
        case let .versionBelowMinimum(version, minimum):
            return say("atsReason.versionBelowMinimum", ["version": version.name, "minimum": minimum.name])
        case let .versionMeetsMinimum(version, minimum):
            return say("atsReason.versionMeetsMinimum", ["version": version.name, "minimum": minimum.name])
        case .notForwardSecret: return say("atsReason.notForwardSecret")
        case .forwardSecret: return say("atsReason.forwardSecret")
        case .forwardSecrecyNotRequired: return say("atsReason.forwardSecrecyNotRequired")
        case .noServerCertificate: return say("atsReason.noServerCertificate")
        case let .keyTooSmall(key, bits): return say("atsReason.keyTooSmall", ["key": key, "bits": "\(bits)"])
        case let .keySize(key, bits): return say("atsReason.keySize", ["key": key, "bits": "\(bits)"])
        case let .weakSignatureHash(subject, hash): return say("atsReason.weakSignatureHash", ["subject": subject, "hash": hash])
        case .signaturesStrong: return say("atsReason.signaturesStrong")
        case .defaultTrustLoosened(let chain):
            return say("atsReason.defaultTrustLoosened", ["why": chain.firstFailure.map(chainCheckDetail) ?? "?"])
        case .defaultTrustFails(let chain):
            return say("atsReason.defaultTrustFails", ["why": chain.firstFailure.map(chainCheckDetail) ?? chain.result.rawValue])
        case .defaultTrustPasses(let result): return say("atsReason.defaultTrustPasses", ["result": result.rawValue])
        case .pinnedLeafMismatch(let domain): return say("atsReason.pinnedLeafMismatch", ["domain": domain])
        case .pinnedLeafMatches: return say("atsReason.pinnedLeafMatches")
        case .pinnedCAMismatch(let domain): return say("atsReason.pinnedCAMismatch", ["domain": domain])
        case .pinnedCAMatches(let subject): return say("atsReason.pinnedCAMatches", ["subject": subject])
        case .allowed: return say("atsReason.allowed")
        case let .planHTTPS(minimum, fsOnly):
            return say(fsOnly ? "atsReason.planHTTPS.forwardSecret" : "atsReason.planHTTPS.anySuite", ["minimum": minimum.name])
        case .planHTTPAllowed: return say("atsReason.planHTTPAllowed")
        case .planHTTPBlocked: return say("atsReason.planHTTPBlocked")
        }
    }

    /// A chain evaluation a step quotes: valid (with Apple's result) or invalid (with the first failing check).
    func evaluation(_ chain: EvaluationSummary) -> String {
        guard !chain.isValid else { return say("trust.chain.valid", ["result": chain.result.rawValue]) }
        return say("trust.chain.invalid", ["result": chain.result.rawValue, "why": chain.firstFailure.map(chainCheckDetail) ?? "?"])
    }

    /// Apple's result of an evaluation, with the first failing check when it failed.
    func outcome(_ chain: EvaluationSummary) -> String {
        guard let check = chain.firstFailure else { return chain.result.rawValue }
        return say("trust.result.failed", ["result": chain.result.rawValue, "why": chainCheckDetail(check)])
    }

    /// The whole decision: the steps, and for a refusal the deciding evaluation's first failing check.
    func policyDecision(_ reasons: [TrustReason], firstFailure: ChainCheck?) -> String {
        let steps = reasons.isEmpty ? say("trust.noSteps") : trustReasons(reasons)
        guard let check = firstFailure else { return steps }
        return steps + say("trust.firstFailure", ["kind": self(CatalogueKey.chainKind(check.kind)) ?? check.kind.rawValue,
                                                  "depth": "\(check.depth)", "detail": chainCheckDetail(check)])
    }

    /// `AFSSLPinningMode`'s constant names.
    static func pinningModeName(_ mode: AFSecurityPolicy.PinningMode) -> String {
        switch mode {
        case .none: return "AFSSLPinningModeNone"
        case .publicKey: return "AFSSLPinningModePublicKey"
        case .certificate: return "AFSSLPinningModeCertificate"
        }
    }

    /// The hand-written handler's mode names as its steps write them (None, Simple, Full).
    static func challengeModeName(_ mode: ChallengeHandlingPolicies.ChallengeMode) -> String {
        switch mode {
        case .none: return "None"
        case .simple: return "Simple"
        case .full: return "Full"
        }
    }

    private func yesNo(_ value: Bool) -> String { value ? "YES" : "NO" }

    private func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
}

extension Explanations {
    /// The English texts of the policy steps (the policies' own words until they became typed).
    static let englishTrust: [String: String] = [
        "trust.separator": "; ",
        "trust.noSteps": "the policy gave no reason",
        "trust.firstFailure": " [first failing check: {kind} at depth {depth}: {detail}]",
        "trust.chain.valid": "chain valid ({result})",
        "trust.chain.invalid": "chain invalid ({result}: {why})",
        "trust.result.failed": "{result} ({why})",
        "trust.unparsable": "certificate {index} does not parse: {error}",
        "trust.noServerCertificate": "the server sent no certificate",
        "trust.ats": "ATS: {step}",
        "trust.answeredBy": "ServerTrust challenge answered by {handler}",
        "trust.noDelegate": "no delegate method: default handling",
        "trust.af": "{step}",
        "trust.afAnswer.yes": "evaluateServerTrust:forDomain: → YES",
        "trust.afAnswer.no": "evaluateServerTrust:forDomain: → NO",
        "trust.afOnlyServerTrust": "AFNetworking evaluates only ServerTrust challenges",
        "trust.modeNone": "mode None: every server is trusted without evaluation, a man in the middle included",
        "trust.modeFull": "mode Full: system default handling",
        "trust.modeSimple": "mode Simple: BasicX509 chain check, host not checked → {result}",
        "trust.webContainerTrustsAny": "web container: credential for the server trust, whatever it is, so a man in the middle is trusted too",
        "trust.webContainerOtherChallenge": "web container: not a server-trust challenge",
        "trust.imageDownloaderAllowsInvalid": "image downloader: allowInvalidSSLCertificates set → credential for any server",
        "trust.imageDownloaderDefault": "image downloader: option not set → default handling",
        "trust.imageDownloaderOwnCredential": "image downloader: answers with its own credential",
        "trust.imageDownloaderNoCredential": "image downloader: no credential of its own → cancel",
        "trust.appIdentity.yes": "the app answers with its identity",
        "trust.appIdentity.no": "the app has no identity",
        "trust.bundledAnchors.only": "SecTrustSetAnchorCertificates with {count} bundled certificate(s) (the system anchors no longer count)",
        "trust.bundledAnchors.plusSystem": "SecTrustSetAnchorCertificates with {count} bundled certificate(s); SecTrustSetAnchorCertificatesOnly NO keeps the system anchors",
        "trust.bundledEvaluation": "SecTrustEvaluate (SSL policy, host {host}) → {result}",
        "trust.bundledProceeds": "Proceed or Unspecified: useCredential with a credential for the trust",
        "trust.bundledCancels": "neither Proceed nor Unspecified: cancelAuthenticationChallenge",
"trust.fixedAnswer.useCredential": "the handler answers UseCredential with a credential made from the challenge's own trust (URLCredential(trust:)) and evaluates nothing itself: Apple's documentation leaves the evaluation of that trust to the handler, so whatever chain the server sends is accepted — a man in the middle's included — as long as App Transport Security lets the app loosen server trust for this host (NSExceptionAllowsInsecureHTTPLoads, Apple's ATS documentation); under ATS's defaults the default trust evaluation still applies and refuses a chain it does not trust",
        "trust.fixedAnswer.performDefaultHandling": "the handler answers PerformDefaultHandling: the challenge is handled as though the delegate method were not implemented, so the system evaluates the server's trust (a chain to an anchor in the trust store, the host name)",
        "trust.fixedAnswer.cancelAuthenticationChallenge": "the handler answers CancelAuthenticationChallenge: the entire request is cancelled, whatever the chain, and URLSession completes the task with NSURLErrorCancelled (−999)",
        "trust.serverTrustCredentialUsed": "UseCredential with the server trust: the server is accepted",
        "trust.defaultHandling": "PerformDefaultHandling: system evaluation for {host} → {result}",
        "trust.defaultHandlingWithoutTrust": "PerformDefaultHandling without a server trust: fails",
        "trust.clientCredentialUsed": "UseCredential: the client certificate is sent",
        "trust.clientCredentialUsed.empty": "UseCredential with no credential: an empty Certificate is sent",
        "trust.clientCertificateDefaultHandling": "PerformDefaultHandling: no client certificate is sent (the server decides)",
        "trust.cancelled": "CancelAuthenticationChallenge: the connection is cancelled",
        "trust.protectionSpaceRejected": "RejectProtectionSpace: this protection space is refused; for TLS there is no other, the connection fails",
        "trust.disposition.continues": "disposition {disposition} → the handshake continues",
        "trust.disposition.aborted": "disposition {disposition} → the handshake is aborted",
        "trust.keyUnusable.server": "but the leaf key is neither RSA nor EC P-256/P-384, which TLSLab's suites need",
        "trust.keyUnusable.client": "but the client key is neither RSA nor EC P-256/P-384, which CertificateVerify here needs",
        "trust.clientAuthenticationOff": "client authentication off: no CertificateRequest",
        "trust.clientCertificateMissing": "client certificate required but none sent",
        "trust.clientCertificateOptionalMissing": "client certificate requested, none sent: continue unauthenticated",
        "trust.clientChainFails": "client chain fails: {detail} (RFC 5246 §7.4.6: the server checks the client's chain as a client checks a server's)",
        "trust.clientChainValid": "client chain valid, anchored in the client-CA set",
        "trust.subjectWhitelisted.yes": "subject {subject} is on the whitelist",
        "trust.subjectWhitelisted.no": "subject {subject} is not on the whitelist",
        "handler.systemDefault": "system default handling",
        "handler.afNetworking": "AFSecurityPolicy({mode}, {pins} pinned certificate(s), allowInvalidCertificates {allowInvalid}, validatesDomainName {validatesDomainName})",
        "handler.challengeMode": "a challenge handler in mode {mode}",
        "handler.webContainer": "the hybrid web container",
        "handler.imageDownloader": "image downloader (allowInvalidSSLCertificates {allow})",
        "handler.bundledAnchor": "a delegate anchoring the trust to {count} bundled certificate(s)",
"handler.fixedAnswer": "a handler that answers every ServerTrust challenge with {disposition}",
        "handler.bundledAnchor.plusSystem": "a delegate anchoring the trust to {count} bundled certificate(s) plus the system anchors",
        "af.v251ModeNone": "AFNetworking 2.5.1: pinning mode none returns YES without evaluating the chain (AFNetworking issue #2590), so a man in the middle's self-signed certificate is accepted too",
        "af.mustUsePinning.modeNone": "step 1: domain given, allowInvalidCertificates and validatesDomainName are YES, and mode is none: \"In order to validate a domain name for self signed certificates, you MUST use pinning.\" → NO. Why: with allowInvalidCertificates YES the chain need not lead to a trusted anchor, so the certificate may be self-signed or from a CA nobody trusts — and anyone can make such a certificate for any name. A host-name check on it would prove only that the certificate spells the name, not that the server holds a key anyone vouched for. A pin, a certificate or key the app already holds, is what ties an unvouched certificate to the real server; without one the name check would be false reassurance, so AFNetworking refuses the combination.",
        "af.mustUsePinning.noPins": "step 1: domain given, allowInvalidCertificates and validatesDomainName are YES, and there are no pinned certificates: \"In order to validate a domain name for self signed certificates, you MUST use pinning.\" → NO. Why: with allowInvalidCertificates YES the chain need not lead to a trusted anchor, so the certificate may be self-signed or from a CA nobody trusts — and anyone can make such a certificate for any name. A host-name check on it would prove only that the certificate spells the name, not that the server holds a key anyone vouched for. A pin, a certificate or key the app already holds, is what ties an unvouched certificate to the real server; without one the name check would be false reassurance, so AFNetworking refuses the combination.",
        "af.sslPolicy": "step 2: policy SSL(host: {host})",
        "af.noHost": "nil",
        "ats.load.app": "app",
        "ats.load.webContent": "webContent",
        "ats.load.media": "media",
        "af.basicX509Policy": "step 2: validatesDomainName NO → BasicX509 policy (host not checked): a valid certificate issued for any other host passes, so a man in the middle with a certificate for his own domain is accepted",
        "af.modeNoneResult.yes": "step 3: mode none → allowInvalidCertificates ({allowInvalid}) OR {chain} → YES",
        "af.modeNoneResult.no": "step 3: mode none → allowInvalidCertificates ({allowInvalid}) OR {chain} → NO",
        "af.chainRefused": "step 4: {chain} and allowInvalidCertificates NO → NO",
        "af.chainChecked": "step 4: {chain}",
        "af.chainChecked.tolerated": "step 4: {chain}, tolerated because allowInvalidCertificates is YES",
        "af.pinnedAnchorsInvalid": "step 5: with the {count} pinned certificate(s) as the only anchors the chain is invalid ({why}) → NO",
        "af.pinnedAnchorsValid": "step 5: chain valid against the pinned certificates as anchors",
        "af.pinnedCertificateFound": "step 5: chain certificate {subject} equals a pinned certificate byte for byte → YES",
        "af.noPinnedCertificateInChain": "step 5: no chain certificate equals a pinned certificate → NO — pinning refuses even a chain a trusted CA issued, which is what keeps out a mis-issued or intercepting certificate",
        "af.publicKeyPinFound": "step 6: public key of {subject} equals a pinned key ({matches} match(es)) → YES",
        "af.noPublicKeyPinInChain": "step 6: none of the {chainKeys} chain public key(s) equals one of the {pinnedKeys} pinned key(s) → NO — pinning refuses even a chain a trusted CA issued, which is what keeps out a mis-issued or intercepting certificate",
        "atsReason.exceptionDomain": "NSExceptionDomains[{domain}] applies; global keys are not inherited",
        "atsReason.exceptionDomain.subdomains": "NSExceptionDomains[{domain}] applies (NSIncludesSubdomains); global keys are not inherited",
        "atsReason.arbitraryLoadsIgnored": "NSAllowsArbitraryLoads ignored: NSAllowsArbitraryLoadsInWebContent/ForMedia/NSAllowsLocalNetworking present (iOS 10+)",
        "atsReason.arbitraryLoads": "NSAllowsArbitraryLoads YES: ATS is off for this load",
        "atsReason.webContentExempt": "NSAllowsArbitraryLoadsInWebContent YES: web content is exempt",
        "atsReason.mediaExempt": "NSAllowsArbitraryLoadsForMedia YES: media is exempt",
        "atsReason.localNetworkingExempt": "NSAllowsLocalNetworking YES and {host} is a local name/IP: exempt",
        "atsReason.defaults": "ATS defaults: HTTPS, TLS ≥ 1.2, forward secrecy, SHA-256+ signatures, RSA ≥ 2048 / EC ≥ 256, default trust",
        "atsReason.httpAllowed": "http:// allowed",
        "atsReason.httpBlocked": "http:// blocked (insecure HTTP load)",
        "atsReason.versionBelowMinimum": "{version} is below the minimum {minimum}",
        "atsReason.versionMeetsMinimum": "{version} ≥ {minimum}",
        "atsReason.notForwardSecret": "the negotiated suite is not forward secret (ECDHE required): with RSA key exchange, whoever later gets the server's private key can decrypt recorded traffic",
        "atsReason.forwardSecret": "forward-secret suite",
        "atsReason.forwardSecrecyNotRequired": "NSExceptionRequiresForwardSecrecy NO: non-FS suites and smaller keys allowed",
        "atsReason.noServerCertificate": "no server certificate",
        "atsReason.keyTooSmall": "leaf key {key} {bits} bits is below RSA 2048 / EC 256 (NIST SP 800-131A disallows RSA signature keys under 2048 bits after 2013)",
        "atsReason.keySize": "leaf key {key} {bits} bits",
        "atsReason.weakSignatureHash": "{subject} is signed with {hash}: SHA-256 or better required (MD5 and SHA-1 collisions have been computed, so such a signature could be carried over to a forged certificate)",
        "atsReason.signaturesStrong": "certificate signatures SHA-256 or better",
        "atsReason.defaultTrustLoosened": "default trust fails ({why}) but NSExceptionAllowsInsecureHTTPLoads lets the app decide",
        "atsReason.defaultTrustFails": "default trust evaluation fails: {why}",
        "atsReason.defaultTrustPasses": "default trust evaluation passes ({result})",
        "atsReason.pinnedLeafMismatch": "NSPinnedDomains[{domain}]: the leaf's SPKI-SHA256-BASE64 is not in NSPinnedLeafIdentities — only a listed key is accepted, even from a trusted CA",
        "atsReason.pinnedLeafMatches": "NSPinnedLeafIdentities matches the leaf key",
        "atsReason.pinnedCAMismatch": "NSPinnedDomains[{domain}]: no CA key of the chain is in NSPinnedCAIdentities",
        "atsReason.pinnedCAMatches": "NSPinnedCAIdentities matches {subject}",
        "atsReason.allowed": "ATS allows the connection",
        "atsReason.planHTTPS.forwardSecret": "https: TLS ≥ {minimum}, forward-secret suites only",
        "atsReason.planHTTPS.anySuite": "https: TLS ≥ {minimum}, any suite",
        "atsReason.planHTTPAllowed": "http:// allowed: the load goes out in clear text",
        "atsReason.planHTTPBlocked": "http:// blocked: ATS refuses the insecure load before connecting",
        "pkiError.malformedCertificate": "malformed certificate: {detail}",
        "pkiError.notACertificate": "{source}: not a certificate ({detail})",
        "pkiError.unsupportedKey": "unsupported key: {detail}",
    ]
}
