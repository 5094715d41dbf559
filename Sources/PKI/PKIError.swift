import TLSCrypto

/// Typed errors of the PKI module: every malformed input ends here, never in a crash. The cases
/// carry facts (which field, which ASN.1 type, which rule); the catalogue words them (issue #34:
/// no parser English inside a Chinese sentence).
public enum PKIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not valid DER, or a structure of RFC 5280 §4.1 is not where it must be.
    case malformedCertificate(CertificateMalformation)
    /// A file or blob that holds no certificate at all (named by `source`).
    case notACertificate(source: String, reason: NotACertificate)
    /// A key TLSLab cannot make or sign with as asked: which kind, size or hash, as data.
    case unsupportedKey(UnsupportedKey)

    /// A debugging account in English (the catalogue words the error for readers).
    public var description: String {
        switch self {
        case .malformedCertificate(let m): return "malformed certificate: \(m)"
        case .notACertificate(let source, let reason): return "\(source): not a certificate (\(reason))"
        case .unsupportedKey(let why): return "unsupported key: \(why)"
        }
    }

    /// What is wrong in a certificate that did not parse (`X509Certificate(der:)` throws only `malformedCertificate`).
    var malformation: CertificateMalformation {
        switch self {
        case .malformedCertificate(let m), .notACertificate(_, .malformed(let m)), .notACertificate(_, .bundleMember(_, let m)): return m
        case .notACertificate, .unsupportedKey: return .derInvalid(code: "\(self)")
        }
    }
}

/// Why a file or blob holds no certificate TLSLab can read.
public enum NotACertificate: Equatable, Sendable {
    /// Text with `-----BEGIN` that is not PEM (RFC 7468 §2).
    case unreadablePEM
    /// PEM blocks, none of them CERTIFICATE; `labels` are the blocks' labels ("PRIVATE KEY").
    case noCertificateBlock(labels: [String])
    /// The `index`th CERTIFICATE block (from 1) of a bundle is malformed.
    case bundleMember(index: Int, CertificateMalformation)
    /// The bytes (DER, no PEM) are malformed.
    case malformed(CertificateMalformation)
}

/// What is wrong in a certificate's DER (X.690) or its structure (RFC 5280 §4.1, §4.2). `field` is
/// the ASN.1 name of the element (`TBSCertificate`, `signatureValue`), `type` an ASN.1 type name
/// (`SEQUENCE`, `INTEGER`): names that stay as they are in every language.
public enum CertificateMalformation: Equatable, Sendable, CustomStringConvertible {
    /// The DER ends inside an element (X.690 §8.1).
    case derTruncated
    /// A length that DER does not allow (X.690 §10.1: the shortest form; at most what follows).
    case derLength
    /// Not DER in another way (swift-asn1's error code `code`).
    case derInvalid(code: String)
    /// `field` is not of ASN.1 type `type`.
    case notOfType(field: String, type: String)
    /// `field` must be constructed (hold elements) and is primitive.
    case notConstructed(field: String)
    /// `field` must be primitive and holds elements.
    case notPrimitive(field: String)
    /// `field` has another number of elements than its definition.
    case wrongElementCount(field: String)
    /// `field` is empty where its definition requires at least one element.
    case empty(field: String)
    /// `field`'s content is not a valid encoding of `type` (an OID, a BIT STRING, a UTCTime…).
    case badEncoding(field: String, type: String)
    /// `field`'s INTEGER is larger than TLSLab reads (over 4 octets, or negative).
    case integerOutOfRange(field: String)
    /// An element tagged [`tag`] where `field` allows none (nil: a tag of another class).
    case unexpectedTag(field: String, tag: UInt?)
    /// `field`'s BIT STRING has unused bits where it must have none.
    case unusedBits(field: String)
    /// `field` appears twice (an extension's OID, a NameConstraints subtree list).
    case twice(field: String)
    /// `field` is missing.
    case missing(field: String)
    /// `field` is present where its definition says it must be absent.
    case mustBeAbsent(field: String)
    /// A version other than v1, v2 or v3 (RFC 5280 §4.1.2.1).
    case unsupportedVersion(Int)
    /// Extensions in a v1 or v2 certificate (RFC 5280 §4.1.2.9: v3 only).
    case extensionsBeforeV3(version: Int)
    /// `field`'s value breaks its rule (a zero modulus, a negative salt length, a mask that is no prefix).
    case invalidValue(field: String)

    public var description: String {
        switch self {
        case .derTruncated: return "DER: truncated"
        case .derLength: return "DER: bad length"
        case .derInvalid(let code): return "DER: \(code)"
        case let .notOfType(field, type): return "\(field) is not \(type)"
        case .notConstructed(let field): return "\(field) is not constructed"
        case .notPrimitive(let field): return "\(field) is not primitive"
        case .wrongElementCount(let field): return "\(field) arity"
        case .empty(let field): return "empty \(field)"
        case let .badEncoding(field, type): return "\(field): bad \(type)"
        case .integerOutOfRange(let field): return "\(field): integer out of range"
        case let .unexpectedTag(field, tag): return "\(field): unexpected tag" + (tag.map { " [\($0)]" } ?? "")
        case .unusedBits(let field): return "\(field) has unused bits"
        case .twice(let field): return "\(field) twice"
        case .missing(let field): return "\(field) missing"
        case .mustBeAbsent(let field): return "\(field) must be absent"
        case .unsupportedVersion(let v): return "unsupported version \(v)"
        case .extensionsBeforeV3(let v): return "extensions in a v\(v) certificate"
        case .invalidValue(let field): return "invalid \(field)"
        }
    }
}

extension NotACertificate: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreadablePEM: return "unreadable PEM"
        case .noCertificateBlock(let labels): return "PEM holds \(labels.isEmpty ? "nothing" : labels.joined(separator: ", ")), no CERTIFICATE"
        case let .bundleMember(index, m): return "certificate \(index) of the bundle: \(m)"
        case .malformed(let m): return "\(m)"
        }
    }
}

/// Why TLSLab cannot make or sign with a key as asked (`PKIError.unsupportedKey`): the key kinds are
/// a lesson file's names (`rsa`, `p-256`, `ed25519`), the hashes TLSLab's (`sha1`).
public enum UnsupportedKey: Equatable, Sendable {
    /// An RSA key of `bits` cannot be generated for the certificate `label` (sizes 512…4096, even).
    case rsaKeySize(bits: Int, label: String)
    /// The key of `kind` for the certificate `label` could not be generated.
    case generationFailed(kind: PKIKeyKind, label: String)
    /// TLSLab signs certificates with RSA or ECDSA keys, not Ed25519 ones.
    case ed25519Signer
    /// The issuer's key of `kind` did not produce a signature.
    case signingFailed(issuer: PKIKeyKind)
    /// No sha*WithRSAEncryption algorithm for `hash` (RFC 4055 §5 names SHA-1 and the SHA-2 family).
    case noRSASignatureAlgorithm(hash: HashAlgorithm)
    /// An ECDSA certificate signature with `hash`: TLSLab signs with the curve's SHA-2 hash (RFC 5758 §3.2).
    case ecdsaHash(HashAlgorithm)
    /// The rsa-1024-leaf defect needs an RSA leaf key; the file asks for `leaf`.
    case weakRSALeafNeedsRSA(leaf: PKIKeyKind)
    /// The sha1-signature defect signs the leaf with sha1WithRSAEncryption, so the intermediate
    /// (its issuer) needs an RSA key; the file asks for `intermediate`.
    case sha1SignatureNeedsRSAIssuer(intermediate: PKIKeyKind)
}
