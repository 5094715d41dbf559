/// What a `PKIHierarchy` should contain: names, hosts, key size, validity window and at most one
/// defect. Everything is derived deterministically from `seed` (keys, serial numbers), so a scenario
/// file can name a hierarchy by its spec and get the same certificates byte for byte.
public struct PKIHierarchySpec: Sendable, Hashable {
    /// Seeds every key (with its label) and serial number.
    public var seed: UInt64
    /// The organization (O=) of every certificate.
    public var organization: String
    public var rootName: String
    public var intermediateName: String
    /// The server's names: DNS names (wildcards allowed) and IP literals go to the SAN; the first is the CN.
    public var serverHosts: [String]
    /// The client certificate's CN (issued by its own client CA).
    public var clientName: String
    public var clientCAName: String
    /// RSA modulus size of every RSA key (2048 by default; the `.rsa1024Leaf` defect overrides the leaf's).
    public var keyBits: Int
    /// RSA or EC (P-256, P-384) for each certificate; RSA everywhere by default.
    public var keyKinds: PKIKeyKinds = .allRSA
    /// The simulated "now" (Unix seconds) the hierarchy is meant to be evaluated at.
    public var now: Int64
    /// The server leaf's validity, relative to `now` in seconds (the expired / not-yet-valid defects move it).
    public var leafValidFrom: Int64
    public var leafValidUntil: Int64
    /// The one defect to build in (`.none` for a valid hierarchy).
    public var defect: PKIDefect
    /// The SAN the `.wrongHost` leaf carries instead of `serverHosts`.
    public var wrongHostName: String

    /// 2026-06-01T00:00:00Z: the default simulated time.
    public static let defaultNow: Int64 = 1_780_272_000

    public init(seed: UInt64 = 1, organization: String = "TLSLab", rootName: String = "TLSLab Root CA",
                intermediateName: String = "TLSLab Intermediate CA", serverHosts: [String] = ["example.com", "www.example.com"],
                clientName: String = "client.example.com", clientCAName: String = "TLSLab Client CA", keyBits: Int = 2048,
                now: Int64 = PKIHierarchySpec.defaultNow, leafValidFrom: Int64 = -30 * 86_400, leafValidUntil: Int64 = 365 * 86_400,
                defect: PKIDefect = .none, wrongHostName: String = "unrelated.example.net") {
        self.seed = seed
        self.organization = organization
        self.rootName = rootName
        self.intermediateName = intermediateName
        self.serverHosts = serverHosts
        self.clientName = clientName
        self.clientCAName = clientCAName
        self.keyBits = keyBits
        self.now = now
        self.leafValidFrom = leafValidFrom
        self.leafValidUntil = leafValidUntil
        self.defect = defect
        self.wrongHostName = wrongHostName
    }

    /// The first server host (the name a client connects to).
    public var primaryHost: String { serverHosts.first ?? "example.com" }
}

/// The defect a hierarchy is built with, each a classic reason a client rejects a server
/// (or, for the renewals, a reason a pinning client may).
public enum PKIDefect: String, Sendable, Hashable, CaseIterable, Codable {
    /// A valid chain root → intermediate → leaf.
    case none
    /// The leaf's notAfter is before `now`.
    case expired
    /// The leaf's notBefore is after `now`.
    case notYetValid = "not-yet-valid"
    /// The leaf names `wrongHostName` only.
    case wrongHost = "wrong-host"
    /// The leaf is signed with sha1WithRSAEncryption.
    case sha1Signature = "sha1-signature"
    /// The leaf key is RSA-1024.
    case rsa1024Leaf = "rsa-1024-leaf"
    /// The server sends the leaf alone; the client only has the root.
    case missingIntermediate = "missing-intermediate"
    /// The leaf names the real intermediate as issuer but is signed by another key.
    case wrongIssuer = "wrong-issuer"
    /// The intermediate has basicConstraints CA:FALSE.
    case intermediateNotCA = "intermediate-not-ca"
    /// The intermediate has pathLen 0 yet issues a sub-CA, which issues the leaf.
    case pathLenExceeded = "pathlen-exceeded"
    /// The leaf's EKU is clientAuth only, and it is used as a server certificate.
    case clientAuthOnlyEKU = "client-auth-only-eku"
    /// The server sends a self-signed leaf (its own issuer).
    case selfSignedLeaf = "self-signed-leaf"
    /// The leaf was re-issued (new serial and dates) with the same key: `originalLeaf` is the old one.
    case renewedSameKey = "renewed-same-key"
    /// The leaf was re-issued with a new key: `originalLeaf` is the old one.
    case renewedNewKey = "renewed-new-key"

