import Foundation
import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Yams

/// The `network` and `tcp` sections, and the TCP world of a `kind: tcp` scenario.
extension ScenarioReader {
    // MARK: - Network and TCP

    func network(_ value: YAMLValue?, hosts: [String]) throws(ScenarioError) -> NetworkSpec {
        var n = NetworkSpec()
        guard let value else { return n }
        let m = try value.mapping(["latency_ms", "loss", "duplicate", "jitter_ms", "faults"])
        n.latencyMs = try m["latency_ms"]?.int(0 ... 10_000) ?? n.latencyMs
        n.loss = try m["loss"]?.probability() ?? 0
        n.duplicate = try m["duplicate"]?.probability() ?? 0
        n.jitterMs = try m["jitter_ms"]?.int(0 ... 10_000) ?? 0
        if let faults = m["faults"] {
            for item in try faults.list() {
                let f = try item.mapping(["from", "nth", "action", "delay_ms"])
                let from = try f.required("from", .clientOrServer).oneOf(hosts)
                let nth = try f.required("nth", .init("a whole number ≥ 1", "scenario.expected.wholeNumberFromOne")).int(1 ... 100_000)
                let actionName = try f.required("action", .oneOf(["drop", "duplicate", "delay"])).oneOf(["drop", "duplicate", "delay"])
                let action: TCPFaultRule.Action
                switch actionName {
                case "delay":
                    let ms = try f.required("delay_ms", .init("a whole number of milliseconds in 0...600000", "scenario.expected.milliseconds", ["lowest": "0", "highest": "600000"])).int(0 ... 600_000)
                    action = .delay(TCPDuration.milliseconds(Int64(ms)))
                case "duplicate": action = .duplicate
                default: action = .drop
                }
                if actionName != "delay", f.has("delay_ms") {
                    throw f.keyError("delay_ms", "contradiction: delay_ms only applies to action delay", "scenario.tcp.delayOnlyForDelay")
                }
                n.faults.append(FaultSpec(from: from, nth: nth, action: action))
            }
        }
        return n
    }

    func isn(_ value: YAMLValue) throws(ScenarioError) -> ISNMode {
        if case .scalar = value.node {
            _ = try value.oneOf(["random"])
            return .random
        }
        let m = try value.mapping(["counter"])
        let c = try m.required("counter", .init("a mapping with start and increment", "scenario.expected.counter")).mapping(["start", "increment"])
        let start = try c.required("start", .wholeNumber(0 ... Int(UInt32.max))).int(0 ... Int(UInt32.max))
        let inc = try c["increment"]?.int(0 ... Int(UInt32.max)) ?? 64_000
        return .counter(start: UInt32(start), increment: UInt32(inc))
    }

    func tcp(_ value: YAMLValue?, tcpOnly: Bool) throws(ScenarioError) -> TCPSpec {
        var t = TCPSpec()
        guard let value else { return t }
        var keys = ["mss", "window", "min_rto_ms", "initial_rto_ms", "msl_ms", "client_isn", "server_isn"]
        if tcpOnly { keys += ["handshake", "backlog", "syn_cookies"] }
        let m = try value.mapping(keys)
        t.mss = try m["mss"]?.int(64 ... 65_495) ?? t.mss
        t.window = try m["window"]?.int(1 ... 65_535) ?? t.window
        t.minimumRTOMs = try m["min_rto_ms"]?.int(1 ... 60_000) ?? t.minimumRTOMs
        t.initialRTOMs = try m["initial_rto_ms"]?.int(1 ... 60_000) ?? t.initialRTOMs
        t.mslMs = try m["msl_ms"]?.int(1 ... 600_000) ?? t.mslMs
        if let v = m["client_isn"] { t.clientISN = try isn(v) }
        if let v = m["server_isn"] { t.serverISN = try isn(v) }
        if let v = m["handshake"] { t.handshake = TCPHandshakeMode(rawValue: try v.oneOf(["threeWay", "twoWay"])) ?? .threeWay }
        t.backlog = try m["backlog"]?.int(1 ... 4096) ?? t.backlog
        t.synCookies = try m["syn_cookies"]?.bool() ?? false
        return t
    }

