import Foundation
import PKI
import HTTP2
import Trace
import Trust
import TLSCrypto
import TLSEngine

/// A certificate or key file that could not be used, or an ATS policy that leaves nothing to offer:
/// typed, so the command line words it in its language (`cli.peerFile.*`).
public enum PeerFileError: Error, Sendable, Equatable {
    /// The file does not exist or is not UTF-8 text (PEM is text).
    case cannotRead(path: String)
    /// The PEM text does not parse as certificates.
    case certificates(path: String, PKIError)
    /// A PEM file with no CERTIFICATE block.
    case noCertificate(path: String)
    /// The key file holds no private key TLSLab can read: why, as a fact.
    case privateKey(path: String, PrivateKeyProblem)
    /// The chain's first certificate carries a key TLSLab cannot sign or verify with.
    case unsupportedLeafKey(path: String)
    /// The private key is not the leaf certificate's key.
    case keyDoesNotMatch(key: String, certificate: String)
    /// ATS plans per URL; the host does not make one.
    case atsNotAURL(String)
    /// ATS leaves no suite to offer: it requires forward secrecy and none of the offered suites has it.
    case atsNoForwardSecretSuite(host: String)
}

/// Why a key file holds no private key TLSLab can use, read off the PEM blocks' labels (RFC 7468 §2).
public enum PrivateKeyProblem: Error, Sendable, Equatable {
    /// No PEM block at all (no `-----BEGIN` line).
    case noPEM
    /// An ENCRYPTED PRIVATE KEY (RFC 5958 §3): TLSLab reads unencrypted keys only.
    case encrypted
    /// PEM blocks, none of them a private key; `labels` are theirs ("CERTIFICATE").
    case notAPrivateKey(labels: [String])
    /// An EC key on a curve TLSLab does not sign with.
    case unsupportedCurve
    /// A private-key block (`label`: PRIVATE KEY, RSA PRIVATE KEY, EC PRIVATE KEY) whose contents are
    /// no RSA (RFC 8017 Appendix A.1.2), EC (RFC 5915 §3) or Ed25519 (RFC 8410 §7) key.
    case malformed(label: String)

    /// The labels that hold a private key, unencrypted.
    static let keyLabels = ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"]

    /// The problem of PEM text that `SigningKey(pem:)` refused.
    init(pem text: String) {
        let labels = text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let line = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 else { return nil }
            return String(line.dropFirst(11).dropLast(5))
        }
        if labels.isEmpty {
            self = .noPEM
        } else if labels.contains("ENCRYPTED PRIVATE KEY") {
            self = .encrypted
        } else if let label = labels.first(where: Self.keyLabels.contains) {
            if label != "RSA PRIVATE KEY", case .unsupportedCurve? = Self.ecError(text) {
                self = .unsupportedCurve
            } else {
                self = .malformed(label: label)
            }
        } else {
            self = .notAPrivateKey(labels: labels)
        }
    }

    private static func ecError(_ text: String) -> ECDSAError? {
        do { _ = try ECDSAPrivateKey(pem: text); return nil } catch { return error }
    }
}

/// Certificates and keys as OpenSSL writes them: PEM chains (leaf first), PKCS#1 or PKCS#8 RSA keys, and
/// SEC 1 or PKCS#8 EC keys (P-256, P-384).
public enum PeerFiles {
    public static func certificates(at path: String) throws(PeerFileError) -> [X509Certificate] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .cannotRead(path: path) }
        let certificates: [X509Certificate]
        do { certificates = try X509Certificate.parsePEM(text, source: path) } catch {
            throw .certificates(path: path, error)
        }
        guard !certificates.isEmpty else { throw .noCertificate(path: path) }
        return certificates
    }

    public static func privateKey(at path: String) throws(PeerFileError) -> SigningKey {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .cannotRead(path: path) }
        do { return try SigningKey(pem: text) } catch { throw .privateKey(path: path, PrivateKeyProblem(pem: text)) }
    }

    /// A chain file and its leaf's key; checks that they belong together.
    public static func identity(certificate: String, key: String) throws(PeerFileError) -> TLSIdentity {
        let chain = try certificates(at: certificate)
        let privateKey = try privateKey(at: key)
        guard let leafKey = VerificationKey(subjectPublicKeyInfoDER: chain[0].publicKey.der) else {
            throw .unsupportedLeafKey(path: certificate)
        }
        guard leafKey == privateKey.publicKey else {
            throw .keyDoesNotMatch(key: key, certificate: certificate)
        }
        return TLSIdentity(certificateChain: chain.map(\.der), key: privateKey)
    }

    /// The evaluator of the default policy: the chain must reach one of `anchors`, be valid now, and
    /// (for a server) name the host — the simulation's ``ChainTrustEvaluator`` at the wall-clock time.
    public static func chainEvaluator(anchors: [X509Certificate], storeName: TrustStoreName) -> ChainTrustEvaluator {
        ChainTrustEvaluator(anchors: AnchorSelection(system: TrustStore(name: storeName, anchors: anchors)),
                            time: Int64(Date().timeIntervalSince1970))
    }
}

