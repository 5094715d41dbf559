/// Stable identifiers of the decision steps: what a lesson's `reason_includes` names and what a test
/// can match, independent of any wording. An identifier names the step (and, for a yes/no step, its
/// answer), never its values: `ats.versionBelowMinimum`, not "TLSv1.0 is below the minimum TLSv1.2".
/// A step of ATS is `ats.` + its ``ATSReason/identifier``; a step of AFSecurityPolicy is `af.` + its
/// ``AFStep/identifier``. Renaming one breaks lesson files: add, never rename.
extension TrustReason {
    public var identifier: String {
        switch self {
        case .unparsable: return "unparsable"
        case .noServerCertificate: return "noServerCertificate"
        case .ats(let step): return "ats." + step.identifier
        case .challengeAnsweredBy: return "answeredBy"
        case .noDelegate: return "noDelegate"
        case .afNetworking(let step): return "af." + step.identifier
        case .afAnswer(let accepted): return accepted ? "afAnswer.yes" : "afAnswer.no"
        case .afOnlyServerTrust: return "afOnlyServerTrust"
        case .modeNone: return "modeNone"
        case .modeFull: return "modeFull"
        case .modeSimple: return "modeSimple"
        case .webContainerTrustsAny: return "webContainerTrustsAny"
        case .webContainerOtherChallenge: return "webContainerOtherChallenge"
        case .imageDownloaderAllowsInvalid: return "imageDownloaderAllowsInvalid"
        case .imageDownloaderDefault: return "imageDownloaderDefault"
        case .imageDownloaderOwnCredential: return "imageDownloaderOwnCredential"
        case .imageDownloaderNoCredential: return "imageDownloaderNoCredential"
        case .appIdentity(let present): return present ? "appIdentity.yes" : "appIdentity.no"
        case .bundledAnchors(_, let only): return only ? "bundledAnchors.only" : "bundledAnchors.plusSystem"
        case .bundledEvaluation: return "bundledEvaluation"
        case .bundledProceeds: return "bundledProceeds"
        case .bundledCancels: return "bundledCancels"
        case .fixedAnswer(let d): return "fixedAnswer." + d.rawValue
        case .serverTrustCredentialUsed: return "serverTrustCredentialUsed"
        case .defaultHandling: return "defaultHandling"
        case .defaultHandlingWithoutTrust: return "defaultHandlingWithoutTrust"
        case .clientCredentialUsed(let has): return has ? "clientCredentialUsed" : "clientCredentialUsed.empty"
        case .clientCertificateDefaultHandling: return "clientCertificateDefaultHandling"
        case .cancelled: return "cancelled"
        case .protectionSpaceRejected: return "protectionSpaceRejected"
        case .disposition(_, let continues): return continues ? "disposition.continues" : "disposition.aborted"
        case .keyUnusable(let client): return client ? "keyUnusable.client" : "keyUnusable.server"
        case .clientAuthenticationOff: return "clientAuthenticationOff"
        case .clientCertificateMissing: return "clientCertificateMissing"
        case .clientCertificateOptionalMissing: return "clientCertificateOptionalMissing"
        case .clientChainFails: return "clientChainFails"
        case .clientChainValid: return "clientChainValid"
        case .subjectWhitelisted(_, let allowed): return allowed ? "subjectWhitelisted.yes" : "subjectWhitelisted.no"
        }
    }

    /// Every identifier a step can have, in declaration order (what a lesson file may name).
    public static let identifiers: [String] = [
        "unparsable", "noServerCertificate",
    ] + ATSReason.identifiers.map { "ats." + $0 } + [
        "answeredBy", "noDelegate",
    ] + AFStep.identifiers.map { "af." + $0 } + [
        "afAnswer.yes", "afAnswer.no", "afOnlyServerTrust", "modeNone", "modeFull", "modeSimple",
        "webContainerTrustsAny", "webContainerOtherChallenge", "imageDownloaderAllowsInvalid", "imageDownloaderDefault",
        "imageDownloaderOwnCredential", "imageDownloaderNoCredential", "appIdentity.yes", "appIdentity.no",
        "bundledAnchors.only", "bundledAnchors.plusSystem", "bundledEvaluation", "bundledProceeds", "bundledCancels",
        "fixedAnswer.useCredential", "fixedAnswer.performDefaultHandling", "fixedAnswer.cancelAuthenticationChallenge",
        "serverTrustCredentialUsed", "defaultHandling", "defaultHandlingWithoutTrust", "clientCredentialUsed",
        "clientCredentialUsed.empty", "clientCertificateDefaultHandling", "cancelled", "protectionSpaceRejected",
        "disposition.continues", "disposition.aborted", "keyUnusable.server", "keyUnusable.client",
        "clientAuthenticationOff", "clientCertificateMissing", "clientCertificateOptionalMissing", "clientChainFails",
        "clientChainValid", "subjectWhitelisted.yes", "subjectWhitelisted.no",
    ]
}

