/// The hash of the TLS 1.2 PRF (RFC 5246 §5; SHA-384 for the `_SHA384` suites, RFC 5288 §3).
public enum PRFHash: String, Sendable, Hashable, CaseIterable {
    case sha256 = "SHA256"
    case sha384 = "SHA384"

    public var digestLength: Int { self == .sha256 ? 32 : 48 }
}
