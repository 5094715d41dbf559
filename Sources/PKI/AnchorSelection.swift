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
    public func withAnchors(_ anchors: [X509Certificate], name: TrustStoreName, only: Bool = true) -> AnchorSelection {
        AnchorSelection(system: system, custom: TrustStore(name: name, anchors: anchors), anchorsOnly: only)
    }
}
