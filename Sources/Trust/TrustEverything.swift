import PKI
import TLSCrypto
import TLSEngine

/// Accepts any certificate chain with an RSA leaf, checking nothing: the "trust everything" client
/// (and a MITM's own client toward the real server, which does not care).
public struct TrustEverything: PeerCertificateEvaluator {
    public init() {}

    public func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        guard let der = chain.first, let leaf = try? X509Certificate(der: der) else {
            return .reject(.unparsable, reason: .stated("no usable RSA certificate"))
        }
        guard let key = VerificationKey(subjectPublicKeyInfoDER: leaf.publicKey.der) else {
            return .reject(.unsupportedKey, reason: .stated("no usable RSA certificate"))
        }
        return .accept(leafPublicKey: key, summary: .acceptedWithoutChecks)
    }
}
