import PKI
import Trace

extension ScenarioRunner {
    /// Runs a `kind: ats` world: ATS judges the described connection. The trace holds the plan
    /// (URL, Info.plist, what was negotiated), each rule in the order ATS applied it, and the verdict.
    static func runATS(_ w: ATSWorld) -> ScenarioRun {
        var trust: ServerTrust?
        if w.usesHTTPS {
            trust = ServerTrust(presented: w.chain.compactMap { w.certificates[$0]?.certificate },
                                anchors: AnchorSelection(system: TrustStore.system(w.trustStore.compactMap { w.certificates[$0]?.certificate })),
                                time: w.now, host: w.host)
        }
        let decision = w.policy.evaluate(ATSPolicy.Connection(host: w.host, usesHTTPS: w.usesHTTPS, tlsVersion: w.tlsVersion,
                                                              forwardSecret: w.forwardSecret, loadKind: w.loadKind, trust: trust))
        let plan = ATSPlan(url: "\(w.usesHTTPS ? "https" : "http")://\(w.host)/", host: w.host, usesHTTPS: w.usesHTTPS,
                           load: w.loadKind.rawValue, tlsVersion: w.tlsVersion.name, forwardSecret: w.forwardSecret,
                           chain: w.usesHTTPS ? w.chain : [], settings: settings(w.policy))
        var events = [TraceEvent(time: 0, actor: .client, kind: .lesson(.atsPlan(plan)))]
        events += decision.atsChecks.map { TraceEvent(time: 0, actor: .client, kind: .lesson(.atsRule($0))) }
        events.append(TraceEvent(time: 0, actor: .client, kind: .lesson(.atsVerdict(allowed: decision.accepted))))
        return ScenarioRun(facts: ["ats": .string(decision.accepted ? "allowed" : "blocked"),
                                   "reason_includes": .list(decision.reasons.map(\.identifier))],
                           trace: Trace(events: events), verdict: nil, reasons: decision.reasons)
    }

    /// The NSAppTransportSecurity dictionary as key paths and values, in a stable order.
    static func settings(_ p: ATSPolicy) -> [ATSPlan.Setting] {
        var out: [ATSPlan.Setting] = []
        func yesNo(_ b: Bool) -> String { b ? "YES" : "NO" }
        func add(_ path: [String], _ value: Bool?) { if let value { out.append(.init(path: path, value: yesNo(value))) } }
        add(["NSAllowsArbitraryLoads"], p.allowsArbitraryLoads)
        add(["NSAllowsArbitraryLoadsInWebContent"], p.allowsArbitraryLoadsInWebContent)
        add(["NSAllowsArbitraryLoadsForMedia"], p.allowsArbitraryLoadsForMedia)
        add(["NSAllowsLocalNetworking"], p.allowsLocalNetworking)
        for (domain, e) in p.exceptionDomains.sorted(by: { $0.key < $1.key }) {
            let base = ["NSExceptionDomains", domain]
            if e.includesSubdomains { add(base + ["NSIncludesSubdomains"], true) }
            add(base + ["NSExceptionAllowsInsecureHTTPLoads"], e.allowsInsecureHTTPLoads)
            if let v = e.minimumTLSVersion { out.append(.init(path: base + ["NSExceptionMinimumTLSVersion"], value: v.name)) }
            add(base + ["NSExceptionRequiresForwardSecrecy"], e.requiresForwardSecrecy)
            if !e.includesSubdomains && e.allowsInsecureHTTPLoads == nil && e.minimumTLSVersion == nil && e.requiresForwardSecrecy == nil {
                out.append(.init(path: base, value: "{}"))
            }
        }
        for (domain, pins) in p.pinnedDomains.sorted(by: { $0.key < $1.key }) {
            let base = ["NSPinnedDomains", domain]
            if pins.includesSubdomains { add(base + ["NSIncludesSubdomains"], true) }
            for pin in pins.leafIdentities ?? [] { out.append(.init(path: base + ["NSPinnedLeafIdentities", "SPKI-SHA256-BASE64"], value: pin)) }
            for pin in pins.caIdentities ?? [] { out.append(.init(path: base + ["NSPinnedCAIdentities", "SPKI-SHA256-BASE64"], value: pin)) }
        }
        return out
    }
}
