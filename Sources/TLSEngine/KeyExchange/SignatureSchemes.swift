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

    /// What a server lists in its CertificateRequest by default: OpenSSL 3.0's order (RSA-PSS, then
    /// PKCS#1 v1.5, each SHA-256, SHA-384, SHA-512) without SHA-1, which RFC 9155 §2 removes
    /// from TLS 1.2 signatures ("MUST NOT be included in CertificateRequest messages").
    public static let certificateRequestDefault: [SignatureScheme] = [
        .rsaPSSRSAESHA256, .rsaPSSRSAESHA384, .rsaPSSRSAESHA512, .rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512,
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
    // MARK: - TLS 1.0 and 1.1 (no SignatureAndHashAlgorithm)

    /// RFC 4346 §4.7 / RFC 2246 §4.7: an RSA `digitally-signed` value in TLS 1.0 and 1.1 is the
    /// 36-byte MD5(data) ‖ SHA-1(data), padded as a PKCS #1 v1.5 block type 1
    /// (00 01 FF…FF 00 ‖ hashes, without a DigestInfo) and raised to the private exponent.
    static func legacyBlock(_ data: [UInt8], modulusLength k: Int) throws(TLSError) -> [UInt8] {
        let hashes = HashAlgorithm.md5.digest(data) + HashAlgorithm.sha1.digest(data)
        guard k >= hashes.count + 11 else { throw .internalError("RSA modulus too small for an MD5‖SHA-1 signature") }
        return [0x00, 0x01] + [UInt8](repeating: 0xff, count: k - 3 - hashes.count) + [0x00] + hashes
    }

    /// Signs `data` the TLS 1.0/1.1 way (MD5 ‖ SHA-1, no algorithm field).
    static func signLegacy(_ data: [UInt8], key: RSAPrivateKey) throws(TLSError) -> [UInt8] {
        let k = key.publicKey.byteLength
        let block = try legacyBlock(data, modulusLength: k)
        do {
            return try key.privateOperation(BigInt(bigEndian: block)).bigEndianBytes(width: k)
        } catch {
            throw .internalError("RSA signing failed: \(error)")
        }
    }

    /// Checks a TLS 1.0/1.1 signature: the public operation must give exactly the expected block.
    static func verifyLegacy(_ signature: [UInt8], data: [UInt8], key: RSAPublicKey) -> Bool {
        let k = key.byteLength
        let s = BigInt(bigEndian: signature)
        guard signature.count == k, s < key.modulus,
              let block = try? legacyBlock(data, modulusLength: k),
              let opened = try? s.power(key.publicExponent, modulus: key.modulus).bigEndianBytes(width: k)
        else { return false }
        return opened == block
    }
}
