import TLSEngine

/// What HTTP/2 asks of the TLS connection under it (RFC 9113 §9.2).
public enum HTTP2OverTLS {
    /// Why a TLS connection is not good enough for HTTP/2 (RFC 9113 §9.2, §9.2.2), nil when it is:
    /// a version below TLS 1.2 first, then a suite on the prohibited list.
    public static func inadequateSecurity(version: ProtocolVersion?, suite: CipherSuite?) -> HTTP2TLSProblem? {
        if let version, version.rawValue < ProtocolVersion.tls12.rawValue {
            return .versionBelowTLS12(version)
        }
        guard let suite, let parameters = suite.parameters, !(parameters.isForwardSecret && parameters.isAEAD) else { return nil }
        return .prohibitedSuite(suite, forwardSecret: parameters.isForwardSecret)
    }

    /// RFC 9113 §9.2.2 as a server's ALPN strategy: when RFC 7301's choice is h2 but the connection
    /// is one HTTP/2 prohibits (TLS below 1.2, a TLS 1.2 suite without an ephemeral key exchange or
    /// without an AEAD cipher), choose instead the next protocol the server speaks that the client
    /// offered (by the server's rule), rather than choose h2 and then refuse it with
    /// INADEQUATE_SECURITY. With no alternative offered, h2 stays, and the HTTP/2 layer's
    /// INADEQUATE_SECURITY says why it cannot be used.
    public static let applicationProtocolStrategy: ApplicationProtocolStrategy = { situation in
        guard situation.choice == .h2, inadequateSecurity(version: situation.version, suite: situation.suite) != nil else {
            return situation.choice
        }
        return situation.selection.select(offered: situation.offered.filter { $0 != .h2 },
                                          supported: situation.supported.filter { $0 != .h2 }) ?? .h2
    }
}

