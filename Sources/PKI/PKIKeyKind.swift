import TLSCrypto

/// The kind of key a certificate of a `PKIHierarchy` carries: RSA (its size from the spec's
/// `keyBits`), an EC key on P-256, P-384 or P-521 (RFC 5480 §2.1.1.1's secp256r1, secp384r1 and
/// secp521r1, the curves of FIPS 186-5 §6.1.1 / SP 800-186 §3.2.1), which signs with ECDSA, or an
/// Ed25519 key (RFC 8410), which signs TLS handshakes (RFC 8422 §5.1.3) but, in TLSLab's PKI, no
/// certificates: it is a leaf's or a client's key only.
public enum PKIKeyKind: String, Sendable, Hashable, CaseIterable, Codable {
    case rsa
    case p256 = "p-256"
    case p384 = "p-384"
    case p521 = "p-521"
    case ed25519

    /// The curve of an EC kind; nil for RSA and Ed25519.
    public var curve: ECDSACurve.Name? {
        switch self {
        case .rsa, .ed25519: return nil
        case .p256: return .p256
        case .p384: return .p384
        case .p521: return .p521
        }
    }

    /// The EC kind on `curve`.
    public init(_ curve: ECDSACurve.Name) {
        switch curve {
        case .p256: self = .p256
        case .p384: self = .p384
        case .p521: self = .p521
        }
    }

    /// The kind of a signing key.
    public init(_ key: SigningKey) {
        switch key {
        case .rsa: self = .rsa
        case .ecdsa(let key): self.init(key.curve.name)
        case .ed25519: self = .ed25519
        }
    }
}

/// Which kind of key each certificate of a hierarchy has. RSA everywhere by default, which is the
/// hierarchy TLSLab always built (so existing seeds give the same certificates).
public struct PKIKeyKinds: Sendable, Hashable, Codable {
    public var root: PKIKeyKind
    /// The intermediate CA (and the `.pathLenExceeded` sub-CA under it).
    public var intermediate: PKIKeyKind
    /// The server leaf.
    public var leaf: PKIKeyKind
    public var clientRoot: PKIKeyKind
    /// The client certificate.
    public var client: PKIKeyKind

    public init(root: PKIKeyKind = .rsa, intermediate: PKIKeyKind = .rsa, leaf: PKIKeyKind = .rsa,
                clientRoot: PKIKeyKind = .rsa, client: PKIKeyKind = .rsa) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.clientRoot = clientRoot
        self.client = client
    }

    /// Every certificate RSA.
    public static let allRSA = PKIKeyKinds()

    /// True when any certificate has an EC key.
    public var hasEC: Bool { [root, intermediate, leaf, clientRoot, client].contains { $0 != .rsa } }
}
