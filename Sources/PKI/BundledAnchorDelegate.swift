/// A hand-written trust delegate that pins by anchoring (`connection:willSendRequestForAuthenticationChallenge:`):
///
/// 1. take the challenge's server trust (its policy is SSL with the host the app asked for);
/// 2. `SecTrustSetAnchorCertificates(trust, bundledCertificates)`;
/// 3. `SecTrustEvaluate`; Proceed or Unspecified → `useCredential:` with a credential for the trust,
///    anything else → `cancelAuthenticationChallenge:`.
///
/// Such delegates are often described as then looking at the bundled anchors *or* the system's. On
/// Apple platforms `SecTrustSetAnchorCertificates` alone disables the system anchors until
/// `SecTrustSetAnchorCertificatesOnly(trust, false)` re-enables them; `anchorsOnly` models both.
public enum BundledAnchorDelegate {
    /// The decision and the evaluation it rests on.
    public struct Decision: Sendable {
        public let outcome: ChallengeOutcome
        public let evaluation: ChainValidationResult
    }

    /// Evaluates `trust` for `host` with `bundled` as the anchor certificates.
    public static func bundledAnchor(_ bundled: [X509Certificate], anchorsOnly: Bool = true, trust: ServerTrust,
                                     host: String) -> Decision {
        let anchors = trust.anchors.withAnchors(bundled, name: .bundledCertificates, only: anchorsOnly)
        let evaluation = trust.evaluate(.sslServer(host: host), anchors: anchors)
        var reasons: [TrustReason] = [.bundledAnchors(count: bundled.count, anchorsOnly: anchorsOnly),
                                      .bundledEvaluation(host: host, EvaluationSummary(evaluation))]
        let disposition: ChallengeDisposition
        if evaluation.isValid {
            reasons.append(.bundledProceeds)
            disposition = .useCredential
        } else {
            reasons.append(.bundledCancels)
            disposition = .cancelAuthenticationChallenge
        }
        let outcome = ChallengeResolver.resolve(method: .serverTrust, disposition: disposition, trust: trust, host: host, reasons: reasons)
        return Decision(outcome: outcome, evaluation: evaluation)
    }
}
