/// A set of trust anchors (RFC 5280 §6.1.1 d). The simulated "system" root set is one of these;
/// an app's explicit anchors (the `SecTrustSetAnchorCertificates` pattern of seeds 003/004) are another.
public struct TrustStore: Sendable, Hashable {
    public let name: TrustStoreName
    public let anchors: [X509Certificate]
    /// Anchors the user explicitly trusted: a chain ending here evaluates to `.proceed`, not `.unspecified`.
    public let userConfirmed: Bool

    public init(name: TrustStoreName, anchors: [X509Certificate], userConfirmed: Bool = false) {
        self.name = name
        self.anchors = anchors
        self.userConfirmed = userConfirmed
    }

    public static func system(_ roots: [X509Certificate]) -> TrustStore { TrustStore(name: .systemRoots, anchors: roots) }

    public func contains(_ certificate: X509Certificate) -> Bool { anchors.contains { $0.der == certificate.der } }
}

/// Which set of anchors a store is: the renderers word it from their catalogue.
public enum TrustStoreName: Sendable, Hashable {
    /// The (simulated) operating system's root certificates.
    case systemRoots
    /// An app's own anchors (`SecTrustSetAnchorCertificates`).
    case appAnchors
    /// AFSecurityPolicy's pinned certificates, used as the only anchors (AFNetworking's certificate mode).
    case pinnedCertificates
    /// Certificates bundled with the app, set as anchors by its challenge delegate.
    case bundledCertificates
    /// The CAs a server accepts client certificates from (mutual TLS).
    case clientCAs
    /// Anchors read from the file the user named (`--ca`, `--client-ca`).
    case file(String)
    /// No anchors were given (`connect` without `--ca`).
    case noAnchors
}
