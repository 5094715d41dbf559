import PKI
import TCPSim
import Trace

/// The ladder's lines for lessons without a TLS connection: an ATS decision's plan and rule table,
/// Diffie-Hellman step by step, a TCP script's steps, timers and state changes with their causes.
extension RunDocumentBuilder {
    func lessonLines(_ lesson: LessonEvent, time t: String, actor: Actor, state: inout LadderState) -> [LadderEntry] {
        switch lesson {
        case .atsPlan(let plan):
            let title = say("ats.heading", ["url": plan.url])
            var out: [LadderEntry] = [.blank, .heading(title, line: rule(title))]
            let negotiated = plan.usesHTTPS
                ? say("ats.plan.https", ["version": plan.tlsVersion, "fs": say(plan.forwardSecret ? "ats.fs.yes" : "ats.fs.no"),
                                         "chain": plan.chain.joined(separator: " → ")])
                : say("ats.plan.http")
            let sentence = say("ats.plan", ["url": plan.url, "load": CatalogueKey.atsLoad(plan.load).flatMap { explanations($0) } ?? plan.load, "negotiated": negotiated])
            out.append(.prose(wrapped(sentence, indent: 0).joined(separator: "\n"), words: sentence))
            if plan.settings.isEmpty {
                out.append(.line(say("ats.plist.none")))
            } else {
                out.append(.line(say("ats.plist")))
                out += plan.settings.map { .line(say("ats.setting", ["path": $0.path.joined(separator: " › "), "value": $0.value])) }
            }
            out += [.blank, .line(say("ats.rules"))]
            return out
        case .atsRule(let check):
            state.atsRules += 1
            let number = "\(state.atsRules)".leftPadded(to: 3)
            let result = say(CatalogueKey.atsResult(check.result))
            var text = atsRuleText(check)
            let key = check.relaxedBy.joined(separator: " › ")
            if !key.isEmpty, check.result == .relaxed { text += say("ats.relaxedBy", ["key": key]) }
            if !key.isEmpty, check.result == .failed {
                text += say(check.rule == .pinnedLeaf || check.rule == .pinnedCA ? "ats.wouldRelax.pin" : "ats.wouldRelax", ["key": key])
            }
            let head = "\(number). \(result)  "
            // Wrapped lines start under the rule's text, in the column after the head.
            let pieces = HexdumpRenderer(width: width).wrap(head + text, continuationIndent: DisplayWidth.columns(head))
            return [.prose(pieces.joined(separator: "\n"), words: head + text, check.result == .failed ? .alert : .plain)]
        case .atsVerdict(let allowed):
            return [.blank, .prose(say(allowed ? "ats.verdict.allowed" : "ats.verdict.blocked"), allowed ? .plain : .alert)]
        case .dh(let step):
            if case .group(let p, let g, _) = step { state.dhGroup = (p, g) }
            return dhLines(step, time: t, group: state.dhGroup)
        case .tcpScript(let step):
            return [row(t, at: actor == .network ? nil : actor, namesActor: tcpScriptSide(step) == actor,
                        tcpScriptText(step), actor == .attacker ? .alert : .plain)]
        case .tcpEnd(let end):
            let title = say("tcp.end.heading")
            var out: [LadderEntry] = [.blank, .heading(title, line: rule(title)),
                                      .prose(say("tcp.end.states", ["client": end.clientState, "server": end.serverState, "retransmissions": "\(end.retransmissions)"]))]
            if end.clientError != "none" { out.append(.line(say("tcp.end.error", ["error": CatalogueKey.tcpErrorName(end.clientError).map { say($0) } ?? end.clientError]))) }
            if !end.clientReceived.isEmpty { out.append(.line(say("tcp.end.clientRead", ["text": end.clientReceived.visibleControls]))) }
            if !end.serverReceived.isEmpty { out.append(.line(say("tcp.end.serverRead", ["text": end.serverReceived.visibleControls]))) }
            return out
        }
    }

    func atsRuleText(_ c: ATSRuleCheck) -> String {
        var v = c.values
        switch c.rule {
        case .exceptionDomain:
            v["via"] = v["viaSubdomains"] == "true" ? say("ats.via") : ""
            return say("ats.rule.exceptionDomain", v)
        case .arbitraryLoadsIgnored: return say("ats.rule.arbitraryLoadsIgnored", v)
        case .exemption: return say(v["host"] == nil ? "ats.rule.exemption" : "ats.rule.exemption.local", v)
        case .defaults: return say("ats.rule.defaults", v)
        case .defaultTrust where v["result"] == "noCertificate": return say("ats.rule.defaultTrust.noCertificate")
        case .defaultTrust:
            v["detail"] = c.firstFailure.map { explanations.chainCheckDetail($0) } ?? ""
            return Self.atsRuleKey(c.rule, c.result).map { say($0, v) } ?? "\(c.rule.rawValue).\(c.result.rawValue)"
        case .https, .minimumVersion, .forwardSecrecy, .keySize, .signatureHash, .pinnedLeaf, .pinnedCA:
            return Self.atsRuleKey(c.rule, c.result).map { say($0, v) } ?? "\(c.rule.rawValue).\(c.result.rawValue)"
        }
    }

