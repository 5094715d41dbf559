import PKI
@testable import Rendering
import Testing
import TestSupport
import TLSEngine

/// Every step a policy can record (``TrustReason``, ``AFStep``, ``ATSReason``) is worded by the catalogue
/// in English and in Chinese: no key left unfilled, the Chinese differs from the English, holds no English
/// word outside the allow-list and follows the typography rules; and every key of the policy-step tables is
/// reached by one of the steps below, so a new step without an example here leaves a key unreached.
@Suite("Policy steps worded in English and Chinese")
struct TrustReasonWordingTests {
    static let nameFails = ChainCheck(kind: .name, depth: 0, subject: "CN=api.example.com", passed: false,
                                      finding: .name(.noDNSNameMatches(host: "mail.example.com", names: ["api.example.com"])))
    static let invalid = EvaluationSummary(result: .recoverableTrustFailure, firstFailure: nameFails)
    static let valid = EvaluationSummary(result: .unspecified, firstFailure: nil)

    static let afSteps: [AFStep] = [
        .v251ModeNoneReturnsYES, .mustUsePinning(modeNone: true), .mustUsePinning(modeNone: false),
        .sslPolicy(host: "api.example.com"), .sslPolicy(host: nil), .basicX509Policy,
        .modeNoneResult(allowInvalidCertificates: false, chain: valid, accepted: true),
        .modeNoneResult(allowInvalidCertificates: false, chain: invalid, accepted: false),
        .chainRefused(invalid), .chainChecked(valid, tolerated: false), .chainChecked(invalid, tolerated: true),
        .pinnedAnchorsInvalid(pinned: 1, invalid), .pinnedAnchorsValid, .pinnedCertificateFound(subject: "CN=api.example.com"),
        .noPinnedCertificateInChain, .publicKeyPinFound(subject: "CN=TLSLab Root CA", matches: 1),
        .noPublicKeyPinInChain(chainKeys: 3, pinnedKeys: 1),
    ]

    static let atsReasons: [ATSReason] = [
        .exceptionDomain(domain: "example.com", viaSubdomains: false), .exceptionDomain(domain: "example.com", viaSubdomains: true),
        .arbitraryLoadsIgnored, .arbitraryLoads, .webContentExempt, .mediaExempt, .localNetworkingExempt(host: "printer.local"),
        .defaults, .httpAllowed, .httpBlocked, .versionBelowMinimum(version: .tls10, minimum: .tls12),
        .versionMeetsMinimum(version: .tls12, minimum: .tls12), .notForwardSecret, .forwardSecret, .forwardSecrecyNotRequired,
        .noServerCertificate, .keyTooSmall(key: "RSA", bits: 1024), .keySize(key: "RSA", bits: 2048),
        .weakSignatureHash(subject: "CN=api.example.com", hash: "SHA-1"), .signaturesStrong, .defaultTrustLoosened(invalid),
        .defaultTrustFails(invalid), .defaultTrustPasses(.unspecified), .pinnedLeafMismatch(domain: "example.com"), .pinnedLeafMatches,
        .pinnedCAMismatch(domain: "example.com"), .pinnedCAMatches(subject: "CN=TLSLab Root CA"), .allowed,
        .planHTTPS(minimum: .tls12, forwardSecretOnly: true), .planHTTPS(minimum: .tls10, forwardSecretOnly: false),
        .planHTTPAllowed, .planHTTPBlocked,
    ]

    static let handlers: [ChallengeHandler] = [
        .systemDefault, .afNetworking(mode: .publicKey, pins: 1, allowInvalidCertificates: false, validatesDomainName: true),
        .challengeMode(.simple), .webContainer, .imageDownloader(allowInvalidSSLCertificates: true),
        .bundledAnchor(certificates: 1, anchorsOnly: true), .bundledAnchor(certificates: 2, anchorsOnly: false),
        .fixedAnswer(.useCredential),
    ]

    static let reasons: [TrustReason] = [
        .unparsable(index: 1, error: .malformedCertificate(.derTruncated)), .unparsable(index: 0, error: .notACertificate(source: "a.pem", reason: .noCertificateBlock(labels: ["PUBLIC KEY"]))),
        .unparsable(index: 0, error: .unsupportedKey(.ed25519Signer)), .noServerCertificate,
        .noDelegate, .afAnswer(accepted: true), .afAnswer(accepted: false), .afOnlyServerTrust, .modeNone, .modeFull,
        .modeSimple(valid), .modeSimple(invalid), .webContainerTrustsAny, .webContainerOtherChallenge, .imageDownloaderAllowsInvalid,
        .imageDownloaderDefault, .imageDownloaderOwnCredential, .imageDownloaderNoCredential, .appIdentity(present: true),
        .appIdentity(present: false), .bundledAnchors(count: 1, anchorsOnly: true), .bundledAnchors(count: 1, anchorsOnly: false),
        .bundledEvaluation(host: "api.example.com", invalid), .bundledProceeds, .bundledCancels,
        .fixedAnswer(.performDefaultHandling), .fixedAnswer(.useCredential), .fixedAnswer(.cancelAuthenticationChallenge), .serverTrustCredentialUsed,
        .defaultHandling(host: "api.example.com", valid), .defaultHandling(host: "mail.example.com", invalid), .defaultHandlingWithoutTrust,
        .clientCredentialUsed(hasCredential: true), .clientCredentialUsed(hasCredential: false), .clientCertificateDefaultHandling,
        .cancelled, .protectionSpaceRejected, .disposition(.useCredential, continues: true),
        .disposition(.cancelAuthenticationChallenge, continues: false), .keyUnusable(client: false), .keyUnusable(client: true),
        .clientAuthenticationOff, .clientCertificateMissing, .clientCertificateOptionalMissing, .clientChainFails(nameFails),
        .clientChainValid, .subjectWhitelisted(subject: "CN=alice", allowed: true), .subjectWhitelisted(subject: "CN=mallory", allowed: false),
    ] + handlers.map(TrustReason.challengeAnsweredBy) + afSteps.map(TrustReason.afNetworking) + atsReasons.map(TrustReason.ats)