extension AFStep {
    /// The step's identifier within AFSecurityPolicy's evaluation (``TrustReason/identifier`` adds `af.`).
    public var identifier: String {
        switch self {
        case .v251ModeNoneReturnsYES: return "v251ModeNone"
        case .mustUsePinning(let modeNone): return modeNone ? "mustUsePinning.modeNone" : "mustUsePinning.noPins"
        case .sslPolicy: return "sslPolicy"
        case .basicX509Policy: return "basicX509Policy"
        case .modeNoneResult(_, _, let accepted): return accepted ? "modeNoneResult.yes" : "modeNoneResult.no"
        case .chainRefused: return "chainRefused"
        case .chainChecked(_, let tolerated): return tolerated ? "chainChecked.tolerated" : "chainChecked"
        case .pinnedAnchorsInvalid: return "pinnedAnchorsInvalid"
        case .pinnedAnchorsValid: return "pinnedAnchorsValid"
        case .pinnedCertificateFound: return "pinnedCertificateFound"
        case .noPinnedCertificateInChain: return "noPinnedCertificateInChain"
        case .publicKeyPinFound: return "publicKeyPinFound"
        case .noPublicKeyPinInChain: return "noPublicKeyPinInChain"
        }
    }

    public static let identifiers = [
        "v251ModeNone", "mustUsePinning.modeNone", "mustUsePinning.noPins", "sslPolicy", "basicX509Policy",
        "modeNoneResult.yes", "modeNoneResult.no", "chainRefused", "chainChecked", "chainChecked.tolerated",
        "pinnedAnchorsInvalid", "pinnedAnchorsValid", "pinnedCertificateFound", "noPinnedCertificateInChain",
        "publicKeyPinFound", "noPublicKeyPinInChain",
    ]
}

extension ATSReason {
    /// The rule's identifier within App Transport Security (``TrustReason/identifier`` adds `ats.`).
    public var identifier: String {
        switch self {
        case .exceptionDomain(_, let viaSubdomains): return viaSubdomains ? "exceptionDomain.subdomains" : "exceptionDomain"
        case .arbitraryLoadsIgnored: return "arbitraryLoadsIgnored"
        case .arbitraryLoads: return "arbitraryLoads"
        case .webContentExempt: return "webContentExempt"
        case .mediaExempt: return "mediaExempt"
        case .localNetworkingExempt: return "localNetworkingExempt"
        case .defaults: return "defaults"
        case .httpAllowed: return "httpAllowed"
        case .httpBlocked: return "httpBlocked"
        case .versionBelowMinimum: return "versionBelowMinimum"
        case .versionMeetsMinimum: return "versionMeetsMinimum"
        case .notForwardSecret: return "notForwardSecret"
        case .forwardSecret: return "forwardSecret"
        case .forwardSecrecyNotRequired: return "forwardSecrecyNotRequired"
        case .noServerCertificate: return "noServerCertificate"
        case .keyTooSmall: return "keyTooSmall"
        case .keySize: return "keySize"
        case .weakSignatureHash: return "weakSignatureHash"
        case .signaturesStrong: return "signaturesStrong"
        case .defaultTrustLoosened: return "defaultTrustLoosened"
        case .defaultTrustFails: return "defaultTrustFails"
        case .defaultTrustPasses: return "defaultTrustPasses"
        case .pinnedLeafMismatch: return "pinnedLeafMismatch"
        case .pinnedLeafMatches: return "pinnedLeafMatches"
        case .pinnedCAMismatch: return "pinnedCAMismatch"
        case .pinnedCAMatches: return "pinnedCAMatches"
        case .allowed: return "allowed"
        case .planHTTPS(_, let forwardSecretOnly): return forwardSecretOnly ? "planHTTPS.forwardSecret" : "planHTTPS.anySuite"
        case .planHTTPAllowed: return "planHTTPAllowed"
        case .planHTTPBlocked: return "planHTTPBlocked"
        }
    }

    public static let identifiers = [
        "exceptionDomain", "exceptionDomain.subdomains", "arbitraryLoadsIgnored", "arbitraryLoads", "webContentExempt",
        "mediaExempt", "localNetworkingExempt", "defaults", "httpAllowed", "httpBlocked", "versionBelowMinimum",
        "versionMeetsMinimum", "notForwardSecret", "forwardSecret", "forwardSecrecyNotRequired", "noServerCertificate",
        "keyTooSmall", "keySize", "weakSignatureHash", "signaturesStrong", "defaultTrustLoosened", "defaultTrustFails",
        "defaultTrustPasses", "pinnedLeafMismatch", "pinnedLeafMatches", "pinnedCAMismatch", "pinnedCAMatches", "allowed",
        "planHTTPS.forwardSecret", "planHTTPS.anySuite", "planHTTPAllowed", "planHTTPBlocked",
    ]
}