    func tcpWorld(_ top: YAMLMapping) throws(ScenarioError) -> TCPWorld {
        let network = try self.network(top["network"], hosts: ["client", "server"])
        let tcp = try self.tcp(top["tcp"], tcpOnly: true)
        let runMs = try top["run_ms"]?.int(1 ... 3_600_000) ?? 10_000
        var actions: [TCPAction] = []
        let list = try top.required("actions", .init("a list of actions (each a mapping with do)", "scenario.expected.actions")).list()
        if list.count > LessonWorkLimits.maximumActions {
            throw top.keyError("actions", "\(list.count) actions, above the \(LessonWorkLimits.maximumActions) a lesson may list", "scenario.tcp.tooManyActions", ["count": "\(list.count)", "limit": "\(LessonWorkLimits.maximumActions)"])
        }
        var connected = false
        var sentBytes = 0, floodSYNs = 0
        for item in list {
            let m = try item.mapping(["at_ms", "do", "by", "bytes", "text", "seq", "per_second", "seconds"])
            let at = try m["at_ms"]?.int(0 ... 3_600_000) ?? 0
            let verb = try m.required("do", .oneOf(["connect", "send", "close", "abort", "old_duplicate_syn", "syn_flood", "off_path_injection"])).oneOf(["connect", "send", "close", "abort", "old_duplicate_syn", "syn_flood", "off_path_injection"])
            var used = ["at_ms", "do"]
            let kind: TCPAction.Kind
            switch verb {
            case "connect":
                kind = .connect
                connected = true
            case "send":
                let by = try m.required("by", .clientOrServer).oneOf(["client", "server"])
                let bytes: [UInt8]
                if let t = m["text"] {
                    bytes = Array(try t.string().utf8)
                    if m.has("bytes") { throw m.keyError("bytes", "contradiction: give bytes or text, not both", "scenario.tcp.bytesAndText") }
                } else {
                    let count = try m.required("bytes", .init("a whole number of bytes in 1...1000000 (or text)", "scenario.expected.sendBytes", ["lowest": "1", "highest": "1000000"])).int(1 ... 1_000_000)
                    // Checked before the bytes are made: a file of many large sends must not fill memory.
                    if sentBytes + count > LessonWorkLimits.maximumSentBytes {
                        throw m.keyError("bytes", "the send actions would carry \(sentBytes + count) bytes in all, above the \(LessonWorkLimits.maximumSentBytes) a lesson may ask for", "scenario.tcp.tooManyBytes", ["count": "\(sentBytes + count)", "limit": "\(LessonWorkLimits.maximumSentBytes)"])
                    }
                    bytes = (0 ..< count).map { UInt8(truncatingIfNeeded: $0) }
                }
                sentBytes += bytes.count
                used += ["by", "bytes", "text"]
                kind = .send(by: by, bytes: bytes)
            case "close", "abort":
                let by = try m.required("by", .clientOrServer).oneOf(["client", "server"])
                used += ["by"]
                kind = verb == "close" ? .close(by: by) : .abort(by: by)
            case "old_duplicate_syn":
                let seq = try m.required("seq", .wholeNumber(0 ... Int(UInt32.max))).int(0 ... Int(UInt32.max))
                used += ["seq"]
                kind = .oldDuplicateSYN(seq: UInt32(seq))
            case "syn_flood":
                let per = try m.required("per_second", .wholeNumber(1 ... 1000)).int(1 ... 1000)
                let seconds = try m.required("seconds", .wholeNumber(1 ... 600)).int(1 ... 600)
                floodSYNs += per * seconds
                if floodSYNs > LessonWorkLimits.maximumFloodSYNs {
                    throw m.keyError("seconds", "the syn_flood actions would send \(floodSYNs) SYNs in all (per_second × seconds), above the \(LessonWorkLimits.maximumFloodSYNs) a lesson may ask for", "scenario.tcp.tooManySYNs", ["count": "\(floodSYNs)", "limit": "\(LessonWorkLimits.maximumFloodSYNs)"])
                }
                used += ["per_second", "seconds"]
                kind = .synFlood(perSecond: per, seconds: seconds)
            default:
                let text = try m.required("text", .init("a string", "scenario.expected.string")).string()
                used += ["text"]
                kind = .offPathInjection(text: text)
            }
            if verb != "connect", verb != "syn_flood", verb != "off_path_injection", verb != "old_duplicate_syn", !connected {
                throw item.error("contradiction: '\(verb)' before any 'connect'", "scenario.tcp.beforeConnect", ["verb": verb])
            }
            for key in m.keys where !used.contains(key) {
                throw m.keyError(key, "key '\(key)' does not apply to action '\(verb)'", "scenario.tcp.keyNotForAction", ["key": key, "verb": verb])
            }
            actions.append(TCPAction(atMs: at, kind: kind))
        }
        let world = TCPWorld(network: network, tcp: tcp, actions: actions, runMs: runMs)
        try checkWorkLimits(world, top)
        return world
    }
}