    /// The sentence of a checking rule by its result (one per rule and result that occurs).
    static func atsRuleKey(_ rule: ATSRuleCheck.Rule, _ result: ATSRuleCheck.Result) -> String? {
        switch (rule, result) {
        case (.https, .passed): "ats.rule.https.passed"
        case (.https, .failed): "ats.rule.https.failed"
        case (.https, .relaxed): "ats.rule.https.relaxed"
        case (.minimumVersion, .passed): "ats.rule.minimumVersion.passed"
        case (.minimumVersion, .failed): "ats.rule.minimumVersion.failed"
        case (.minimumVersion, .relaxed): "ats.rule.minimumVersion.relaxed"
        case (.forwardSecrecy, .passed): "ats.rule.forwardSecrecy.passed"
        case (.forwardSecrecy, .failed): "ats.rule.forwardSecrecy.failed"
        case (.forwardSecrecy, .relaxed): "ats.rule.forwardSecrecy.relaxed"
        case (.keySize, .passed): "ats.rule.keySize.passed"
        case (.keySize, .failed): "ats.rule.keySize.failed"
        case (.keySize, .relaxed): "ats.rule.keySize.relaxed"
        case (.signatureHash, .passed): "ats.rule.signatureHash.passed"
        case (.signatureHash, .failed): "ats.rule.signatureHash.failed"
        case (.defaultTrust, .passed): "ats.rule.defaultTrust.passed"
        case (.defaultTrust, .failed): "ats.rule.defaultTrust.failed"
        case (.defaultTrust, .relaxed): "ats.rule.defaultTrust.relaxed"
        case (.pinnedLeaf, .passed): "ats.rule.pinnedLeaf.passed"
        case (.pinnedLeaf, .failed): "ats.rule.pinnedLeaf.failed"
        case (.pinnedCA, .passed): "ats.rule.pinnedCA.passed"
        case (.pinnedCA, .failed): "ats.rule.pinnedCA.failed"
        default: nil
        }
    }

    func dhLines(_ step: DHStep, time t: String, group: (p: Int, g: Int)?) -> [LadderEntry] {
        switch step {
        case .group(let p, let g, let bits):
            let title = say("dh.heading")
            return [.blank, .heading(title, line: rule(title))] + paragraph(say("dh.group", ["p": "\(p)", "g": "\(g)", "bits": "\(bits)"]))
        case .privateExponent(let side, let value):
            return [row(t, at: side, namesActor: true, say(side == .client ? "dh.private.client" : "dh.private.server", ["value": "\(value)"]))]
        case .publicValue(let side, let g, let exponent, let p, let value):
            return [row(t, at: side, namesActor: true, say(side == .client ? "dh.public.client" : "dh.public.server", ["g": "\(g)", "exponent": "\(exponent)", "p": "\(p)", "value": "\(value)"]))]
        case .sent(let side, let value):
            return [row(t, from: side, to: side == .client ? .server : .client, say(side == .client ? "dh.sent.client" : "dh.sent.server", ["value": "\(value)"]), .tls)]
        case .rangeCheck(let side, let value, let p, let passed):
            return [row(t, at: side, namesActor: true, say(side == .client ? "dh.check.client" : "dh.check.server", ["value": "\(value)", "limit": "\(p - 1)",
                                                                        "result": say(passed ? "dh.check.passed" : "dh.check.failed")]),
                        passed ? .plain : .alert)]
        case .shared(let side, let peer, let exponent, let p, let value):
            return [row(t, at: side, namesActor: true, say(side == .client ? "dh.shared.client" : "dh.shared.server", ["peer": "\(peer)", "exponent": "\(exponent)", "p": "\(p)", "value": "\(value)"]))]
        case .agreement(let client, let server):
            return paragraph(client == server ? say("dh.agree", ["value": "\(client)"]) : say("dh.disagree", ["client": "\(client)", "server": "\(server)"]))
        case .search(let target, let tries, let exponent, let recovered):
            let g = (g: group.map { "\($0.g)" } ?? "g", p: group.map { "\($0.p)" } ?? "p")
            if let exponent, let recovered {
                return paragraph(say("dh.search.found", ["g": g.g, "p": g.p, "target": "\(target)", "exponent": "\(exponent)",
                                                         "tries": "\(tries)", "recovered": "\(recovered)"]))
            }
            return paragraph(say("dh.search.notFound", ["g": g.g, "p": g.p, "target": "\(target)", "tries": "\(tries)"]))
        }
    }

    /// The side a script step's words name first, if any: "{side}: CONNECT …" (`tcp.script.connect`
    /// … `abort`), "attacker: …" (`tcp.script.synFlood`, `.probe`, `.predict`).
    func tcpScriptSide(_ step: TCPScriptStep) -> Actor? {
        switch step {
        case .connect(let by), .send(let by, _), .close(let by), .abort(let by): return by
        case .synFlood, .probe, .predictISN: return .attacker
        default: return nil
        }
    }