    /// The keys of the policy-step tables (`Explanations+Trust.swift`).
    static let stepKeys = Set(Explanations.englishTrust.keys)

    @Test(arguments: reasons)
    func everyStepInBothLanguages(reason: TrustReason) {
        let english = Explanations.english.trustReason(reason)
        let chinese = Explanations.chinese.trustReason(reason)
        for text in [english, chinese] {
            #expect(!text.isEmpty && !text.contains("{") && !text.contains("}"), "\(reason): \(text)")
            #expect(!Self.stepKeys.contains { text.contains($0) }, "\(reason): a key instead of words: \(text)")
        }
        #expect(chinese != english, "\(reason): not translated")
        #expect(chinese.contains { $0.unicodeScalars.first!.properties.isIdeographic }, "\(reason): \(chinese)")
        #expect(ChineseTypography.problems(in: chinese).isEmpty, "\(reason): \(ChineseTypography.problems(in: chinese))")
        // Only names (API names, Info.plist keys, SecTrustResultType values, subjects, hosts) stay in Latin letters.
        let english_ = ChineseASCIIWordTests.disallowedWords(in: chinese).filter { !Self.namesInExamples.contains($0) }
        #expect(english_.isEmpty, "\(reason): English words \(english_) in: \(chinese)")
    }

    /// Words of the example values above (a host part, a DER detail), not of the catalogue.
    static let namesInExamples: Set<String> = ["api", "mail", "example", "com", "x", "a", "pem", "printer", "local", "alice", "mallory"]

    @Test func everyStepKeyIsReached() {
        var reached = Set<String>()
        for reason in Self.reasons { reached.insert(Explanations.english.trustReasonKey(reason).0) }
        for step in Self.afSteps { reached.formUnion(Self.keys(in: Explanations.english.afStep(step))) }
        for ats in Self.atsReasons { reached.formUnion(Self.keys(in: Explanations.english.atsReason(ats))) }
        for handler in Self.handlers { reached.formUnion(Self.keys(in: Explanations.english.challengeHandler(handler))) }
        // Keys used inside other lines: the separator, the chain summaries, the first failing check, the parser's errors.
        reached.formUnion(["trust.separator", "trust.noSteps", "trust.firstFailure", "trust.chain.valid", "trust.chain.invalid",
                           "trust.result.failed", "af.noHost", "ats.load.app", "ats.load.webContent", "ats.load.media", "pkiError.malformedCertificate", "pkiError.notACertificate", "pkiError.unsupportedKey"])
        let unreached = Self.stepKeys.subtracting(reached)
        #expect(unreached.isEmpty, "keys no example step reaches: \(unreached.sorted())")
    }

    /// The keys whose English text is exactly `line` (a whole step worded by one key).
    static func keys(in line: String) -> Set<String> {
        Set(Explanations.englishTrust.compactMap { key, text in
            let pattern = text.replacing(/\{[A-Za-z]+\}/, with: "")
            return !pattern.isEmpty && Self.matches(line, template: text) ? key : nil
        })
    }

    /// Does `line` fit `template` with its placeholders filled by anything?
    static func matches(_ line: String, template: String) -> Bool {
        let parts = template.split(separator: /\{[A-Za-z]+\}/, omittingEmptySubsequences: false).map(String.init)
        var rest = Substring(line)
        for (i, part) in parts.enumerated() {
            if i == 0 { guard rest.hasPrefix(part) else { return false }; rest = rest.dropFirst(part.count); continue }
            if i == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.isEmpty
    }

    @Test func aDecisionIsItsStepsInOrderWithTheFirstFailingCheck() {
        let account = CertificateAccount.decidedBy([.challengeAnsweredBy(.systemDefault),
                                                    .defaultHandling(host: "mail.example.com", Self.invalid),
                                                    .disposition(.performDefaultHandling, continues: false)], firstFailure: Self.nameFails)
        #expect(Explanations.english.certificateAccount(account)
                == "ServerTrust challenge answered by system default handling; PerformDefaultHandling: system evaluation for mail.example.com → "
                + "recoverableTrustFailure (mail.example.com matches none of the dNSName SANs [api.example.com]); disposition "
                + "performDefaultHandling → the handshake is aborted [first failing check: name at depth 0: mail.example.com matches none "
                + "of the dNSName SANs [api.example.com]]")
        #expect(Explanations.chinese.certificateAccount(account)
                == "ServerTrust 挑战的处理方：系统默认处理 → PerformDefaultHandling：系统对 mail.example.com 做信任评估 → "
                + "recoverableTrustFailure（mail.example.com 与 dNSName SAN [api.example.com] 都不匹配） → 处置方式 performDefaultHandling → 握手中止"
                + "（第一项未通过的检查：深度 0 的域名检查，mail.example.com 与 dNSName SAN [api.example.com] 都不匹配）")
        #expect(Explanations.chinese.certificateAccount(.decidedBy([], firstFailure: nil)) == "策略没有给出理由")
    }
}
