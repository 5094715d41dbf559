import TLSCrypto

/// RFC 5246 §7.4.1.4.1:
/// `struct { HashAlgorithm hash; SignatureAlgorithm signature; } SignatureAndHashAlgorithm;`
///
/// The same two bytes as a `SignatureScheme`; TLSLab stores `SignatureScheme` in messages and uses
/// this type to show the TLS 1.2 reading of a value.
public struct SignatureAndHashAlgorithm: TLSCodable, Hashable, CustomStringConvertible {
    public var hash: Hash
    public var signature: Signature

    public init(hash: Hash, signature: Signature) {
        self.hash = hash
        self.signature = signature
    }

    /// The same two bytes read as a TLS 1.3-style scheme.
    public var scheme: SignatureScheme {
        SignatureScheme(rawValue: UInt16(hash.rawValue) << 8 | UInt16(signature.rawValue))
    }

    public var description: String { "{hash: \(hash), signature: \(signature)}" }

    public func encode(to writer: inout ByteWriter) {
        hash.encode(to: &writer)
        signature.encode(to: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        hash = try Hash(from: &reader)
        signature = try Signature(from: &reader)
    }
}

extension SignatureAndHashAlgorithm {
    /// RFC 5246 §7.4.1.4.1: `enum { none(0), md5(1), sha1(2), sha224(3), sha256(4), sha384(5), sha512(6), (255) } HashAlgorithm;`
    /// (intrinsic(8), RFC 8446 §4.2.3, marks the SignatureScheme values with no separate hash byte).
    public struct Hash: CodePoint {
        public static var registry: CodePointRegistry { .hashAlgorithm }
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let none = Hash(rawValue: 0)
        public static let md5 = Hash(rawValue: 1)
        public static let sha1 = Hash(rawValue: 2)
        public static let sha224 = Hash(rawValue: 3)
        public static let sha256 = Hash(rawValue: 4)
        public static let sha384 = Hash(rawValue: 5)
        public static let sha512 = Hash(rawValue: 6)
        public static let intrinsic = Hash(rawValue: 8)

        public static let names: [UInt8: String] = [
            0: "none",
            1: "md5",
            2: "sha1",
            3: "sha224",
            4: "sha256",
            5: "sha384",
            6: "sha512",
            8: "intrinsic",
        ]
    }

    /// RFC 5246 §7.4.1.4.1: `enum { anonymous(0), rsa(1), dsa(2), ecdsa(3), (255) } SignatureAlgorithm;`
    /// (ed25519(7) and ed448(8) from RFC 8422 for display).
    public struct Signature: CodePoint {
        public static var registry: CodePointRegistry { .signatureAlgorithm }
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let anonymous = Signature(rawValue: 0)
        public static let rsa = Signature(rawValue: 1)
        public static let dsa = Signature(rawValue: 2)
        public static let ecdsa = Signature(rawValue: 3)
        public static let ed25519 = Signature(rawValue: 7)
        public static let ed448 = Signature(rawValue: 8)

        public static let names: [UInt8: String] = [
            0: "anonymous",
            1: "rsa",
            2: "dsa",
            3: "ecdsa",
            7: "ed25519",
            8: "ed448",
        ]
    }
}

extension SignatureAndHashAlgorithm.Hash {
    /// The hash function this code names, when TLSLab computes it (the one `HashAlgorithm`, in TLSCrypto).
    public var function: HashAlgorithm? {
        switch self {
        case .md5: return .md5
        case .sha1: return .sha1
        case .sha256: return .sha256
        case .sha384: return .sha384
        case .sha512: return .sha512
        default: return nil
        }
    }
}
