import Crypto

/// The hash functions RSA signatures and the TLS 1.2 `SignatureAndHashAlgorithm` name
/// (RFC 5246 §7.4.1.4.1). Digests come from swift-crypto; MD5 and SHA-1 only for the teaching cases
/// and so that policies can reject them.
public enum HashAlgorithm: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case md5, sha1, sha256, sha384, sha512

    /// The digest of `data`.
    public func digest(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .md5: return Array(Insecure.MD5.hash(data: data))
        case .sha1: return Array(Insecure.SHA1.hash(data: data))
        case .sha256: return Array(SHA256.hash(data: data))
        case .sha384: return Array(SHA384.hash(data: data))
        case .sha512: return Array(SHA512.hash(data: data))
        }
    }

    /// Output length in bytes.
    public var digestLength: Int {
        switch self {
        case .md5: return 16
        case .sha1: return 20
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// The DER of `DigestInfo` up to (not including) the digest itself, with the NULL
    /// parameters present — RFC 8017 §9.2, note 1. The full DigestInfo is `prefix ‖ digest`.
    public var digestInfoPrefix: [UInt8] {
        switch self {
        case .md5:
            return [0x30, 0x20, 0x30, 0x0c, 0x06, 0x08, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x05,
                    0x05, 0x00, 0x04, 0x10]
        case .sha1:
            return [0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14]
        case .sha256:
            return [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01,
                    0x05, 0x00, 0x04, 0x20]
        case .sha384:
            return [0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02,
                    0x05, 0x00, 0x04, 0x30]
        case .sha512:
            return [0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03,
                    0x05, 0x00, 0x04, 0x40]
        }
    }

    /// `DigestInfo` for `digest` (RFC 8017 §9.2 step 2).
    public func digestInfo(digest: [UInt8]) -> [UInt8] { digestInfoPrefix + digest }

    /// The algorithm's object identifier, dotted (RFC 8017 Appendix A.2.4; RFC 1321 for MD5).
    public var oid: String {
        switch self {
        case .md5: return "1.2.840.113549.2.5"
        case .sha1: return "1.3.14.3.2.26"
        case .sha256: return "2.16.840.1.101.3.4.2.1"
        case .sha384: return "2.16.840.1.101.3.4.2.2"
        case .sha512: return "2.16.840.1.101.3.4.2.3"
        }
    }

    /// The hash an object identifier names, if it is one of ours.
    public init?(oid: String) {
        guard let match = HashAlgorithm.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = match
    }

    public var description: String {
        switch self {
        case .md5: return "MD5"
        case .sha1: return "SHA-1"
        case .sha256: return "SHA-256"
        case .sha384: return "SHA-384"
        case .sha512: return "SHA-512"
        }
    }
}
