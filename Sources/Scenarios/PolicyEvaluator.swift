import HTTP2
import PKI
import Simulation
import TLSCrypto
import TLSEngine
import Trace
import Trust

/// What the client's policy decided about the server's chain (recorded for `expect`).
public struct TrustVerdict: Sendable {
    public var accepted: Bool
    /// nil when ATS refused the certificate before any challenge.
    public var disposition: ChallengeDisposition?
    /// The deciding evaluation's first failing check: the policy's own when it failed, else the
    /// system default's (nil: the chain is valid for the host).
    public var firstFailingCheck: ChainCheck.Kind?
    public var reasons: [TrustReason]
}

/// Holds the verdict the evaluator reached during the run.
final class VerdictRecorder {
    var verdict: TrustVerdict?
    var clientAuthenticated = false
}

/// The engine's server-certificate decision made the NSURLSession way — ATS's certificate rules
/// when the app has an ATS dictionary, then the ServerTrust challenge answered by the scenario's
/// policy (Simulation's `PolicyTrustEvaluator`) — with the verdict kept for `expect`.
struct PolicyEvaluator: PeerCertificateEvaluator {
    let world: TLSWorld
    let recorder: VerdictRecorder

    var anchors: AnchorSelection {
        let system = TrustStore.system(world.trustStore.compactMap { world.certificates[$0]?.certificate })
        guard let custom = world.customAnchors else { return AnchorSelection(system: system) }
        return AnchorSelection(system: system,
                               custom: TrustStore(name: .appAnchors, anchors: custom.compactMap { world.certificates[$0]?.certificate }),
                               anchorsOnly: world.anchorsOnly)
    }

    var evaluator: PolicyTrustEvaluator {
        let policy: ClientTrustPolicy
        switch world.policy {
        case .system: policy = .systemDefault
        case .afnetworking(let p, _): policy = .afNetworking(p)
        case .challengeMode(let mode): policy = .challengeMode(mode)
        case .webContainer: policy = .webContainer
        case .imageDownloader(let allow): policy = .imageDownloader(allowInvalidSSLCertificates: allow)
        case .bundledAnchor(let names, let only):
            policy = .bundledAnchor(names.compactMap { world.certificates[$0]?.certificate }, anchorsOnly: only)
        }
        return PolicyTrustEvaluator(policy: policy, ats: world.ats, anchors: anchors, time: world.now)
    }

    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        let evaluator = self.evaluator
        let verdict = evaluator.decide(chain: chain, host: serverName ?? world.host)
        recorder.verdict = TrustVerdict(accepted: verdict.accepted, disposition: verdict.outcome?.disposition,
                                        firstFailingCheck: verdict.firstFailure?.kind, reasons: verdict.reasons)
        return evaluator.evaluate(chain: chain, role: role, serverName: serverName ?? world.host)
    }
}

/// The server's decision about a client certificate (mutual TLS): CAs, validity, subject whitelist.
struct ClientCertificateEvaluator: PeerCertificateEvaluator {
    let policy: MutualTLSPolicy
    let time: Int64
    let recorder: VerdictRecorder

    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        var certificates: [X509Certificate] = []
        for der in chain {
            do { certificates.append(try X509Certificate(der: der)) } catch {
                return .reject(.unparsable, reason: .unparsable(index: certificates.count, error: error))
            }
        }
        let (outcome, reasons, _) = policy.evaluate(clientChain: certificates.isEmpty ? nil : certificates, time: time)
        switch outcome {
        case .accept:
            guard let leaf = certificates.first, let key = VerificationKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
                return .reject(.unsupportedKey, reason: .decidedBy(reasons + [.keyUnusable(client: true)], firstFailure: nil))
            }
            recorder.clientAuthenticated = true
            return .accept(leafPublicKey: key, summary: .decidedBy(reasons, firstFailure: nil))
        case .reject(let refusal):
            return .reject(refusal, reason: .decidedBy(reasons, firstFailure: nil))
        }
    }
}
