import TLSCrypto

/// The RSA signature schemes TLSLab signs and verifies with (RFC 5246 §7.4.1.4.1, RFC 8446
/// §4.2.3 for the rsa_pss_rsae names), and how a signer picks one from the peer's list.
public enum SignatureSchemes {
    /// What TLSLab offers by default: PKCS#1 v1.5 SHA-256 first (RFC 5246's default style),
    /// then RSA-PSS and the other hashes.
    public static let defaultOffer: [SignatureScheme] = [
        .rsaPKCS1SHA256, .rsaPSSRSAESHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512,
        .rsaPSSRSAESHA384, .rsaPSSRSAESHA512, .rsaPKCS1SHA1,
    ]

    /// Every scheme TLSLab implements.
    public static let implemented: Set<SignatureScheme> = Set(defaultOffer)

    /// The signer's choice: the first scheme in the peer's list that the signer supports (so
    /// rsa_pss_rsae_sha256 when the peer lists it first, as OpenSSL does). Without a list, RFC 5246
    /// §7.4.1.4.1 says {sha1, rsa}.
    public static func choose(peerOffer: [SignatureScheme]?, ours: [SignatureScheme]) -> SignatureScheme? {
        let usable = ours.filter(implemented.contains)
        guard let peerOffer else { return usable.contains(.rsaPKCS1SHA1) ? .rsaPKCS1SHA1 : nil }
        return peerOffer.first(where: usable.contains)
    }

    /// Signs `data` with `scheme` (PSS with a salt as long as the hash, RFC 8446 §4.2.3).
    static func sign(_ data: [UInt8], scheme: SignatureScheme, key: RSAPrivateKey,
                     random: RandomSource) throws(TLSError) -> [UInt8] {
        do {
            switch scheme {
            case .rsaPKCS1SHA1: return try key.signPKCS1v15(message: data, hash: .sha1)
            case .rsaPKCS1SHA256: return try key.signPKCS1v15(message: data, hash: .sha256)
            case .rsaPKCS1SHA384: return try key.signPKCS1v15(message: data, hash: .sha384)
            case .rsaPKCS1SHA512: return try key.signPKCS1v15(message: data, hash: .sha512)
            case .rsaPSSRSAESHA256: return try key.signPSS(message: data, hash: .sha256, saltLength: 32, using: random)
            case .rsaPSSRSAESHA384: return try key.signPSS(message: data, hash: .sha384, saltLength: 48, using: random)
            case .rsaPSSRSAESHA512: return try key.signPSS(message: data, hash: .sha512, saltLength: 64, using: random)
            default: throw TLSError.internalError("cannot sign with \(scheme)")
            }
        } catch let error as TLSError {
            throw error
        } catch {
            throw .internalError("RSA signing failed: \(error)")
        }
    }

    /// Checks a signature; an unknown scheme does not verify.
    static func verify(_ signature: [UInt8], data: [UInt8], scheme: SignatureScheme, key: RSAPublicKey) -> Bool {
        switch scheme {
        case .rsaPKCS1SHA1: return key.verifyPKCS1v15(signature: signature, message: data, hash: .sha1)
        case .rsaPKCS1SHA256: return key.verifyPKCS1v15(signature: signature, message: data, hash: .sha256)
        case .rsaPKCS1SHA384: return key.verifyPKCS1v15(signature: signature, message: data, hash: .sha384)
        case .rsaPKCS1SHA512: return key.verifyPKCS1v15(signature: signature, message: data, hash: .sha512)
        case .rsaPSSRSAESHA256: return key.verifyPSS(signature: signature, message: data, hash: .sha256, saltLength: 32)
        case .rsaPSSRSAESHA384: return key.verifyPSS(signature: signature, message: data, hash: .sha384, saltLength: 48)
        case .rsaPSSRSAESHA512: return key.verifyPSS(signature: signature, message: data, hash: .sha512, saltLength: 64)
        default: return false
        }
    }
}
