import SwiftASN1
import TLSCrypto

/// A certificate's signatureAlgorithm (RFC 5280 §4.1.1.2; OIDs from RFC 4055, RFC 5758, RFC 8410).
public enum SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
    case rsaPKCS1v15(HashAlgorithm)
    /// RSASSA-PSS with its parameters (RFC 4055 §3.1): hash, MGF1 hash, salt length.
    case rsaPSS(RSAPSSParameters)
    case ecdsa(HashAlgorithm)
    case ed25519
    /// id-RSASSA-PSS with parameters TLSLab cannot verify with (RFC 4055 §3.1), as data.
    case rsaPSSUnusable(RSAPSSParameters.Unsupported)
    /// An OID TLSLab does not know as a signature algorithm.
    case unknown(oid: String)

    /// The hash that digests the TBSCertificate, when there is one.
    public var hash: HashAlgorithm? {
        switch self {
        case .rsaPKCS1v15(let h), .ecdsa(let h): return h
        case .rsaPSS(let p): return p.hash
        case .ed25519, .rsaPSSUnusable, .unknown: return nil
        }
    }

    public var description: String {
        switch self {
        // The ASN.1 names of the OIDs: sha256WithRSAEncryption (RFC 4055 §5, RFC 8017 Appendix C),
        // ecdsa-with-SHA256 (RFC 5758 §3.2); md5WithRSAEncryption and sha1WithRSAEncryption (RFC 3279 §2.2.1).
        case .rsaPKCS1v15(let h): return "\(Self.asn1Name(h))WithRSAEncryption"
        case .rsaPSS(let p): return "RSASSA-PSS(\(p))"
        case .ecdsa(let h): return "ecdsa-with-\(Self.asn1Name(h).uppercased())"
        case .ed25519: return "Ed25519"
        case .rsaPSSUnusable(let why): return "RSASSA-PSS(\(why))"
        case .unknown(let oid): return "unknown(\(oid))"
        }
    }

    /// A hash as the OID names spell it: md5, sha1, sha256, sha384, sha512.
    static func asn1Name(_ h: HashAlgorithm) -> String {
        "\(h)".lowercased().replacing("-", with: "")
    }

    init(node: ASN1Node) throws(PKIError) {
        let parts = try DERWalker.sequence(node, "AlgorithmIdentifier")
        guard let first = parts.first else { throw .malformedCertificate(.empty(field: "AlgorithmIdentifier")) }
        let oid = try DERWalker.oid(first, "signature algorithm")
        switch oid {
        case "1.2.840.113549.1.1.4": self = .rsaPKCS1v15(.md5)
        case "1.2.840.113549.1.1.5": self = .rsaPKCS1v15(.sha1)
        case "1.2.840.113549.1.1.11": self = .rsaPKCS1v15(.sha256)
        case "1.2.840.113549.1.1.12": self = .rsaPKCS1v15(.sha384)
        case "1.2.840.113549.1.1.13": self = .rsaPKCS1v15(.sha512)
        case "1.2.840.10045.4.1": self = .ecdsa(.sha1)
        case "1.2.840.10045.4.3.2": self = .ecdsa(.sha256)
        case "1.2.840.10045.4.3.3": self = .ecdsa(.sha384)
        case "1.2.840.10045.4.3.4": self = .ecdsa(.sha512)
        case "1.3.101.112": self = .ed25519
        case "1.2.840.113549.1.1.10":
            self = try SignatureAlgorithm.pssParameters(parts.count > 1 ? parts[1] : nil)
        default: self = .unknown(oid: oid)
        }
    }

    static func hashOID(_ oid: String) -> HashAlgorithm? {
        switch oid {
        case "1.3.14.3.2.26": return .sha1
        case "2.16.840.1.101.3.4.2.1": return .sha256
        case "2.16.840.1.101.3.4.2.2": return .sha384
        case "2.16.840.1.101.3.4.2.3": return .sha512
        default: return nil
        }
    }

    /// RSASSA-PSS-params (RFC 4055 §3.1): [0] hashAlgorithm (default SHA-1), [1] maskGenAlgorithm
    /// (default MGF1 with SHA-1, whatever [0] says), [2] saltLength (default 20), [3] trailerField (1).
    /// Parameters we cannot verify with (another MGF, an unknown hash) give `.rsaPSSUnusable` with
    /// the reason as data, so the certificate still parses and its signature check fails with it.
    static func pssParameters(_ node: ASN1Node?) throws(PKIError) -> SignatureAlgorithm {
        do {
            return .rsaPSS(try RSAPSSParameters.parse(node))
        } catch let error as PKIError {
            throw error
        } catch let why as RSAPSSParameters.Unsupported {
            return .rsaPSSUnusable(why)
        } catch {
            throw .malformedCertificate(.invalidValue(field: "RSASSA-PSS-params"))
        }
    }
}
