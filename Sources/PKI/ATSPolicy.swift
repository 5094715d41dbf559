import TLSCrypto

/// App Transport Security (seeds 001, 004; Apple's Information Property List reference,
/// NSAppTransportSecurity). Inputs about the negotiated connection are plain values so PKI does
/// not depend on the TLS engine.
public struct ATSPolicy: Sendable {
    /// TLS protocol versions ATS names (`TLSv1.0` … `TLSv1.3`).
    public enum TLSVersion: Int, Sendable, Hashable, Comparable, CaseIterable {
        case tls10 = 0x0301, tls11 = 0x0302, tls12 = 0x0303, tls13 = 0x0304
        public static func < (a: TLSVersion, b: TLSVersion) -> Bool { a.rawValue < b.rawValue }
        public var name: String { ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"][rawValue - 0x0301] }
    }

    /// What kind of load this is (the per-kind global keys apply to them).
    public enum LoadKind: String, Sendable, Hashable { case app, webContent, media }

    /// One NSExceptionDomains entry. Keys left nil take ATS defaults, never the global keys.
    public struct ExceptionDomain: Sendable, Hashable {
        public var includesSubdomains = false
        public var allowsInsecureHTTPLoads: Bool?
        public var minimumTLSVersion: TLSVersion?
        public var requiresForwardSecrecy: Bool?
        public init(includesSubdomains: Bool = false, allowsInsecureHTTPLoads: Bool? = nil,
                    minimumTLSVersion: TLSVersion? = nil, requiresForwardSecrecy: Bool? = nil) {
            self.includesSubdomains = includesSubdomains
            self.allowsInsecureHTTPLoads = allowsInsecureHTTPLoads
            self.minimumTLSVersion = minimumTLSVersion
            self.requiresForwardSecrecy = requiresForwardSecrecy
        }
    }

    /// One NSPinnedDomains entry; identities are SPKI-SHA256-BASE64 strings.
    public struct PinnedDomain: Sendable, Hashable {
        public var includesSubdomains = false
        public var leafIdentities: [String]?
        public var caIdentities: [String]?
        public init(includesSubdomains: Bool = false, leafIdentities: [String]? = nil, caIdentities: [String]? = nil) {
            self.includesSubdomains = includesSubdomains
            self.leafIdentities = leafIdentities
            self.caIdentities = caIdentities
        }
    }

    /// The connection being judged.
    public struct Connection: Sendable {
        public var host: String
        public var usesHTTPS: Bool
        public var tlsVersion: TLSVersion
        /// The negotiated suite is forward secret (for ATS: ECDHE).
        public var forwardSecret: Bool
        public var loadKind: LoadKind
        public var trust: ServerTrust?
        public init(host: String, usesHTTPS: Bool = true, tlsVersion: TLSVersion = .tls12, forwardSecret: Bool = true,
                    loadKind: LoadKind = .app, trust: ServerTrust?) {
            self.host = host
            self.usesHTTPS = usesHTTPS
            self.tlsVersion = tlsVersion
            self.forwardSecret = forwardSecret
            self.loadKind = loadKind
            self.trust = trust
        }
    }

    public var allowsArbitraryLoads: Bool?
    public var allowsArbitraryLoadsInWebContent: Bool?
    public var allowsArbitraryLoadsForMedia: Bool?
    public var allowsLocalNetworking: Bool?
    public var exceptionDomains: [String: ExceptionDomain]
    public var pinnedDomains: [String: PinnedDomain]

    public init(allowsArbitraryLoads: Bool? = nil, allowsArbitraryLoadsInWebContent: Bool? = nil,
                allowsArbitraryLoadsForMedia: Bool? = nil, allowsLocalNetworking: Bool? = nil,
                exceptionDomains: [String: ExceptionDomain] = [:], pinnedDomains: [String: PinnedDomain] = [:]) {
        self.allowsArbitraryLoads = allowsArbitraryLoads
        self.allowsArbitraryLoadsInWebContent = allowsArbitraryLoadsInWebContent
        self.allowsArbitraryLoadsForMedia = allowsArbitraryLoadsForMedia
        self.allowsLocalNetworking = allowsLocalNetworking
        self.exceptionDomains = exceptionDomains
        self.pinnedDomains = pinnedDomains
    }

