/// A set of trust anchors (RFC 5280 §6.1.1 d). The simulated "system" root set is one of these;
/// an app's explicit anchors (the `SecTrustSetAnchorCertificates` pattern of seeds 003/004) are another.
public struct TrustStore: Sendable, Hashable {
    public let name: String
    public let anchors: [X509Certificate]
    /// Anchors the user explicitly trusted: a chain ending here evaluates to `.proceed`, not `.unspecified`.
    public let userConfirmed: Bool

    public init(name: String, anchors: [X509Certificate], userConfirmed: Bool = false) {
        self.name = name
        self.anchors = anchors
        self.userConfirmed = userConfirmed
    }

    public static func system(_ roots: [X509Certificate]) -> TrustStore { TrustStore(name: "system roots", anchors: roots) }

    public func contains(_ certificate: X509Certificate) -> Bool { anchors.contains { $0.der == certificate.der } }
}
