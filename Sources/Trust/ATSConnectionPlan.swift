import PKI
import TLSEngine

/// ATS's pre-connection part for one URL: whether the load may start at all (http:// blocked),
/// and the restrictions it puts on the TLS client (minimum version, forward-secret suites only).
/// The certificate part is `PolicyTrustEvaluator` with `ats` set.
public struct ATSConnectionPlan: Sendable {
    public let url: String
    public let host: String
    public let usesHTTPS: Bool
    public let requirements: ATSPolicy.Requirements
    /// False when ATS refuses the load before any connection (an http:// URL without an exception).
    public let allowed: Bool
    /// The reasons, in order, ending with the verdict.
    public let reasons: [ATSReason]

    public enum PlanError: Error, Equatable, CustomStringConvertible {
        case notAURL(String)
        public var description: String {
            switch self { case .notAURL(let text): return "\(text) is not an http:// or https:// URL" }
        }
    }

    /// The plan for `url` (`https://host[:port]/…` or `http://…`) under `ats`.
    public init(ats: ATSPolicy, url: String, loadKind: ATSPolicy.LoadKind = .app) throws(PlanError) {
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { usesHTTPS = true; rest = url.dropFirst(8) }
        else if lower.hasPrefix("http://") { usesHTTPS = false; rest = url.dropFirst(7) }
        else { throw .notAURL(url) }
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let hostText: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .notAURL(url) }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            hostText = authority.prefix { $0 != ":" }
        }
        guard !hostText.isEmpty else { throw .notAURL(url) }
        self.url = url
        host = String(hostText)
        let (requirements, reasons) = ats.requirements(host: host, loadKind: loadKind)
        self.requirements = requirements
        var all = reasons
        if usesHTTPS {
            allowed = true
            all.append(.planHTTPS(minimum: requirements.minimumTLSVersion, forwardSecretOnly: requirements.requiresForwardSecrecy))
        } else {
            allowed = requirements.allowsHTTP
            all.append(allowed ? .planHTTPAllowed : .planHTTPBlocked)
        }
        self.reasons = all
    }

    /// `configuration` restricted to what ATS accepts: minimum version raised, non-forward-secret suites removed.
    public func restrict(_ configuration: TLSClientConfiguration) -> TLSClientConfiguration {
        var restricted = configuration
        let minimum = ProtocolVersion(rawValue: UInt16(requirements.minimumTLSVersion.rawValue))
        if restricted.minimumVersion.rawValue < minimum.rawValue { restricted.minimumVersion = minimum }
        if restricted.maximumVersion.rawValue < restricted.minimumVersion.rawValue { restricted.maximumVersion = restricted.minimumVersion }
        if requirements.requiresForwardSecrecy {
            restricted.cipherSuites = configuration.cipherSuites.filter { $0.parameters?.isForwardSecret == true }
        }
        return restricted
    }
}
