import PKI
import TLSCrypto
import TLSEngine

/// Accepts any certificate chain whose leaf parses and has an RSA or EC P-256/P-384 key, checking nothing: the "trust everything" client
/// (and a MITM's own client toward the real server, which does not care).
public struct TrustEverything: PeerCertificateEvaluator {
    public init() {}

    public func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        guard let der = chain.first else { return .reject(.noCertificate, reason: .noCertificate(sentBy: role)) }
        let leaf: X509Certificate
        do { leaf = try X509Certificate(der: der) } catch {
            return .reject(.unparsable, reason: .unparsable(index: 0, error: error))
        }
        guard let key = VerificationKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
            return .reject(.unsupportedKey, reason: .unsupportedKey(key: "\(leaf.publicKey.kind)"))
        }
        return .accept(leafPublicKey: key, summary: .acceptedWithoutChecks)
    }
}
