import Foundation
import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Yams

/// The client's trust policy (`client.policy`).
extension ScenarioReader {
    static let clientKeys = ["host", "suites", "min_version", "max_version", "ems", "min_dh_bits", "trust", "anchors", "anchors_only", "policy", "ats", "identity", "alpn",
                             "groups", "key_share", "versions", "early_data"]
    static let policyKinds = ["system", "afnetworking", "challenge_mode", "web_container", "image_downloader", "bundled_anchor"]

    func policy(_ value: YAMLValue, _ certs: [String: NamedCertificate]) throws(ScenarioError) -> ClientPolicy {
        let kinds = Self.policyKinds
        let m = try value.mapping(kinds)
        guard m.keys.count == 1, let kind = m.keys.first, let body = m[kind] else {
            throw value.error("expected exactly one policy, one of: \(kinds.joined(separator: ", ")); got \(m.keys.count)", "scenario.policy.exactlyOne", ["list": kinds.joined(separator: ", "), "count": "\(m.keys.count)"])
        }
        switch kind {
        case "afnetworking":
            let a = try body.mapping(["mode", "pinned", "allow_invalid", "validates_domain", "version"])
            let mode = AFSecurityPolicy.PinningMode(rawValue: try a.required("mode", .oneOf(["none", "publicKey", "certificate"])).oneOf(AFSecurityPolicy.PinningMode.allCases.map(\.rawValue))) ?? .none
            let pinned = try a["pinned"].map { v throws(ScenarioError) in try certificateNames(v, certs) } ?? []
            let allowInvalid = try a["allow_invalid"]?.bool() ?? false
            // Absent: the release's default (YES from 2.5.3 on; NO for mode none in 2.5.1 and 2.5.2).
            let validatesDomain = try a["validates_domain"]?.bool()
            let versions = ["current": AFSecurityPolicy.Behaviour.current, "2.5.1": .v2_5_1, "2.5.2": .v2_5_2]
            let behaviour = try a["version"].map { v throws(ScenarioError) in versions[try v.oneOf(["current", "2.5.1", "2.5.2"])] ?? .current } ?? .current
            if mode == .none, !pinned.isEmpty {
                throw a.keyError("pinned", "contradiction: AFNetworking ignores pinnedCertificates in mode none (AFSSLPinningModeNone never compares them); use mode certificate or publicKey, or drop pinned", "scenario.policy.pinnedInModeNone")
            }
            if mode != .none, a.has("pinned"), pinned.isEmpty {
                throw a.keyError("pinned", "contradiction: mode \(mode.rawValue) with an empty pinned list rejects every server; name at least one certificate", "scenario.policy.emptyPinned", ["mode": mode.rawValue])
            }
            let policy = AFSecurityPolicy(mode: mode, pinnedCertificates: pinned.compactMap { certs[$0]?.certificate.der },
                                          allowInvalidCertificates: allowInvalid, validatesDomainName: validatesDomain,
                                          behaviour: behaviour)
            return .afnetworking(policy, pinnedNames: pinned)
        case "challenge_mode":
            let s = try body.mapping(["mode"])
            return .challengeMode(ChallengeHandlingPolicies.ChallengeMode(rawValue: try s.required("mode", .oneOf(["none", "simple", "full"])).oneOf(["none", "simple", "full"])) ?? .full)
        case "image_downloader":
            let s = try body.mapping(["allow_invalid"])
            return .imageDownloader(allowInvalid: try s["allow_invalid"]?.bool() ?? false)
        case "bundled_anchor":
            let b = try body.mapping(["certificates", "anchors_only"])
            let names = try certificateNames(try b.required("certificates", .init("a list of certificate names the app bundles", "scenario.expected.bundledCertificates")), certs)
            if names.isEmpty {
                throw b.keyError("certificates", "contradiction: an empty anchor list makes SecTrustEvaluate fail for every server; name at least one certificate", "scenario.policy.emptyAnchors")
            }
            return .bundledAnchor(names: names, anchorsOnly: try b["anchors_only"]?.bool() ?? true)
        case "web_container":
            _ = try body.isNull ? nil : body.mapping([])
            return .webContainer
        default:
            _ = try body.isNull ? nil : body.mapping([])
            return .system
        }
    }
}
