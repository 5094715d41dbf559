import TLSCrypto

/// The kind of key a certificate of a `PKIHierarchy` carries: RSA (its size from the spec's
/// `keyBits`), or an EC key on P-256 or P-384 (RFC 5480 §2.1.1.1's secp256r1 and secp384r1, the
/// curves of FIPS 186-5 §6.1.1 / SP 800-186 §3.2.1). An EC key signs with ECDSA.
public enum PKIKeyKind: String, Sendable, Hashable, CaseIterable, Codable {
    case rsa
    case p256 = "p-256"
    case p384 = "p-384"

    /// The curve of an EC kind; nil for RSA.
    public var curve: ECDSACurve.Name? {
        switch self {
        case .rsa: return nil
        case .p256: return .p256
        case .p384: return .p384
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
