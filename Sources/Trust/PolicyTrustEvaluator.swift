import PKI
import TLSCrypto
import TLSEngine

/// The client's certificate decision made the way an iOS app makes it: ATS's certificate rules
/// first (when the app has an ATS dictionary), then the ServerTrust challenge answered by the app's
/// policy, resolved by the NSURLSession challenge layer into a disposition. A refusal is named by
/// the first failing check; the engine answers it with the alert an OpenSSL client sends.
///
/// ATS's other rules (TLS ≥ 1.2, forward-secret suites, no http) are client configuration, not
/// certificate decisions: see `ATSConnectionPlan`. This evaluator assumes the negotiated suite
/// met them (the configuration derived from the plan guarantees it).
public struct PolicyTrustEvaluator: PeerCertificateEvaluator, Sendable {
    public var policy: ClientTrustPolicy
    /// The app's Info.plist NSAppTransportSecurity; nil = an app without ATS (before iOS 9, or a non-Apple client).
    public var ats: ATSPolicy?
    /// The client's trust anchors (system roots, and/or explicit anchors).
    public var anchors: AnchorSelection
    /// The simulated clock (Unix seconds).
    public var time: Int64
    public var rejectWeakAlgorithms: Bool

    public init(policy: ClientTrustPolicy = .systemDefault, ats: ATSPolicy? = nil, anchors: AnchorSelection, time: Int64,
                rejectWeakAlgorithms: Bool = true) {
        self.policy = policy
        self.ats = ats
        self.anchors = anchors
        self.time = time
        self.rejectWeakAlgorithms = rejectWeakAlgorithms
    }

    /// The full decision about `chain` (leaf first, DER) for `host`.
    public func decide(chain: [[UInt8]], host: String) -> ClientTrustVerdict {
        let certificates: [X509Certificate]
        do { certificates = try X509Certificate.parseChain(chain) } catch {
            return ClientTrustVerdict(outcome: nil, accepted: false,
                                      reasons: [.unparsable(index: error.index, error: error.error)], evaluation: nil, refusal: .unparsable)
        }
        guard !certificates.isEmpty else {
            return ClientTrustVerdict(outcome: nil, accepted: false, reasons: [.noServerCertificate], evaluation: nil,
                                      refusal: .noCertificate)
        }
        // The system default evaluation runs here, once; ATS, the challenge and the refusal read it from the trust.
        let trust = ServerTrust(presented: certificates, anchors: anchors, time: time, host: host,
                                rejectWeakAlgorithms: rejectWeakAlgorithms)
        var reasons: [TrustReason] = []

        if let ats {
            let decision = ats.evaluate(ATSPolicy.Connection(host: host, usesHTTPS: true, tlsVersion: .tls12, forwardSecret: true, trust: trust))
            reasons += decision.reasons
            guard decision.accepted else {
                let evaluation = decision.evaluation ?? trust.defaultEvaluation
                // An ATS-only refusal (SHA-1, small key, pins) on a chain the system accepts is still a certificate refusal.
                let failing = evaluation.firstFailure ?? weakCertificateCheck(certificates)
                return ClientTrustVerdict(outcome: nil, accepted: false, reasons: reasons, evaluation: evaluation,
                                          refusal: CertificateRefusal(failing: failing))
            }
        }

        let outcome: ChallengeOutcome
        var evaluation: ChainValidationResult?
        // Set when the policy's own evaluation is the one the decision rests on, pass or fail
        // (the bundled-anchor delegate evaluates the trust itself, with its anchors).
        var deciding: ChainValidationResult?
        reasons.append(.challengeAnsweredBy(policy.handler))
        switch policy {
        case .systemDefault:
            outcome = ChallengeResolver.resolve(method: .serverTrust, disposition: .performDefaultHandling, trust: trust, host: host,
                                                reasons: [.noDelegate])
        case .afNetworking(let security):
            let decision = security.evaluate(trust, forDomain: host)
            evaluation = decision.evaluation
            outcome = ChallengeResolver.resolve(method: .serverTrust,
                                                disposition: decision.accepted ? .useCredential : .cancelAuthenticationChallenge,
                                                trust: trust, host: host,
                                                reasons: decision.reasons + [.afAnswer(accepted: decision.accepted)])
        case .challengeMode(let mode):
            outcome = ChallengeHandlingPolicies.challengeMode(mode, trust: trust, host: host)
        case .webContainer:
            outcome = ChallengeHandlingPolicies.webContainer(method: .serverTrust, trust: trust, host: host)
        case .imageDownloader(let allow):
            outcome = ChallengeHandlingPolicies.imageDownloader(method: .serverTrust, allowInvalidSSLCertificates: allow, ownCredential: false,
                                                      trust: trust, host: host)
        case .fixedAnswer(let disposition):
            outcome = ChallengeHandlingPolicies.fixedAnswer(disposition, trust: trust, host: host)
        case .bundledAnchor(let bundled, let only):
            let decision = BundledAnchorDelegate.bundledAnchor(bundled, anchorsOnly: only, trust: trust, host: host)
            deciding = decision.evaluation
            outcome = decision.outcome
        }
        reasons += outcome.reasons
        reasons.append(.disposition(outcome.disposition, continues: outcome.handshakeContinues))
        // For the renderer and the alert: the policy's own evaluation when it failed, else the system's.
        let systemEvaluation = trust.defaultEvaluation
        let shown = deciding ?? (evaluation?.firstFailure != nil ? evaluation : nil) ?? systemEvaluation
        return ClientTrustVerdict(outcome: outcome, accepted: outcome.handshakeContinues, reasons: reasons, evaluation: shown,
                                  refusal: outcome.handshakeContinues ? nil : CertificateRefusal(failing: shown.firstFailure))
    }

    /// A synthetic failing check for ATS's own rules when the chain itself validates.
    private func weakCertificateCheck(_ certificates: [X509Certificate]) -> ChainCheck? {
        guard let leaf = certificates.first else { return nil }
        return ChainCheck(kind: .algorithmStrength, depth: 0, subject: leaf.subject.description, passed: false,
                          finding: .refusedByATSCertificateRules)
    }

    public func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        let verdict = decide(chain: chain, host: serverName ?? "")
        guard verdict.accepted else {
            return .reject(verdict.refusal ?? .refusedByPolicy, reason: .decidedBy(verdict.reasons, firstFailure: verdict.firstFailure),
                           validation: verdict.evaluation)
        }
        guard let der = chain.first, let leaf = try? X509Certificate(der: der),
              let key = VerificationKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
            return .reject(.unsupportedKey, reason: .decidedBy(verdict.reasons + [.keyUnusable(client: false)], firstFailure: nil),
                           validation: verdict.evaluation)
        }
        return .accept(leafPublicKey: key, summary: .decidedBy(verdict.reasons, firstFailure: nil), validation: verdict.evaluation)
    }
}
