import Crypto

/// The TLS pseudorandom function, selected by protocol version and cipher suite.
///
/// - TLS 1.2 (RFC 5246 §5): `PRF(secret, label, seed) = P_<hash>(secret, label + seed)` with the
///   suite's PRF hash, SHA-256 for every suite RFC 5246 defines and SHA-384 for the `_SHA384` suites
///   (RFC 5289 §3).
/// - TLS 1.0/1.1 (RFC 2246 §5, RFC 4346 §5): the secret is split into two halves S1, S2 (sharing
///   the middle byte when its length is odd) and
///   `PRF = P_MD5(S1, label + seed) XOR P_SHA-1(S2, label + seed)`.
public enum TLSPRF: String, Sendable, Hashable, CaseIterable {
    /// TLS 1.0/1.1: MD5 ⊕ SHA-1.
    case tls10
    /// TLS 1.2 with P_SHA256.
    case sha256
    /// TLS 1.2 with P_SHA384.
    case sha384

    /// `PRF(secret, label, seed)` truncated to `count` bytes (RFC 5246 §5). The label is ASCII,
    /// without a length byte or trailing NUL.
    public func derive(secret: [UInt8], label: String, seed: [UInt8], count: Int) -> [UInt8] {
        derive(secret: secret, labelAndSeed: Array(label.utf8) + seed, count: count)
    }

    /// The PRF over an already-joined `label + seed`.
    public func derive(secret: [UInt8], labelAndSeed: [UInt8], count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        switch self {
        case .sha256:
            return Self.pHash(SHA256.self, secret: secret, seed: labelAndSeed, count: count)
        case .sha384:
            return Self.pHash(SHA384.self, secret: secret, seed: labelAndSeed, count: count)
        case .tls10:
            // RFC 2246 §5: L_S = length in bytes of secret; L_S1 = L_S2 = ceil(L_S / 2).
            let half = (secret.count + 1) / 2
            let s1 = Array(secret.prefix(half))
            let s2 = Array(secret.suffix(half))
            let md5 = Self.pHash(Insecure.MD5.self, secret: s1, seed: labelAndSeed, count: count)
            let sha1 = Self.pHash(Insecure.SHA1.self, secret: s2, seed: labelAndSeed, count: count)
            return zip(md5, sha1).map { $0 ^ $1 }
        }
    }

    /// The data expansion function (RFC 5246 §5):
    ///
    ///     P_hash(secret, seed) = HMAC_hash(secret, A(1) + seed) +
    ///                            HMAC_hash(secret, A(2) + seed) + …
    ///     A(0) = seed,  A(i) = HMAC_hash(secret, A(i-1))
    ///
    /// iterated as far as needed and truncated to `count` bytes.
    public static func pHash<H: HashFunction>(_ hash: H.Type, secret: [UInt8], seed: [UInt8], count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        let key = SymmetricKey(data: secret)
        var out = [UInt8]()
        out.reserveCapacity(count + H.Digest.byteCount)
        var a = seed
        while out.count < count {
            a = Array(HMAC<H>.authenticationCode(for: a, using: key))
            out += Array(HMAC<H>.authenticationCode(for: a + seed, using: key))
        }
        return Array(out.prefix(count))
    }

    /// The hash the handshake transcript uses with this PRF (RFC 5246 §7.4.9: the PRF's hash in
    /// TLS 1.2; RFC 2246 §7.4.9: MD5 ‖ SHA-1 in TLS 1.0/1.1).
    public var transcriptHashLength: Int {
        switch self {
        case .tls10: return 16 + 20
        case .sha256: return 32
        case .sha384: return 48
        }
    }
}
