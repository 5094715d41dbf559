/// `NSURLSessionAuthChallengeDisposition`.
public enum ChallengeDisposition: String, Sendable, Hashable, CaseIterable {
    /// Use the supplied credential (for server trust: accept this server).
    case useCredential
    /// Let the system decide (for server trust: the default SSL evaluation with the host).
    case performDefaultHandling
    /// Cancel: the connection fails.
    case cancelAuthenticationChallenge
    /// Reject this protection space; the next method is tried (for TLS: the connection fails).
    case rejectProtectionSpace
}