    /// The first check TLSLab's `ChainValidator` fails for this defect (server purpose, host =
    /// `primaryHost`, at `now`, anchors = the root); nil when the chain is valid.
    public var expectedFailure: ChainCheck.Kind? {
        switch self {
        case .none, .renewedSameKey, .renewedNewKey: return nil
        case .expired, .notYetValid: return .validity
        case .wrongHost: return .name
        case .sha1Signature, .rsa1024Leaf: return .algorithmStrength
        case .missingIntermediate, .selfSignedLeaf: return .anchor
        case .wrongIssuer: return .signature
        case .intermediateNotCA: return .caFlag
        case .pathLenExceeded: return .pathLength
        case .clientAuthOnlyEKU: return .extendedKeyUsage
        }
    }
}

/// Scenario files name a hierarchy with any subset of the spec's fields (camelCase keys, defect as
/// its raw value such as `wrong-host`); missing fields take the defaults of `PKIHierarchySpec.init`.
extension PKIHierarchySpec: Codable {
    enum CodingKeys: String, CodingKey {
        case seed, organization, rootName, intermediateName, serverHosts, clientName, clientCAName, keyBits, now
        case leafValidFrom, leafValidUntil, defect, wrongHostName, keyKinds
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = PKIHierarchySpec()
        self.init(seed: try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? d.seed,
                  organization: try c.decodeIfPresent(String.self, forKey: .organization) ?? d.organization,
                  rootName: try c.decodeIfPresent(String.self, forKey: .rootName) ?? d.rootName,
                  intermediateName: try c.decodeIfPresent(String.self, forKey: .intermediateName) ?? d.intermediateName,
                  serverHosts: try c.decodeIfPresent([String].self, forKey: .serverHosts) ?? d.serverHosts,
                  clientName: try c.decodeIfPresent(String.self, forKey: .clientName) ?? d.clientName,
                  clientCAName: try c.decodeIfPresent(String.self, forKey: .clientCAName) ?? d.clientCAName,
                  keyBits: try c.decodeIfPresent(Int.self, forKey: .keyBits) ?? d.keyBits,
                  now: try c.decodeIfPresent(Int64.self, forKey: .now) ?? d.now,
                  leafValidFrom: try c.decodeIfPresent(Int64.self, forKey: .leafValidFrom) ?? d.leafValidFrom,
                  leafValidUntil: try c.decodeIfPresent(Int64.self, forKey: .leafValidUntil) ?? d.leafValidUntil,
                  defect: try c.decodeIfPresent(PKIDefect.self, forKey: .defect) ?? d.defect,
                  wrongHostName: try c.decodeIfPresent(String.self, forKey: .wrongHostName) ?? d.wrongHostName)
        keyKinds = try c.decodeIfPresent(PKIKeyKinds.self, forKey: .keyKinds) ?? .allRSA
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(seed, forKey: .seed)
        try c.encode(organization, forKey: .organization)
        try c.encode(rootName, forKey: .rootName)
        try c.encode(intermediateName, forKey: .intermediateName)
        try c.encode(serverHosts, forKey: .serverHosts)
        try c.encode(clientName, forKey: .clientName)
        try c.encode(clientCAName, forKey: .clientCAName)
        try c.encode(keyBits, forKey: .keyBits)
        try c.encode(now, forKey: .now)
        try c.encode(leafValidFrom, forKey: .leafValidFrom)
        try c.encode(leafValidUntil, forKey: .leafValidUntil)
        try c.encode(defect, forKey: .defect)
        try c.encode(wrongHostName, forKey: .wrongHostName)
        // Absent for an all-RSA hierarchy, so specs written before EC keys read and write the same.
        if keyKinds != .allRSA { try c.encode(keyKinds, forKey: .keyKinds) }
    }
}
