/// AFNetworking's `AFSecurityPolicy` (seeds 000 and 002), with its `evaluateServerTrust:forDomain:`
/// reproduced step by step, plus two historical versions that show why the version matters.
public struct AFSecurityPolicy: Sendable {
    /// `AFSSLPinningMode`. Note that some write-ups of the header comments swap publicKey and certificate; the
    /// code (reproduced here) is right: certificate mode compares whole certificates.
    public enum PinningMode: String, Sendable, Hashable, CaseIterable { case none, publicKey, certificate }

    /// Which AFNetworking release's behaviour to reproduce (renderers name it: "AFNetworking 2.5.2").
    public enum Behaviour: String, Sendable, Hashable, CaseIterable {
        /// 2.5.3 and later: `validatesDomainName` defaults to YES whatever the mode (the fix of
        /// AFNetworking issue #2619), and the evaluation procedure of `evaluateServerTrust:forDomain:`.
        case current
        /// 2.5.1: with mode none, `evaluateServerTrust:forDomain:` returned YES without evaluating
        /// the chain at all (AFNetworking issue #2590).
        case v2_5_1
        /// 2.5.2: the chain is evaluated again for mode none, with the same procedure as later
        /// releases — `SecPolicyCreateSSL(true, domain)` when `validatesDomainName` is YES, else
        /// `SecPolicyCreateBasicX509()` — but `validatesDomainName` still defaults to NO for mode none
        /// (AFNetworking issues #2549, #2619), so an app that never sets it gets no host check. An app
        /// that sets it to YES gets the host check.
        case v2_5_2

        /// `validatesDomainName` of a policy in `mode` when the app does not set it.
        public func defaultValidatesDomainName(mode: PinningMode) -> Bool {
            switch self {
            case .current: return true
            case .v2_5_1, .v2_5_2: return mode != .none
            }
        }
    }

    public var mode: PinningMode
    /// DER certificates (`pinnedCertificates`, normally from `certificatesInBundle:`).
    public var pinnedCertificates: [[UInt8]]
    public var allowInvalidCertificates: Bool
    public var validatesDomainName: Bool
    public var behaviour: Behaviour

    /// `policyWithPinningMode:withPinnedCertificates:` — allowInvalid NO; validatesDomainName as the app
    /// set it, or nil for the release's default (`Behaviour.defaultValidatesDomainName`: YES from 2.5.3
    /// on; in 2.5.1 and 2.5.2, NO for mode none).
    public init(mode: PinningMode, pinnedCertificates: [[UInt8]] = [], allowInvalidCertificates: Bool = false,
                validatesDomainName: Bool? = nil, behaviour: Behaviour = .current) {
        self.mode = mode
        self.pinnedCertificates = pinnedCertificates
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName ?? behaviour.defaultValidatesDomainName(mode: mode)
        self.behaviour = behaviour
    }

    /// `defaultPolicy`: mode none, no pins, allowInvalid NO, validatesDomainName YES.
    public static var defaultPolicy: AFSecurityPolicy { AFSecurityPolicy(mode: .none) }

    /// The pinned public keys (SubjectPublicKeyInfo DER) of the pinned certificates that parse.
    public var pinnedPublicKeys: [[UInt8]] {
        pinnedCertificates.compactMap { try? X509Certificate(der: $0).publicKey.der }
    }

    /// `evaluateServerTrust:forDomain:`.
    public func evaluate(_ trust: ServerTrust, forDomain domain: String?) -> PolicyDecision {
        var reasons: [TrustReason] = []
        if mode == .none && behaviour == .v2_5_1 {
            return PolicyDecision(accepted: true, reasons: [.afNetworking(.v251ModeNoneReturnsYES)])
        }
        // Step 1.
        if domain != nil && allowInvalidCertificates && validatesDomainName && (mode == .none || pinnedCertificates.isEmpty) {
            return PolicyDecision(accepted: false, reasons: [.afNetworking(.mustUsePinning(modeNone: mode == .none))])
        }
        // Step 2.
        let purpose: ChainValidator.Purpose = validatesDomainName ? .sslServer(host: domain) : .basicX509
        reasons.append(.afNetworking(validatesDomainName ? .sslPolicy(host: domain) : .basicX509Policy))
        let evaluation = trust.evaluate(purpose)
        let chain = EvaluationSummary(evaluation)
        // Step 3.
        if mode == .none {
            let ok = allowInvalidCertificates || evaluation.isValid
            reasons.append(.afNetworking(.modeNoneResult(allowInvalidCertificates: allowInvalidCertificates, chain: chain, accepted: ok)))
            return PolicyDecision(accepted: ok, reasons: reasons, evaluation: evaluation)
        }
        // Step 4.
        if !evaluation.isValid && !allowInvalidCertificates {
            reasons.append(.afNetworking(.chainRefused(chain)))
            return PolicyDecision(accepted: false, reasons: reasons, evaluation: evaluation)
        }
        reasons.append(.afNetworking(.chainChecked(chain, tolerated: !evaluation.isValid)))
        switch mode {
        case .certificate:
            // Step 5: pinned certificates become the only anchors, then evaluate again.
            let pinned = pinnedCertificates.compactMap { try? X509Certificate(der: $0) }
            let anchored = trust.evaluate(purpose, anchors: trust.anchors.withAnchors(pinned, name: .pinnedCertificates))
            guard anchored.isValid else {
                reasons.append(.afNetworking(.pinnedAnchorsInvalid(pinned: pinned.count, EvaluationSummary(anchored))))
                return PolicyDecision(accepted: false, reasons: reasons, evaluation: anchored)
            }
            reasons.append(.afNetworking(.pinnedAnchorsValid))
            for cert in anchored.path.reversed() where pinnedCertificates.contains(cert.der) {
                reasons.append(.afNetworking(.pinnedCertificateFound(subject: "\(cert.subject)")))
                return PolicyDecision(accepted: true, reasons: reasons, evaluation: anchored)
            }
            reasons.append(.afNetworking(.noPinnedCertificateInChain))
            return PolicyDecision(accepted: false, reasons: reasons, evaluation: anchored)
        case .publicKey:
            // Step 6: any key of the chain equal to a pinned key; no further evaluation.
            let chain = evaluation.path.isEmpty ? trust.presented : evaluation.path
            let pinnedKeys = pinnedPublicKeys
            let matches = chain.filter { pinnedKeys.contains($0.publicKey.der) }
            if let first = matches.first {
                reasons.append(.afNetworking(.publicKeyPinFound(subject: "\(first.subject)", matches: matches.count)))
                return PolicyDecision(accepted: true, reasons: reasons, evaluation: evaluation)
            }
            reasons.append(.afNetworking(.noPublicKeyPinInChain(chainKeys: chain.count, pinnedKeys: pinnedKeys.count)))
            return PolicyDecision(accepted: false, reasons: reasons, evaluation: evaluation)
        case .none:
            return PolicyDecision(accepted: false, reasons: reasons, evaluation: evaluation)
        }
    }
}
