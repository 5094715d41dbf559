/// Typed errors of the PKI module: every malformed input ends here, never in a crash.
public enum PKIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not valid DER, or a structure of RFC 5280 §4.1 is not where it must be.
    case malformedCertificate(String)
    /// A file or blob that holds no certificate at all (named by `source`).
    case notACertificate(source: String, detail: String)
    /// A public key that cannot be used for the requested operation.
    case unsupportedKey(String)

    public var description: String {
        switch self {
        case .malformedCertificate(let detail): return "malformed certificate: \(detail)"
        case .notACertificate(let source, let detail): return "\(source): not a certificate (\(detail))"
        case .unsupportedKey(let detail): return "unsupported public key: \(detail)"
        }
    }
}
