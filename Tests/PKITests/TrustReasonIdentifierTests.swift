import PKI
import Testing

/// Every decision step has one stable identifier (what lesson files' `reason_includes` name), the
/// published list holds exactly those, and no two steps share one.
@Suite("Trust reason identifiers")
struct TrustReasonIdentifierTests {
    static let chain = EvaluationSummary(result: .unspecified, firstFailure: nil)
    static let check = ChainCheck(kind: .name, depth: 0, subject: "CN=x", passed: false, finding: .noCertificatePresented)

    /// One value of every case (both answers of a yes/no step).
    static let everyStep: [TrustReason] = {
        let af: [AFStep] = [
            .v251ModeNoneReturnsYES, .mustUsePinning(modeNone: true), .mustUsePinning(modeNone: false), .sslPolicy(host: "h"),
            .basicX509Policy, .modeNoneResult(allowInvalidCertificates: true, chain: chain, accepted: true),
            .modeNoneResult(allowInvalidCertificates: false, chain: chain, accepted: false), .chainRefused(chain),
            .chainChecked(chain, tolerated: false), .chainChecked(chain, tolerated: true), .pinnedAnchorsInvalid(pinned: 1, chain),
            .pinnedAnchorsValid, .pinnedCertificateFound(subject: "s"), .noPinnedCertificateInChain,
            .publicKeyPinFound(subject: "s", matches: 1), .noPublicKeyPinInChain(chainKeys: 2, pinnedKeys: 1),
        ]
        let ats: [ATSReason] = [
            .exceptionDomain(domain: "d", viaSubdomains: false), .exceptionDomain(domain: "d", viaSubdomains: true),
            .arbitraryLoadsIgnored, .arbitraryLoads, .webContentExempt, .mediaExempt, .localNetworkingExempt(host: "h"), .defaults,
            .httpAllowed, .httpBlocked, .versionBelowMinimum(version: .tls10, minimum: .tls12),
            .versionMeetsMinimum(version: .tls12, minimum: .tls12), .notForwardSecret, .forwardSecret, .forwardSecrecyNotRequired,
            .noServerCertificate, .keyTooSmall(key: "RSA", bits: 1024), .keySize(key: "RSA", bits: 2048),
            .weakSignatureHash(subject: "s", hash: "SHA-1"), .signaturesStrong, .defaultTrustLoosened(chain), .defaultTrustFails(chain),
            .defaultTrustPasses(.unspecified), .pinnedLeafMismatch(domain: "d"), .pinnedLeafMatches, .pinnedCAMismatch(domain: "d"),
            .pinnedCAMatches(subject: "s"), .allowed, .planHTTPS(minimum: .tls12, forwardSecretOnly: true),
            .planHTTPS(minimum: .tls12, forwardSecretOnly: false), .planHTTPAllowed, .planHTTPBlocked,
        ]
        let steps: [TrustReason] = [
            .unparsable(index: 0, error: .malformedCertificate(.derTruncated)), .noServerCertificate,
            .challengeAnsweredBy(.systemDefault), .noDelegate, .afAnswer(accepted: true), .afAnswer(accepted: false),
            .afOnlyServerTrust, .modeNone, .modeFull, .modeSimple(chain), .webContainerTrustsAny, .webContainerOtherChallenge,
            .imageDownloaderAllowsInvalid, .imageDownloaderDefault, .imageDownloaderOwnCredential, .imageDownloaderNoCredential,
            .appIdentity(present: true), .appIdentity(present: false), .bundledAnchors(count: 1, anchorsOnly: true),
            .bundledAnchors(count: 1, anchorsOnly: false), .bundledEvaluation(host: "h", chain), .bundledProceeds, .bundledCancels,
            .fixedAnswer(.performDefaultHandling), .fixedAnswer(.useCredential), .fixedAnswer(.cancelAuthenticationChallenge),
            .serverTrustCredentialUsed, .defaultHandling(host: "h", chain), .defaultHandlingWithoutTrust,
            .clientCredentialUsed(hasCredential: true), .clientCredentialUsed(hasCredential: false), .clientCertificateDefaultHandling,
            .cancelled, .protectionSpaceRejected, .disposition(.useCredential, continues: true),
            .disposition(.cancelAuthenticationChallenge, continues: false), .keyUnusable(client: false), .keyUnusable(client: true),
            .clientAuthenticationOff, .clientCertificateMissing, .clientCertificateOptionalMissing, .clientChainFails(check),
            .clientChainValid, .subjectWhitelisted(subject: "s", allowed: true), .subjectWhitelisted(subject: "s", allowed: false),
        ]
        return steps + ats.map(TrustReason.ats) + af.map(TrustReason.afNetworking)
    }()

    @Test func theListHoldsEveryStepsIdentifierOnce() {
        let produced = Self.everyStep.map(\.identifier)
        #expect(Set(produced).count == produced.count, "two steps share an identifier")
        #expect(Set(TrustReason.identifiers).count == TrustReason.identifiers.count, "the list repeats an identifier")
        #expect(Set(produced) == Set(TrustReason.identifiers),
                "missing from the list: \(Set(produced).subtracting(TrustReason.identifiers).sorted()); never produced: \(Set(TrustReason.identifiers).subtracting(produced).sorted())")
    }

    /// Identifiers are words a YAML file can hold without quoting: letters and dots, no values.
    @Test func identifiersAreBareWords() {
        for id in TrustReason.identifiers {
            #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }, "\(id)")
        }
        #expect(TrustReason.ats(.versionBelowMinimum(version: .tls10, minimum: .tls12)).identifier == "ats.versionBelowMinimum")
        #expect(TrustReason.afNetworking(.publicKeyPinFound(subject: "CN=a", matches: 2)).identifier == "af.publicKeyPinFound")
    }
}
