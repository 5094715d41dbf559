import PKI
import TLSCrypto
import TLSEngine

/// The server's decision about a client certificate (mutual TLS), made by `MutualTLSPolicy`:
/// chain to the client-CA set, optional subject whitelist; refusals are the policy's
/// named reasons (the engine's table answers them with unknown_ca, certificate_expired, access_denied, …). An empty client Certificate
/// never reaches an evaluator: the engine itself answers handshake_failure when `require` is set.
public struct MutualTLSEvaluator: PeerCertificateEvaluator, Sendable {
    public var policy: MutualTLSPolicy
    /// The simulated clock (Unix seconds).
    public var time: Int64

    public init(policy: MutualTLSPolicy, time: Int64) {
        self.policy = policy
        self.time = time
    }

    /// The engine's `clientAuthentication` for this policy.
    public var clientAuthentication: ClientAuthentication {
        switch policy.mode {
        case .none: return .none
        case .request: return .request
        case .require: return .require
        }
    }

    /// `configuration` with client authentication and this evaluator installed.
    public func install(into configuration: TLSServerConfiguration) -> TLSServerConfiguration {
        var configured = configuration
        configured.clientAuthentication = clientAuthentication
        configured.clientCertificateEvaluator = policy.mode == .none ? nil : self
        return configured
    }

    public func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        let certificates: [X509Certificate]
        do { certificates = try X509Certificate.parseChain(chain) } catch {
            return .reject(.unparsable, reason: .unparsable(index: error.index, error: error.error))
        }
        let (outcome, reasons, _) = policy.evaluate(clientChain: certificates, time: time)
        switch outcome {
        case .reject(let refusal):
            return .reject(refusal, reason: .decidedBy(reasons, firstFailure: nil))
        case .accept:
            guard let leaf = certificates.first, let key = VerificationKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
                return .reject(.unsupportedKey, reason: .decidedBy(reasons + [.keyUnusable(client: true)], firstFailure: nil))
            }
            return .accept(leafPublicKey: key, summary: .decidedBy(reasons, firstFailure: nil))
        }
    }
}