/// Any chain whose leaf has an RSA or EC key is accepted, unchecked: for tests and tools that only drive
/// bytes at a server, never for trust (`connect --policy none` goes through ``RealTrust`` instead).
public struct AcceptAnyCertificate: PeerCertificateEvaluator {
    public init() {}

    public func evaluate(chain: [[UInt8]], role: TLSRole, serverName: String?) -> CertificateDecision {
        guard let first = chain.first else { return .reject(.noCertificate, reason: .noCertificate(sentBy: role)) }
        let certificate: X509Certificate
        do { certificate = try X509Certificate(der: first) } catch {
            return .reject(.unparsable, reason: .unparsable(index: 0, error: error))
        }
        guard let key = VerificationKey(subjectPublicKeyInfoDER: certificate.publicKey.der) else {
            return .reject(.unsupportedKey, reason: .unsupportedKey(key: "\(certificate.publicKey.kind)"))
        }
        return .accept(leafPublicKey: key, summary: .notChecked(subject: "\(certificate.subject)"))
    }
}

/// Cipher suite names as IANA and as OpenSSL spell them.
public enum SuiteNames {
    public static let openSSL: [String: CipherSuite] = [
        "AES128-SHA": .TLS_RSA_WITH_AES_128_CBC_SHA,
        "AES128-GCM-SHA256": .TLS_RSA_WITH_AES_128_GCM_SHA256,
        "AES256-GCM-SHA384": .TLS_RSA_WITH_AES_256_GCM_SHA384,
        "DHE-RSA-AES128-GCM-SHA256": .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256,
        "DHE-RSA-AES128-SHA256": .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256,
        "ECDHE-RSA-AES128-GCM-SHA256": .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        "ECDHE-RSA-AES256-GCM-SHA384": .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        "DHE-RSA-AES128-SHA": .TLS_DHE_RSA_WITH_AES_128_CBC_SHA,
        "AES256-SHA": .TLS_RSA_WITH_AES_256_CBC_SHA,
        "DHE-RSA-AES256-SHA": .TLS_DHE_RSA_WITH_AES_256_CBC_SHA,
        "AES128-SHA256": .TLS_RSA_WITH_AES_128_CBC_SHA256,
        "AES256-SHA256": .TLS_RSA_WITH_AES_256_CBC_SHA256,
        "DHE-RSA-AES256-SHA256": .TLS_DHE_RSA_WITH_AES_256_CBC_SHA256,
        "ECDHE-RSA-AES128-SHA": .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
        "ECDHE-RSA-AES256-SHA": .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
        "ECDHE-RSA-AES128-SHA256": .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256,
        "ECDHE-RSA-AES256-SHA384": .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384,
        "ECDHE-ECDSA-AES128-GCM-SHA256": .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        "ECDHE-ECDSA-AES256-GCM-SHA384": .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        "ECDHE-ECDSA-AES128-SHA256": .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,
        "ECDHE-ECDSA-AES256-SHA384": .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384,
        "ECDHE-ECDSA-AES128-SHA": .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
        "ECDHE-ECDSA-AES256-SHA": .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,
        "DHE-RSA-AES256-GCM-SHA384": .TLS_DHE_RSA_WITH_AES_256_GCM_SHA384,
        "ECDHE-RSA-CHACHA20-POLY1305": .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        "ECDHE-ECDSA-CHACHA20-POLY1305": .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
        "DHE-RSA-CHACHA20-POLY1305": .TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    /// The implemented suite called `name` (IANA `TLS_…` or OpenSSL), or nil.
    public static func suite(named name: String) -> CipherSuite? {
        if let s = openSSL[name.uppercased()] { return s }
        return CipherSuite.allImplementedWithECDSA.first { $0.name == name.uppercased() }
    }

    /// The TLS 1.3 suite called `name` (its IANA name, which OpenSSL uses too), or nil.
    public static func tls13Suite(named name: String) -> TLS13CipherSuite? {
        TLS13CipherSuite.allCases.first { $0.name == name.uppercased() }
    }

    /// Every name `--suite` takes: the TLS 1.2 suites, then the TLS 1.3 ones.
    public static var known: String {
        (CipherSuite.allImplementedWithECDSA.compactMap(\.name) + TLS13CipherSuite.allCases.map(\.name))
            .joined(separator: ", ")
    }
}