    /// The most specific entry covering `host`: exact name, or a parent domain with NSIncludesSubdomains.
    static func lookup<T>(_ host: String, in table: [String: T], includes: (T) -> Bool) -> (String, T)? {
        let name = host.lowercased()
        var best: (String, T)?
        for (domain, entry) in table {
            let d = domain.lowercased()
            let hit = name == d || (includes(entry) && name.hasSuffix("." + d))
            if hit, best.map({ d.count > $0.0.count }) ?? true { best = (d, entry) }
        }
        return best
    }

    static func isLocal(_ host: String) -> Bool {
        if case .ip = HostnameMatcher.Reference(host) { return true }
        let name = host.lowercased()
        return !name.contains(".") || name.hasSuffix(".local")
    }

    /// What ATS demands of a connection to one host, before any byte is sent.
    public struct Requirements: Sendable, Hashable {
        /// http:// loads allowed (NSAllowsArbitraryLoads…, NSExceptionAllowsInsecureHTTPLoads).
        public var allowsHTTP: Bool
        /// The lowest TLS version ATS accepts.
        public var minimumTLSVersion: TLSVersion
        /// Only forward-secret (ECDHE) suites; when false the RSA ≥ 2048 / EC ≥ 256 key rule is dropped too.
        public var requiresForwardSecrecy: Bool
        /// Trust failures are left to the app (NSExceptionAllowsInsecureHTTPLoads, or ATS off).
        public var loosenedTrust: Bool
        /// ATS is off for this load: no certificate rules at all.
        public var everythingAllowed: Bool
    }

    /// The requirements for `host` and the reasons they follow from, in order.
    public func requirements(host: String, loadKind: LoadKind = .app) -> (Requirements, [ATSReason]) {
        let (requirements, reasons, _) = requirementsChecked(host: host, loadKind: loadKind)
        return (requirements, reasons)
    }

    /// The requirements for `host`, the reasons they follow from and the same steps as rule checks.
    func requirementsChecked(host: String, loadKind: LoadKind) -> (Requirements, [ATSReason], [ATSRuleCheck]) {
        var reasons: [ATSReason] = []
        var checks: [ATSRuleCheck] = []
        var allowsHTTP = false
        var minimum = TLSVersion.tls12
        var requiresFS = true
        var loosenedTrust = false
        var everythingAllowed = false

        if let (domain, entry) = Self.lookup(host, in: exceptionDomains, includes: { $0.includesSubdomains }) {
            let viaSubdomains = domain != host.lowercased()
            reasons.append(.exceptionDomain(domain: domain, viaSubdomains: viaSubdomains))
            checks.append(ATSRuleCheck(.exceptionDomain, .applies, ["domain": domain, "viaSubdomains": "\(viaSubdomains)"]))
            allowsHTTP = entry.allowsInsecureHTTPLoads ?? false
            loosenedTrust = allowsHTTP
            minimum = entry.minimumTLSVersion ?? .tls12
            requiresFS = entry.requiresForwardSecrecy ?? true
        } else {
            let specific = [allowsArbitraryLoadsInWebContent, allowsArbitraryLoadsForMedia, allowsLocalNetworking].contains { $0 != nil }
            func exempt(_ key: String, _ values: [String: String] = [:]) {
                everythingAllowed = true
                checks.append(ATSRuleCheck(.exemption, .applies, values.merging(["key": key]) { a, _ in a }))
            }
            if allowsArbitraryLoads == true {
                if specific {
                    reasons.append(.arbitraryLoadsIgnored)
                    checks.append(ATSRuleCheck(.arbitraryLoadsIgnored, .applies))
                } else {
                    exempt("NSAllowsArbitraryLoads")
                    reasons.append(.arbitraryLoads)
                }
            }
            if loadKind == .webContent && allowsArbitraryLoadsInWebContent == true {
                exempt("NSAllowsArbitraryLoadsInWebContent")
                reasons.append(.webContentExempt)
            }
            if loadKind == .media && allowsArbitraryLoadsForMedia == true {
                exempt("NSAllowsArbitraryLoadsForMedia")
                reasons.append(.mediaExempt)
            }
            if allowsLocalNetworking == true && Self.isLocal(host) {
                exempt("NSAllowsLocalNetworking", ["host": host])
                reasons.append(.localNetworkingExempt(host: host))
            }
            if everythingAllowed { allowsHTTP = true; requiresFS = false; minimum = .tls10; loosenedTrust = true }
            else {
                reasons.append(.defaults)
                checks.append(ATSRuleCheck(.defaults, .applies))
            }
        }
        return (Requirements(allowsHTTP: allowsHTTP, minimumTLSVersion: minimum, requiresForwardSecrecy: requiresFS,
                             loosenedTrust: loosenedTrust, everythingAllowed: everythingAllowed), reasons, checks)
    }

