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
        var reasons: [String] = []
        if mode == .none && behaviour == .v2_5_1 {
            return PolicyDecision(accepted: true, reasons: ["AFNetworking 2.5.1: pinning mode none returns YES without evaluating the chain"])
        }
        // Step 1.
        if domain != nil && allowInvalidCertificates && validatesDomainName && (mode == .none || pinnedCertificates.isEmpty) {
            return PolicyDecision(accepted: false, reasons: [
                "step 1: domain given, allowInvalidCertificates and validatesDomainName are YES, and "
                + (mode == .none ? "mode is none" : "there are no pinned certificates")
                + ": \"In order to validate a domain name for self signed certificates, you MUST use pinning.\" → NO"])
        }
        // Step 2.
        let purpose: ChainValidator.Purpose = validatesDomainName ? .sslServer(host: domain) : .basicX509
        reasons.append(validatesDomainName ? "step 2: policy SSL(host: \(domain ?? "nil"))"
                                           : "step 2: validatesDomainName NO → BasicX509 policy (host not checked)")
        let evaluation = trust.evaluate(purpose)
        let chainText = evaluation.isValid ? "chain valid (\(evaluation.result.rawValue))"
            : "chain invalid (\(evaluation.result.rawValue): \(evaluation.firstFailure?.detail ?? "?"))"
        // Step 3.
        if mode == .none {
            let ok = allowInvalidCertificates || evaluation.isValid
            reasons.append("step 3: mode none → allowInvalidCertificates (\(allowInvalidCertificates ? "YES" : "NO")) OR \(chainText) → \(ok ? "YES" : "NO")")
            return PolicyDecision(accepted: ok, reasons: reasons, evaluation: evaluation)
        }
        // Step 4.
        if !evaluation.isValid && !allowInvalidCertificates {
            reasons.append("step 4: \(chainText) and allowInvalidCertificates NO → NO")
            return PolicyDecision(accepted: false, reasons: reasons, evaluation: evaluation)
        }
        reasons.append("step 4: \(chainText)" + (evaluation.isValid ? "" : ", tolerated because allowInvalidCertificates is YES"))
        switch mode {
        case .certificate:
            // Step 5: pinned certificates become the only anchors, then evaluate again.
            let pinned = pinnedCertificates.compactMap { try? X509Certificate(der: $0) }
            let anchored = trust.evaluate(purpose, anchors: trust.anchors.withAnchors(pinned, name: .pinnedCertificates))
            guard anchored.isValid else {
                reasons.append("step 5: with the \(pinned.count) pinned certificate(s) as the only anchors the chain is invalid "
                               + "(\(anchored.firstFailure?.detail ?? anchored.result.rawValue)) → NO")
                return PolicyDecision(accepted: false, reasons: reasons, evaluation: anchored)
            }
            reasons.append("step 5: chain valid against the pinned certificates as anchors")
            for cert in anchored.path.reversed() where pinnedCertificates.contains(cert.der) {
                reasons.append("step 5: chain certificate \(cert.subject) equals a pinned certificate byte for byte → YES")
                return PolicyDecision(accepted: true, reasons: reasons, evaluation: anchored)
            }
            reasons.append("step 5: no chain certificate equals a pinned certificate → NO")
            return PolicyDecision(accepted: false, reasons: reasons, evaluation: anchored)
        case .publicKey:
            // Step 6: any key of the chain equal to a pinned key; no further evaluation.
            let chain = evaluation.path.isEmpty ? trust.presented : evaluation.path
            let pinnedKeys = pinnedPublicKeys
            let matches = chain.filter { pinnedKeys.contains($0.publicKey.der) }
            if let first = matches.first {
                reasons.append("step 6: public key of \(first.subject) equals a pinned key (\(matches.count) match(es)) → YES")
                return PolicyDecision(accepted: true, reasons: reasons, evaluation: evaluation)
            }
            reasons.append("step 6: none of the \(chain.count) chain public key(s) equals one of the \(pinnedKeys.count) pinned key(s) → NO")
            return PolicyDecision(accepted: false, reasons: reasons, evaluation: evaluation)
        case .none:
            return PolicyDecision(accepted: false, reasons: reasons, evaluation: evaluation)
        }
    }
}
