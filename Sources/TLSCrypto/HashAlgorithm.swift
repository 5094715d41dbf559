import Foundation
import Crypto

/// A hash function used by the crypto core: digests for RSA signatures (RFC 8017 §9.2), MGF1 and
/// PSS (RFC 8017 §B.2.1, §9.1), and the TLS PRF. The hash functions themselves are swift-crypto's.
public enum HashAlgorithm: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case md5, sha1, sha256, sha384, sha512

    /// The digest of `message`.
    public func digest<Bytes: DataProtocol>(_ message: Bytes) -> [UInt8] {
        switch self {
        case .md5: return Array(Insecure.MD5.hash(data: message))
        case .sha1: return Array(Insecure.SHA1.hash(data: message))
        case .sha256: return Array(SHA256.hash(data: message))
        case .sha384: return Array(SHA384.hash(data: message))
        case .sha512: return Array(SHA512.hash(data: message))
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

    /// The DER of `DigestInfo ::= SEQUENCE { digestAlgorithm AlgorithmIdentifier, digest OCTET STRING }`
    /// up to (not including) the digest bytes, with NULL parameters: RFC 8017 §9.2, note 1.
    /// MD5 is included for completeness (RFC 8017 lists it); TLS 1.2 never signs with it.
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

    /// The algorithm's object identifier, dotted (RFC 8017 Appendix A.2.4).
    public var objectIdentifier: String {
        switch self {
        case .md5: return "1.2.840.113549.2.5"
        case .sha1: return "1.3.14.3.2.26"
        case .sha256: return "2.16.840.1.101.3.4.2.1"
        case .sha384: return "2.16.840.1.101.3.4.2.2"
        case .sha512: return "2.16.840.1.101.3.4.2.3"
        }
    }

    /// `DigestInfo` for `digest` (RFC 8017 §9.2 step 2).
    public func digestInfo(digest: [UInt8]) -> [UInt8] { digestInfoPrefix + digest }

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
