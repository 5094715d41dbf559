import TLSCrypto

/// Why a certificate or key compiled into TLSLab (the demo PKI, the attacker's certificate) does not
/// load: a fault of the build, never of a user's file. `label` is the certificate's name as lessons
/// write it (`demo-root`, `demo-leaf`, `attacker`); the catalogue words the rest (issue #34).
public enum BuiltInPKIFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The certificate's PEM does not parse.
    case certificate(label: String, PKIError)
    /// The PEM holds no CERTIFICATE block.
    case noCertificate(label: String)
    /// The private key's PEM does not parse or its numbers are not a key.
    case key(label: String, RSAError)
    /// No P-256 key could be generated for the demo client certificate (tls13-client-auth).
    case clientKey(ECDSAError)
    /// The demo client certificate could not be built and signed by the demo root.
    case clientCertificate(PKIError)

    /// A debugging account in English (the catalogue words the failure for readers).
    public var description: String {
        switch self {
        case let .certificate(label, error): return "\(label): \(error)"
        case .noCertificate(let label): return "\(label): no certificate"
        case let .key(label, error): return "\(label) key: \(error)"
        case .clientKey(let error): return "client key: \(error)"
        case .clientCertificate(let error): return "client certificate: \(error)"
        }
    }

    /// The certificate parsed from `pem`, or the failure naming `label`.
    public static func loadCertificate(_ pem: String, label: String) throws(BuiltInPKIFailure) -> X509Certificate {
        let all: [X509Certificate]
        do throws(PKIError) { all = try X509Certificate.parseAll(Array(pem.utf8), source: label) } catch { throw .certificate(label: label, error) }
        guard let first = all.first else { throw .noCertificate(label: label) }
        return first
    }

    /// The RSA private key parsed from `pem`, or the failure naming `label`.
    public static func loadRSAKey(_ pem: String, label: String) throws(BuiltInPKIFailure) -> RSAPrivateKey {
        do throws(RSAError) { return try RSAPrivateKey(pem: pem) } catch { throw .key(label: label, error) }
    }
}
