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

/// Which anchors an evaluation uses: the system set, an app's explicit set, or both
/// (`SecTrustSetAnchorCertificates` + `SecTrustSetAnchorCertificatesOnly`).
public struct AnchorSelection: Sendable, Hashable {
    public var system: TrustStore
    public var custom: TrustStore?
    /// With custom anchors set, true (Apple's default after SecTrustSetAnchorCertificates) ignores the system set.
    public var anchorsOnly: Bool

    public init(system: TrustStore, custom: TrustStore? = nil, anchorsOnly: Bool = true) {
        self.system = system
        self.custom = custom
        self.anchorsOnly = anchorsOnly
    }

    /// The stores consulted, custom first.
    public var stores: [TrustStore] {
        guard let custom else { return [system] }
        return anchorsOnly ? [custom] : [custom, system]
    }

    /// The same selection with explicit anchors replaced (AFSecurityPolicy's certificate mode does this).
    public func withAnchors(_ anchors: [X509Certificate], name: String, only: Bool = true) -> AnchorSelection {
        AnchorSelection(system: system, custom: TrustStore(name: name, anchors: anchors), anchorsOnly: only)
    }
}
