import TLSCrypto

/// The signature schemes TLSLab signs and verifies with (RFC 5246 §7.4.1.4.1, RFC 8446 §4.2.3 for
/// the names): RSA PKCS#1 v1.5 and PSS, and ECDSA with SHA-256/SHA-384 (RFC 8422 §5.4, whose TLS 1.2
/// signatures may use either hash with either curve), and how a signer picks one from the peer's list.
public enum SignatureSchemes {
    /// What TLSLab offers by default: PKCS#1 v1.5 SHA-256 first (RFC 5246's default style),
    /// then RSA-PSS and the other hashes.
    public static let defaultOffer: [SignatureScheme] = [
        .rsaPKCS1SHA256, .rsaPSSRSAESHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512,
        .rsaPSSRSAESHA384, .rsaPSSRSAESHA512, .rsaPKCS1SHA1,
    ]

    /// The ECDSA schemes TLSLab signs and verifies with (a client offers them when configured to).
    public static let ecdsa: [SignatureScheme] = [.ecdsaSECP256r1SHA256, .ecdsaSECP384r1SHA384]

    /// ECDSA first, then the RSA schemes: what `tlslab connect` offers.
    public static let offerWithECDSA: [SignatureScheme] = ecdsa + defaultOffer

    /// ECDSA on P-521 with SHA-512 (RFC 8422 §5.1.3, RFC 8446 §4.2.3's pairing): signed with a P-521 key,
    /// verified with any ECDSA key. Offered by `tlslab connect` and listed by `tlslab serve`'s
    /// CertificateRequest, not by the simulation's defaults (their ClientHello and CertificateRequest
    /// stay as recorded).
    public static let ecdsaP521: SignatureScheme = .ecdsaSECP521r1SHA512

    /// What `tlslab serve` lists in a CertificateRequest: ``certificateRequestDefault`` with
    /// ecdsa_secp521r1_sha512 and ed25519 after the other ECDSA schemes, as OpenSSL 3.0 orders them.
    public static let certificateRequestOpenSSL: [SignatureScheme] =
        [.ecdsaSECP256r1SHA256, .ecdsaSECP384r1SHA384, ecdsaP521, .ed25519] + certificateRequestDefault.filter { ecdsaHash($0) == nil }

    /// What a server lists in its CertificateRequest by default: OpenSSL 3.0's order (ECDSA P-256 and
    /// P-384, RSA-PSS, then PKCS#1 v1.5, each SHA-256, SHA-384, SHA-512) restricted to what TLSLab
    /// implements, without SHA-1, which RFC 9155 §2 removes from TLS 1.2 signatures ("MUST NOT be
    /// included in CertificateRequest messages").
    public static let certificateRequestDefault: [SignatureScheme] = [
        .ecdsaSECP256r1SHA256, .ecdsaSECP384r1SHA384, .rsaPSSRSAESHA256, .rsaPSSRSAESHA384, .rsaPSSRSAESHA512, .rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512,
    ]

    /// Every scheme TLSLab implements.
    public static let implemented: Set<SignatureScheme> = Set(defaultOffer + ecdsa + [ecdsaP521, .ed25519])

    /// The schemes `key` can sign with, from `configured` (RSA keys) or, for an ECDSA key, the ECDSA
    /// schemes with the curve's own hash first (RFC 8446 §4.2.3 pairs P-256 with SHA-256 and P-384
    /// with SHA-384; TLS 1.2 allows either).
    public static func usable(by key: SigningKey, configured: [SignatureScheme]) -> [SignatureScheme] {
        switch key {
        case .rsa: return configured.filter { $0.isRSAPKCS1 || $0.isRSAPSS }
        case .ecdsa(let k):
            switch k.curve.name {
            case .p256: return ecdsa
            case .p384: return [.ecdsaSECP384r1SHA384, .ecdsaSECP256r1SHA256]
            case .p521: return [ecdsaP521, .ecdsaSECP384r1SHA384, .ecdsaSECP256r1SHA256]
            }
        case .ed25519: return [.ed25519]
        }
    }

