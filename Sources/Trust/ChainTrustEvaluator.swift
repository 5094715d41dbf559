import PKI
import TLSCrypto
import TLSEngine

/// The engine's certificate decisions made by the PKI layer: the presented chain is validated
/// against the trust anchors at the simulated time, for the TLS server role with the host name
/// (or for a client certificate), and the first failing check becomes the alert and the reason.
public struct ChainTrustEvaluator: PeerCertificateEvaluator {
    public var anchors: AnchorSelection
    /// The simulated clock (seconds since 1970) against which validity is checked.
    public var time: Int64
    public var rejectWeakAlgorithms: Bool

    public init(anchors: AnchorSelection, time: Int64, rejectWeakAlgorithms: Bool = true) {
        self.anchors = anchors
        self.time = time
        self.rejectWeakAlgorithms = rejectWeakAlgorithms
    }

    public func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        var certificates: [X509Certificate] = []
        for der in chain {
            do {
                certificates.append(try X509Certificate(der: der))
            } catch {
                return .reject(.badCertificate, reason: "certificate \(certificates.count) does not parse: \(error)")
            }
        }
        guard let leaf = certificates.first else {
            return .reject(.handshakeFailure, reason: "the \(role.rawValue) sent no certificate")
        }
        let purpose: ChainValidator.Purpose = role == .server ? .sslServer(host: serverName) : .sslClient
        let validator = ChainValidator(anchors: anchors, purpose: purpose, time: time, rejectWeakAlgorithms: rejectWeakAlgorithms)
        let result = validator.validate(certificates)
        guard result.isValid else {
            let failed = result.firstFailure
            return .reject(AlertDescription(rawValue: CertificateAlertMapping.alert(for: failed).code),
                           reason: failed.map { "\($0.kind.rawValue) check failed at depth \($0.depth) (\($0.subject)): \($0.detail)" }
                               ?? "the chain is not trusted (\(result.result))", validation: result)
        }
        guard let key = VerificationKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
            return .reject(.unsupportedCertificate, reason: "the leaf key is \(leaf.publicKey.kind), but TLSLab's suites need RSA or EC P-256/P-384",
                           validation: result)
        }
        let anchor = result.path.last.map { "\($0.subject)" } ?? "?"
        return .accept(leafPublicKey: key,
                       summary: "\(result.checks.count) checks passed along a path of \(result.path.count) up to the anchor \(anchor)",
                       validation: result)
    }
}
