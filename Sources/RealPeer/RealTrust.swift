import Foundation
import PKI
import HTTP2
import Trace
import Trust
import TLSEngine

/// The client's trust decision about a real server, made exactly as in a simulation: the
/// simulation's ``PolicyTrustEvaluator`` (ATS's certificate rules when the app has an ATS
/// dictionary, then the ServerTrust challenge answered by the app's ``ClientTrustPolicy``), with the
/// given anchors as the system store and the wall clock as the time.
public enum RealTrust {
    /// The evaluator for `policy` and `ats`; `host` is the name the certificate must carry when the
    /// engine has no server_name to pass (an address was dialled without `--servername`).
    public static func evaluator(policy: ClientTrustPolicy, ats: ATSPolicy? = nil, anchors: [X509Certificate],
                                 storeName: TrustStoreName, host: String? = nil,
                                 time: Int64 = Int64(Date().timeIntervalSince1970)) -> any PeerCertificateEvaluator {
        let evaluator = PolicyTrustEvaluator(policy: policy, ats: ats,
                                             anchors: AnchorSelection(system: TrustStore(name: storeName, anchors: anchors)),
                                             time: time)
        guard let host else { return evaluator }
        return NamedHost(inner: evaluator, host: host)
    }

    /// `configuration` as ATS restricts it for `https://host/` (TLS ≥ 1.2, forward-secret suites
    /// only unless an exception says otherwise), or a one-line reason why nothing is left to offer.
    public static func restrict(_ configuration: TLSClientConfiguration, ats: ATSPolicy,
                                host: String) -> Result<TLSClientConfiguration, PeerFileError> {
        let plan: ATSConnectionPlan
        let url = "https://\(host.contains(":") ? "[\(host)]" : host)/"
        do { plan = try ATSConnectionPlan(ats: ats, url: url) } catch {
            return .failure(.atsNotAURL(url))
        }
        let restricted = plan.restrict(configuration)
        guard restricted.cipherSuites.contains(where: { !$0.isSignalingValue }) else {
            return .failure(.atsNoForwardSecretSuite(host: plan.host))
        }
        return .success(restricted)
    }
}

/// Checks the server's chain against a fixed name when the engine has none to pass.
struct NamedHost: PeerCertificateEvaluator {
    var inner: any PeerCertificateEvaluator
    var host: String

    func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        inner.evaluate(chain: chain, role: role, serverName: serverName ?? host)
    }
}
