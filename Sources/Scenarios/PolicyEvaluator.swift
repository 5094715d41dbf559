import PKI
import TLSEngine
import Trace
import Trust

/// What the client's policy decided about the server's chain (recorded for `expect`), read from
/// the trace: the engine asks the evaluator once per handshake and records its decision there.
public struct TrustVerdict: Sendable {
    public var accepted: Bool
    /// nil when ATS refused the certificate before any challenge.
    public var disposition: ChallengeDisposition?
    /// The deciding evaluation's first failing check: the policy's own when it failed, else the
    /// system default's (nil: the chain is valid for the host).
    public var firstFailingCheck: ChainCheck.Kind?
    public var reasons: [TrustReason]

    /// The client's last decision about a server chain in `trace` (nil: it never evaluated one).
    public init?(clientDecisionIn trace: Trace) {
        for event in trace.events.reversed() where event.actor == .client {
            guard case .tls(.certificateDecision(.server, _, let accepted, let account, let validation)) = event.kind else { continue }
            switch account {
            case let .decidedBy(steps, _): reasons = steps
            case let .unparsable(index, error): reasons = [.unparsable(index: index, error: error)]
            default: reasons = []
            }
            self.accepted = accepted
            disposition = reasons.lazy.compactMap { if case let .disposition(d, _) = $0 { d } else { nil } }.last
            firstFailingCheck = validation?.firstFailure?.kind
            return
        }
        return nil
    }

    /// True when the server accepted a client certificate (mutual TLS) in `trace`.
    public static func clientAuthenticated(in trace: Trace) -> Bool {
        trace.events.contains {
            guard $0.actor == .server, case .tls(.certificateDecision(.client, let length, true, _, _)) = $0.kind else { return false }
            return length > 0
        }
    }
}

extension TLSWorld {
    /// The anchors the client evaluates with: the system's trust store, and the app's own anchors
    /// when the world sets them.
    var anchors: AnchorSelection {
        let system = TrustStore.system(trustStore.compactMap { certificates[$0]?.certificate })
        guard let custom = customAnchors else { return AnchorSelection(system: system) }
        return AnchorSelection(system: system,
                               custom: TrustStore(name: .appAnchors, anchors: custom.compactMap { certificates[$0]?.certificate }),
                               anchorsOnly: anchorsOnly)
    }

    /// The engine's server-certificate decision made the NSURLSession way: ATS's certificate rules
    /// when the app has an ATS dictionary, then the ServerTrust challenge answered by the world's policy.
    var certificateEvaluator: PolicyTrustEvaluator {
        let trustPolicy: ClientTrustPolicy
        switch policy {
        case .system: trustPolicy = .systemDefault
        case .afnetworking(let p, _): trustPolicy = .afNetworking(p)
        case .challengeMode(let mode): trustPolicy = .challengeMode(mode)
        case .webContainer: trustPolicy = .webContainer
        case .fixedAnswer(let disposition): trustPolicy = .fixedAnswer(disposition)
        case .imageDownloader(let allow): trustPolicy = .imageDownloader(allowInvalidSSLCertificates: allow)
        case .bundledAnchor(let names, let only):
            trustPolicy = .bundledAnchor(names.compactMap { certificates[$0]?.certificate }, anchorsOnly: only)
        }
        return PolicyTrustEvaluator(policy: trustPolicy, ats: ats, anchors: anchors, time: now)
    }
}
