/// The private key a TLS peer signs with — ServerKeyExchange (RFC 5246 §7.4.3, RFC 8422 §5.4) and
/// CertificateVerify (§7.4.8): RSA or ECDSA. The big-number teaching stays with RSA; ECDSA is what
/// most web servers present today.
public enum SigningKey: Sendable {
    case rsa(RSAPrivateKey)
    case ecdsa(ECDSAPrivateKey)
    /// Ed25519 (RFC 8422 §5.1.3).
    case ed25519(Ed25519PrivateKey)

    /// The RSA key, for RSA key transport (a ClientKeyExchange the server decrypts); nil for ECDSA.
    public var rsa: RSAPrivateKey? {
        if case .rsa(let key) = self { return key }
        return nil
    }

    public var publicKey: VerificationKey {
        switch self {
        case .rsa(let key): return .rsa(key.publicKey)
        case .ecdsa(let key): return .ecdsa(key.publicKey)
        case .ed25519(let key): return .ed25519(key.publicKey)
        }
    }

    /// PKCS #8 PEM of either kind (simulation keys only: they come from a public seed).
    public var pem: String {
        switch self {
        case .rsa(let key): return key.pem
        case .ecdsa(let key): return key.pem
        case .ed25519(let key): return key.pem
        }
    }

    /// A private key from PEM: PKCS #1 or PKCS #8 RSA, SEC 1 or PKCS #8 EC (P-256, P-384).
    public init(pem text: String) throws(RSAError) {
        if text.contains("BEGIN EC PRIVATE KEY"), let key = try? ECDSAPrivateKey(pem: text) {
            self = .ecdsa(key)
            return
        }
        do {
            self = .rsa(try RSAPrivateKey(pem: text))
        } catch {
            // A PKCS #8 PRIVATE KEY that is not RSA may be EC or Ed25519.
            if let key = try? ECDSAPrivateKey(pem: text) {
                self = .ecdsa(key)
            } else if let key = try? Ed25519PrivateKey(pem: text) {
                self = .ed25519(key)
            } else {
                throw error
            }
        }
    }
}

/// A peer's public key from its certificate, checked against its signatures: RSA or ECDSA.
public enum VerificationKey: Sendable, Hashable {
    case rsa(RSAPublicKey)
    case ecdsa(ECDSAPublicKey)
    case ed25519(Ed25519PublicKey)

    /// From a SubjectPublicKeyInfo: rsaEncryption (RFC 3279 §2.3.1) or id-ecPublicKey on P-256 /
    /// P-384 (RFC 5480 §2); nil for any other key.
    public init?(subjectPublicKeyInfoDER der: [UInt8]) {
        if let key = try? RSAPublicKey(subjectPublicKeyInfoDER: der) {
            self = .rsa(key)
        } else if let key = try? ECDSAPublicKey(subjectPublicKeyInfoDER: der) {
            self = .ecdsa(key)
        } else if let key = try? Ed25519PublicKey(subjectPublicKeyInfoDER: der) {
            self = .ed25519(key)
        } else {
            return nil
        }
    }

    public var rsa: RSAPublicKey? {
        if case .rsa(let key) = self { return key }
        return nil
    }

    /// "RSA-2048", "EC P-256".
    public var description: String {
        switch self {
        case .rsa(let key): return "RSA-\(key.modulus.bitWidth)"
        case .ecdsa(let key): return "EC \(key.curve.rawValue)"
        case .ed25519: return "Ed25519"
        }
    }
}