    /// Does ATS let this connection through? Reasons in order, and the same steps as rule checks
    /// (``PolicyDecision/atsChecks``), each with the key that would relax a failed rule.
    public func evaluate(_ connection: Connection) -> PolicyDecision {
        let host = connection.host
        let (requirements, initialReasons, initialChecks) = self.requirementsChecked(host: host, loadKind: connection.loadKind)
        var reasons = initialReasons.map(TrustReason.ats)
        var checks = initialChecks
        let allowsHTTP = requirements.allowsHTTP
        let minimum = requirements.minimumTLSVersion
        let requiresFS = requirements.requiresForwardSecrecy
        let loosenedTrust = requirements.loosenedTrust
        let everythingAllowed = requirements.everythingAllowed
        // The exception entry a relaxing key would go into: the one that applies, else one for the host.
        let domain = Self.lookup(host, in: exceptionDomains, includes: { $0.includesSubdomains })?.0 ?? host.lowercased()
        // When a global exemption switched ATS off for this load (NSAllowsArbitraryLoads…), that key is
        // what lifts every rule that follows, not an exception-domain key the Info.plist does not hold.
        let exemption = initialChecks.first { $0.rule == .exemption }?.values["key"]
        func key(_ name: String) -> [String] { exemption.map { [$0] } ?? ["NSExceptionDomains", domain, name] }

        guard connection.usesHTTPS else {
            reasons.append(.ats(allowsHTTP ? .httpAllowed : .httpBlocked))
            checks.append(ATSRuleCheck(.https, allowsHTTP ? .relaxed : .failed, ["host": host], relaxedBy: key("NSExceptionAllowsInsecureHTTPLoads")))
            return PolicyDecision(accepted: allowsHTTP, reasons: reasons, atsChecks: checks)
        }
        checks.append(ATSRuleCheck(.https, .passed, ["host": host]))
        func reject(_ why: ATSReason, _ check: ATSRuleCheck) -> PolicyDecision {
            reasons.append(.ats(why))
            checks.append(check)
            return PolicyDecision(accepted: false, reasons: reasons, atsChecks: checks)
        }
        let versions = ["version": connection.tlsVersion.name, "minimum": minimum.name]
        if connection.tlsVersion < minimum {
            return reject(.versionBelowMinimum(version: connection.tlsVersion, minimum: minimum),
                          ATSRuleCheck(.minimumVersion, .failed, versions, relaxedBy: key("NSExceptionMinimumTLSVersion")))
        }
        reasons.append(.ats(.versionMeetsMinimum(version: connection.tlsVersion, minimum: minimum)))
        checks.append(ATSRuleCheck(.minimumVersion, minimum < .tls12 && connection.tlsVersion < .tls12 ? .relaxed : .passed, versions,
                                   relaxedBy: key("NSExceptionMinimumTLSVersion")))
        let fs = ["forwardSecret": "\(connection.forwardSecret)"]
        if requiresFS {
            guard connection.forwardSecret else {
                return reject(.notForwardSecret,
                              ATSRuleCheck(.forwardSecrecy, .failed, fs, relaxedBy: key("NSExceptionRequiresForwardSecrecy")))
            }
            reasons.append(.ats(.forwardSecret))
            checks.append(ATSRuleCheck(.forwardSecrecy, .passed, fs))
        } else if !everythingAllowed {
            reasons.append(.ats(.forwardSecrecyNotRequired))
            checks.append(ATSRuleCheck(.forwardSecrecy, .relaxed, fs, relaxedBy: key("NSExceptionRequiresForwardSecrecy")))
        }
        guard let trust = connection.trust else {
            return reject(.noServerCertificate, ATSRuleCheck(.defaultTrust, .failed, ["result": "noCertificate"]))
        }
        var evaluation: ChainValidationResult?
        if !everythingAllowed {
            let leaf = trust.presented.first
            if let key = leaf?.publicKey {
                let isRSA = key.kind == .rsa || key.kind == .rsaPSS
                let strong = isRSA ? key.keyBits >= 2048 : key.keyBits >= 256
                let values = ["algorithm": "\(key.kind)", "bits": "\(key.keyBits)"]
                if requiresFS {
                    guard strong else {
                        return reject(.keyTooSmall(key: "\(key.kind)", bits: key.keyBits),
                                      ATSRuleCheck(.keySize, .failed, values, relaxedBy: self.key(domain, "NSExceptionRequiresForwardSecrecy")))
                    }
                    reasons.append(.ats(.keySize(key: "\(key.kind)", bits: key.keyBits)))
                    checks.append(ATSRuleCheck(.keySize, .passed, values))
                } else {
                    checks.append(ATSRuleCheck(.keySize, strong ? .passed : .relaxed, values,
                                               relaxedBy: self.key(domain, "NSExceptionRequiresForwardSecrecy")))
                }
            }
            for cert in trust.presented where !(trust.anchors.stores.contains { $0.contains(cert) }) {
                if let hash = cert.signatureAlgorithm.hash, hash == .sha1 || hash == .md5 {
                    return reject(.weakSignatureHash(subject: "\(cert.subject)", hash: "\(hash)"),
                                  ATSRuleCheck(.signatureHash, .failed, ["subject": "\(cert.subject)", "hash": "\(hash)"],
                                               relaxedBy: ["NSAllowsArbitraryLoads"]))
                }
            }
            reasons.append(.ats(.signaturesStrong))
            checks.append(ATSRuleCheck(.signatureHash, .passed))
            // The trust's own default evaluation when it was made for this host (it is: one evaluation per decision).
            let result = trust.evaluate(.sslServer(host: host))
            evaluation = result
            let values = ["result": result.result.rawValue]
            if !result.isValid {
                if loosenedTrust {
                    reasons.append(.ats(.defaultTrustLoosened(EvaluationSummary(result))))
                    checks.append(ATSRuleCheck(.defaultTrust, .relaxed, values, relaxedBy: key("NSExceptionAllowsInsecureHTTPLoads"),
                                               firstFailure: result.firstFailure))
                } else {
                    return reject(.defaultTrustFails(EvaluationSummary(result)),
                                  ATSRuleCheck(.defaultTrust, .failed, values, relaxedBy: key("NSExceptionAllowsInsecureHTTPLoads"),
                                               firstFailure: result.firstFailure))
                }
            } else {
                reasons.append(.ats(.defaultTrustPasses(result.result)))
                checks.append(ATSRuleCheck(.defaultTrust, .passed, values, firstFailure: result.firstFailure))
            }
        }
        if let (pinned, pins) = Self.lookup(host, in: pinnedDomains, includes: { $0.includesSubdomains }) {
            let chain = evaluation?.path.isEmpty == false ? (evaluation?.path ?? []) : trust.presented
            if let leafPins = pins.leafIdentities {
                guard let leaf = chain.first, leafPins.contains(Pins.publicKeyPin(leaf)) else {
                    return reject(.pinnedLeafMismatch(domain: pinned),
                                  ATSRuleCheck(.pinnedLeaf, .failed, ["domain": pinned],
                                               relaxedBy: ["NSPinnedDomains", pinned, "NSPinnedLeafIdentities"]))
                }
                reasons.append(.ats(.pinnedLeafMatches))
                checks.append(ATSRuleCheck(.pinnedLeaf, .passed, ["domain": pinned]))
            }
            if let caPins = pins.caIdentities {
                guard let ca = chain.dropFirst().first(where: { caPins.contains(Pins.publicKeyPin($0)) }) else {
                    return reject(.pinnedCAMismatch(domain: pinned),
                                  ATSRuleCheck(.pinnedCA, .failed, ["domain": pinned],
                                               relaxedBy: ["NSPinnedDomains", pinned, "NSPinnedCAIdentities"]))
                }
                reasons.append(.ats(.pinnedCAMatches(subject: "\(ca.subject)")))
                checks.append(ATSRuleCheck(.pinnedCA, .passed, ["domain": pinned, "subject": "\(ca.subject)"]))
            }
        }
        reasons.append(.ats(.allowed))
        return PolicyDecision(accepted: true, reasons: reasons, evaluation: evaluation, atsChecks: checks)
    }

    func key(_ domain: String, _ name: String) -> [String] { ["NSExceptionDomains", domain, name] }
}
