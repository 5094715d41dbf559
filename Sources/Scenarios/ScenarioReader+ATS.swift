import Foundation
import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Yams

/// The `ats` section: an Info.plist NSAppTransportSecurity dictionary and the connection it governs.
extension ScenarioReader {
    // MARK: - ATS

    static let atsVersionNames = ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
    static let atsVersions: [String: ATSPolicy.TLSVersion] = ["TLSv1.0": .tls10, "TLSv1.1": .tls11, "TLSv1.2": .tls12, "TLSv1.3": .tls13]

    /// An Info.plist NSAppTransportSecurity dictionary.
    func atsPolicy(_ value: YAMLValue, certs: [String: NamedCertificate]) throws(ScenarioError) -> ATSPolicy {
        let a = try value.mapping(["NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsInWebContent",
                                                 "NSAllowsArbitraryLoadsForMedia", "NSAllowsLocalNetworking",
                                                 "NSExceptionDomains", "NSPinnedDomains"])
        var policy = ATSPolicy(allowsArbitraryLoads: try a["NSAllowsArbitraryLoads"]?.bool(),
                               allowsArbitraryLoadsInWebContent: try a["NSAllowsArbitraryLoadsInWebContent"]?.bool(),
                               allowsArbitraryLoadsForMedia: try a["NSAllowsArbitraryLoadsForMedia"]?.bool(),
                               allowsLocalNetworking: try a["NSAllowsLocalNetworking"]?.bool())
        if let d = a["NSExceptionDomains"] {
            guard case .mapping(let map) = d.node else { throw d.expectedError(.init("a mapping of domain names", "scenario.expected.domainMapping")) }
            for (k, v) in map {
                let domain = try YAMLValue(node: k, path: d.path, file: file).name()
                let entry = YAMLValue(node: v, path: "\(d.path).\(domain)", file: file)
                let e = try entry.mapping(["NSIncludesSubdomains", "NSExceptionAllowsInsecureHTTPLoads",
                                           "NSExceptionMinimumTLSVersion", "NSExceptionRequiresForwardSecrecy"])
                policy.exceptionDomains[domain] = ATSPolicy.ExceptionDomain(
                    includesSubdomains: try e["NSIncludesSubdomains"]?.bool() ?? false,
                    allowsInsecureHTTPLoads: try e["NSExceptionAllowsInsecureHTTPLoads"]?.bool(),
                    minimumTLSVersion: try e["NSExceptionMinimumTLSVersion"].map { v throws(ScenarioError) in Self.atsVersions[try v.oneOf(Self.atsVersionNames)] ?? .tls12 },
                    requiresForwardSecrecy: try e["NSExceptionRequiresForwardSecrecy"]?.bool())
            }
        }
        if let d = a["NSPinnedDomains"] {
            guard case .mapping(let map) = d.node else { throw d.expectedError(.init("a mapping of domain names", "scenario.expected.domainMapping")) }
            for (k, v) in map {
                let domain = try YAMLValue(node: k, path: d.path, file: file).name()
                let entry = YAMLValue(node: v, path: "\(d.path).\(domain)", file: file)
                let e = try entry.mapping(["NSIncludesSubdomains", "NSPinnedLeafIdentities", "NSPinnedCAIdentities"])
                func pins(_ key: String) throws(ScenarioError) -> [String]? {
                    guard let v = e[key] else { return nil }
                    return try certificateNames(v, certs).compactMap { certs[$0].map { Pins.publicKeyPin($0.certificate) } }
                }
                policy.pinnedDomains[domain] = ATSPolicy.PinnedDomain(includesSubdomains: try e["NSIncludesSubdomains"]?.bool() ?? false,
                                                                      leafIdentities: try pins("NSPinnedLeafIdentities"),
                                                                      caIdentities: try pins("NSPinnedCAIdentities"))
            }
        }
        return policy
    }


    func atsWorld(_ top: YAMLMapping) throws(ScenarioError) -> ATSWorld {
        let pki = try pkiWorld(top)
        let certs = pki.certificates
        let now = pki.now
        var trust = pki.trust
        if let c = top["client"] {
            let m = try c.mapping(["trust"])
            trust = try m["trust"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? trust
        }
        let policy = try atsPolicy(try top.required("ats", .init("an NSAppTransportSecurity dictionary (a mapping)", "scenario.expected.atsDictionary")), certs: certs)
        let c = try top.required("connection", .init("a mapping with host, scheme, tls_version, forward_secret, load, chain", "scenario.expected.mappingWithKeys", ["list": "host, scheme, tls_version, forward_secret, load, chain"])).mapping(["host", "scheme", "tls_version", "forward_secret", "load", "chain"])
        let host = try c.required("host", .init("a host name", "scenario.expected.hostName")).hostName()
        let scheme = try c["scheme"]?.oneOf(["https", "http"]) ?? "https"
        let version = try c["tls_version"].map { v throws(ScenarioError) in Self.atsVersions[try v.oneOf(Self.atsVersionNames)] ?? .tls12 } ?? .tls12
        let fs = try c["forward_secret"]?.bool() ?? true
        let load = ATSPolicy.LoadKind(rawValue: try c["load"]?.oneOf(["app", "webContent", "media"]) ?? "app") ?? .app
        let chain = try c["chain"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? pki.serverChain
        if scheme == "http", c.has("tls_version") || c.has("chain") {
            throw c.keyError(c.has("tls_version") ? "tls_version" : "chain", "contradiction: a plain http connection has no TLS version or certificate chain", "scenario.ats.plainHTTP")
        }
        return ATSWorld(policy: policy, host: host, usesHTTPS: scheme == "https", tlsVersion: version, forwardSecret: fs,
                        loadKind: load, chain: chain, now: now, certificates: certs, trustStore: trust)
    }
}
