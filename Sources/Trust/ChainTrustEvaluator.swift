import PKI
import TLSCrypto
import TLSEngine

/// The engine's certificate decisions made by the PKI layer: the presented chain is validated
/// against the trust anchors at the simulated time, for the TLS server role with the host name
/// (or for a client certificate), and the first failing check becomes the refusal and its account.
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
        let certificates: [X509Certificate]
        do { certificates = try X509Certificate.parseChain(chain) } catch {
            return .reject(.unparsable, reason: .unparsable(index: error.index, error: error.error))
        }
        guard let leaf = certificates.first else {
            return .reject(.noCertificate, reason: .noCertificate(sentBy: role))
        }
        let purpose: ChainValidator.Purpose = role == .server ? .sslServer(host: serverName) : .sslClient
        let validator = ChainValidator(anchors: anchors, purpose: purpose, time: time, rejectWeakAlgorithms: rejectWeakAlgorithms)
        let result = validator.validate(certificates)
        guard result.isValid else {
            let failed = result.firstFailure
            return .reject(CertificateRefusal(failing: failed),
                           reason: failed.map(CertificateAccount.checkFailed) ?? .chainNotTrusted(result.result), validation: result)
        }
        guard let key = VerificationKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
            return .reject(.unsupportedKey, reason: .unsupportedKey(key: "\(leaf.publicKey.kind)"),
                           validation: result)
        }
        let anchor = result.path.last.map { "\($0.subject)" } ?? "?"
        return .accept(leafPublicKey: key, summary: .chainValidated(checks: result.checks.count, pathLength: result.path.count, anchor: anchor),
                       validation: result)
    }
}
