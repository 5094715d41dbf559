/// Outcome of a trust evaluation in Apple's vocabulary (`SecTrustResultType`).
public enum TrustResult: String, Sendable, Hashable, CaseIterable {
    /// Valid, and the user explicitly trusted the anchor.
    case proceed
    /// Valid, with no explicit user setting (the usual success).
    case unspecified
    /// Invalid, but the user could choose to trust it (expired, wrong host, unknown anchor, …).
    case recoverableTrustFailure
    /// Invalid in a way nobody may override (bad signature, unknown critical extension).
    case fatalTrustFailure

    /// AFNetworking's `AFServerTrustIsValid`: Unspecified or Proceed.
    public var isValid: Bool { self == .proceed || self == .unspecified }
}