    /// The scheme a signer with `key` uses from the peer's list: for RSA the first the peer lists that
    /// `configured` allows (``choose(peerOffer:ours:)``); for ECDSA the curve's own scheme when the peer
    /// offers it (the pairing RFC 8446 §4.2.3 makes), else the other ECDSA scheme, which TLS 1.2 allows
    /// (RFC 8422 §5.4). OpenSSL's TLS 1.2 server instead takes the client's first ECDSA scheme.
    public static func choose(peerOffer: [SignatureScheme]?, key: SigningKey, configured: [SignatureScheme]) -> SignatureScheme? {
        let ours = usable(by: key, configured: configured)
        guard case .ecdsa = key else { return choose(peerOffer: peerOffer, ours: ours) }
        guard let peerOffer else { return nil }   // RFC 5246 §7.4.1.4.1's default {sha1, ecdsa} is not implemented
        return ours.first(where: peerOffer.contains)
    }

    /// The hash of an ECDSA scheme (RFC 5246 §7.4.1.4.1: the first byte), nil for any other.
    static func ecdsaHash(_ scheme: SignatureScheme) -> TLSCrypto.HashAlgorithm? {
        switch scheme {
        case .ecdsaSECP256r1SHA256: return .sha256
        case .ecdsaSECP384r1SHA384: return .sha384
        case .ecdsaSECP521r1SHA512: return .sha512
        default: return nil
        }
    }

    /// The signer's choice: the first scheme in the peer's list that the signer supports (so
    /// rsa_pss_rsae_sha256 when the peer lists it first, as OpenSSL does). Without a list, RFC 5246
    /// §7.4.1.4.1 says {sha1, rsa}.
    public static func choose(peerOffer: [SignatureScheme]?, ours: [SignatureScheme]) -> SignatureScheme? {
        let usable = ours.filter(implemented.contains)
        guard let peerOffer else { return usable.contains(.rsaPKCS1SHA1) ? .rsaPKCS1SHA1 : nil }
        return peerOffer.first(where: usable.contains)
    }

    /// Signs `data` with `scheme` and an RSA or ECDSA key (ECDSA: DER Ecdsa-Sig-Value, RFC 8422 §5.4,
    /// its nonce drawn from `random`).
    static func sign(_ data: [UInt8], scheme: SignatureScheme, key: SigningKey,
                     random: RandomSource) throws(TLSError) -> [UInt8] {
        switch key {
        case .rsa(let rsa): return try sign(data, scheme: scheme, key: rsa, random: random)
        case .ecdsa(let ec):
            guard let hash = ecdsaHash(scheme) else { throw .internalError(.schemeDoesNotFitKey(scheme, keyIsECDSA: true)) }
            do { return try ec.sign(message: data, hash: hash, using: random) } catch {
                throw .internalError(.signingFailed(scheme))
            }
        case .ed25519(let ed):
            // RFC 8422 §5.1.3: the message itself is signed (PureEdDSA), deterministically.
            guard scheme == .ed25519 else { throw .internalError(.schemeDoesNotFitKey(scheme, keyIsECDSA: true)) }
            do { return try ed.sign(message: data) } catch {
                throw .internalError(.signingFailed(scheme))
            }
        }
    }

    /// Checks a signature with an RSA or ECDSA key; a scheme of the other kind does not verify.
    static func verify(_ signature: [UInt8], data: [UInt8], scheme: SignatureScheme, key: VerificationKey) -> Bool {
        switch key {
        case .rsa(let rsa): return verify(signature, data: data, scheme: scheme, key: rsa)
        case .ecdsa(let ec):
            guard let hash = ecdsaHash(scheme) else { return false }
            return ec.verify(signature: signature, message: data, hash: hash)
        case .ed25519(let ed):
            return scheme == .ed25519 && ed.verify(signature: signature, message: data)
        }
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
            default: throw TLSError.internalError(.schemeDoesNotFitKey(scheme, keyIsECDSA: false))
            }
        } catch let error as TLSError {
            throw error
        } catch {
            throw .internalError(.signingFailed(scheme))
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
        guard k >= hashes.count + 11 else { throw .internalError(.rsaModulusTooSmallForMD5SHA1(modulusBytes: k, neededBytes: hashes.count + 11)) }
        return [0x00, 0x01] + [UInt8](repeating: 0xff, count: k - 3 - hashes.count) + [0x00] + hashes
    }

    /// Signs `data` the TLS 1.0/1.1 way (MD5 ‖ SHA-1, no algorithm field).
    static func signLegacy(_ data: [UInt8], key: RSAPrivateKey) throws(TLSError) -> [UInt8] {
        let k = key.publicKey.byteLength
        let block = try legacyBlock(data, modulusLength: k)
        do {
            return try key.privateOperation(BigInt(bigEndian: block)).bigEndianBytes(width: k)
        } catch {
            throw .internalError(.signingFailed(nil))
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