    func tcpScriptText(_ step: TCPScriptStep) -> String {
        switch step {
        case .connect(let by): return say("tcp.script.connect", ["side": name(by)])
        case .send(let by, let octets): return say("tcp.script.send", ["side": name(by), "octets": "\(octets)"])
        case .close(let by): return say("tcp.script.close", ["side": name(by)])
        case .abort(let by): return say("tcp.script.abort", ["side": name(by)])
        case .oldDuplicateSYN(let seq): return say("tcp.script.oldDuplicateSYN", ["seq": "\(seq)"])
        case .synFlood(let perSecond, let seconds): return say("tcp.script.synFlood", ["perSecond": "\(perSecond)", "seconds": "\(seconds)"])
        case .floodTotals(let spoofed, let synAcks, let drops, let clientDrops):
            return say("tcp.script.floodTotals", ["spoofed": "\(spoofed)", "synAcks": "\(synAcks)", "drops": "\(drops)", "clientDrops": "\(clientDrops)"])
        case .probe(let isn): return say("tcp.script.probe", ["isn": "\(isn)"])
        case .predictISN(let observed, let predicted, let spoofed):
            return say("tcp.script.predict", ["observed": "\(observed)", "step": "\(predicted &- observed)", "predicted": "\(predicted)", "spoofed": spoofed])
        }
    }

    /// A TCP lesson's connection events beyond segments: state changes with their RFC 9293 cause,
    /// the timers (RTO, TIME-WAIT's 2·MSL), out-of-window and out-of-order segments, errors.
    func tcpLessonLines(_ event: TCPEvent, time t: String, actor: Actor, at now: Int64) -> [LadderEntry] {
        let side = ["side": name(actor)]
        switch event {
        case .stateChanged(let from, let to, let cause):
            let key = cause == .resetReceived && to == .listen ? "tcp.cause.resetToListen" : Self.causeKey(cause)
            return [row(t, at: actor, namesActor: true, say("tcp.state", ["side": name(actor), "from": "\(from)", "to": "\(to)", "cause": say(key)]))]
        case .timerSet(.timeWait, let deadline):
            return [row(t, at: actor, namesActor: true, say("tcp.timeWait", side.merging(["duration": RunDocument.timeText(deadline - now), "deadline": RunDocument.timeText(deadline)]) { a, _ in a }))]
        case .timerFired(let kind):
            guard let key = CatalogueKey.timerFired(kind) else { return [] }
            return [row(t, at: actor, namesActor: true, say(key, side), .alert)]
        case .rtoBackedOff(let rto):
            return [row(t, at: actor, namesActor: true, say("tcp.rtoBackedOff", side.merging(["rto": RunDocument.timeText(rto)]) { a, _ in a }))]
        case .rtoReinitialized(let rto):
            return [row(t, at: actor, namesActor: true, say("tcp.rtoReinitialized", side.merging(["rto": RunDocument.timeText(rto)]) { a, _ in a }))]
        case .unacceptableSegment(let seq, let length):
            return [row(t, at: actor, namesActor: true, say("tcp.unacceptable", side.merging(["seq": "\(seq.rawValue)", "length": "\(length)"]) { a, _ in a }), .alert)]
        case .outOfOrderBuffered(let seq, let count):
            return [row(t, at: actor, namesActor: true, say("tcp.outOfOrder", side.merging(["seq": "\(seq.rawValue)", "length": "\(count)"]) { a, _ in a }))]
        case .challengeACK:
            return [row(t, at: actor, namesActor: true, say("tcp.challengeACK", side))]
        case .error(let error):
            return [row(t, at: actor, namesActor: true, say("tcp.error", side.merging(["error": say(CatalogueKey.tcpError(error))]) { a, _ in a }), .alert)]
        default:
            return []
        }
    }

    static func causeKey(_ cause: TCPTransitionCause) -> String {
        switch cause {
        case .activeOpen: "tcp.cause.activeOpen"
        case .passiveOpen: "tcp.cause.passiveOpen"
        case .synReceived: "tcp.cause.synReceived"
        case .synReceivedTwoWay: "tcp.cause.synReceivedTwoWay"
        case .synAckReceived: "tcp.cause.synAckReceived"
        case .simultaneousOpen: "tcp.cause.simultaneousOpen"
        case .ackOfSYN: "tcp.cause.ackOfSYN"
        case .synCookieValidated: "tcp.cause.synCookieValidated"
        case .close: "tcp.cause.close"
        case .finReceived: "tcp.cause.finReceived"
        case .ackOfFIN: "tcp.cause.ackOfFIN"
        case .resetReceived: "tcp.cause.resetReceived"
        case .synInWindow: "tcp.cause.synInWindow"
        case .abort: "tcp.cause.abort"
        case .timeWaitExpired: "tcp.cause.timeWaitExpired"
        case .retransmissionLimit: "tcp.cause.retransmissionLimit"
        }
    }
}

extension String {
    /// Line breaks and tabs written as \r, \n and \t, so a value stays on its line.
    var visibleControls: String {
        replacing("\r", with: "\\r").replacing("\n", with: "\\n").replacing("\t", with: "\\t")
    }

    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
