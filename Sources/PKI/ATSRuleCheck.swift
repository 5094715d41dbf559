/// One rule App Transport Security applied to a connection, in the order it applied it, as facts:
/// which rule, how it came out, the values it compared and the Info.plist key that relaxes it.
/// ``ATSPolicy/evaluate(_:)`` records these beside its reasons; renderers word them.
public struct ATSRuleCheck: Sendable, Hashable {
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// An NSExceptionDomains entry covers the host (`domain`; `viaSubdomains`): global keys are not inherited.
        case exceptionDomain
        /// NSAllowsArbitraryLoads YES is ignored because a more specific global key is present (iOS 10+).
        case arbitraryLoadsIgnored
        /// A global exemption switches ATS off for this load (`key`; for local networking `host`).
        case exemption
        /// No exception applies: ATS's defaults hold.
        case defaults
        /// The URL's scheme: http:// needs an exception.
        case https
        /// The negotiated TLS version against the minimum (`version`, `minimum`).
        case minimumVersion
        /// A forward-secret suite: ATS counts only ECDHE as one.
        case forwardSecrecy
        /// The leaf key's size (`algorithm`, `bits`): RSA ≥ 2048 or EC ≥ 256.
        case keySize
        /// Every presented certificate signed with SHA-256 or better (`subject`, `hash` of the first that is not).
        case signatureHash
        /// The system's default trust evaluation (`result`; its first failing check is ``ATSRuleCheck/firstFailure``).
        case defaultTrust
        /// NSPinnedLeafIdentities / NSPinnedCAIdentities of NSPinnedDomains[`domain`] (`subject` of the matching CA).
        case pinnedLeaf, pinnedCA
    }

    public enum Result: String, Sendable, Hashable {
        /// The rule holds.
        case passed
        /// The rule fails and ATS blocks the load.
        case failed
        /// The rule would fail or would be checked, but a key (`relaxedBy`) lifts it.
        case relaxed
        /// A fact that decides which rules follow (an exception domain, an exemption, the defaults).
        case applies
    }

    public var rule: Rule
    public var result: Result
    /// The values the rule compared, by name (version names, bit counts, host and domain names).
    public var values: [String: String]
    /// The Info.plist key that lifts (or lifted) the rule, as a path of keys; empty when none does.
    public var relaxedBy: [String]
    /// The default trust evaluation's first failing check (rule `defaultTrust`), typed: renderers word it.
    public var firstFailure: ChainCheck?

    public init(_ rule: Rule, _ result: Result, _ values: [String: String] = [:], relaxedBy: [String] = [],
                firstFailure: ChainCheck? = nil) {
        self.rule = rule
        self.result = result
        self.values = values
        self.relaxedBy = relaxedBy
        self.firstFailure = firstFailure
    }

    /// Hashes the facts other than the chain check (whose signature record is Equatable only).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        hasher.combine(result)
        hasher.combine(values)
        hasher.combine(relaxedBy)
    }
}
