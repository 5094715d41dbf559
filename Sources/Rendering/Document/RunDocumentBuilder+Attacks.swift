import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The ladder's lines for what attackers and the eavesdropper did and worked out.
extension RunDocumentBuilder {
    func attackLines(_ a: AttackEvent, time t: String, actor: Actor, state: inout LadderState) -> [LadderEntry] {
        var out: [LadderEntry]
        var key: String?
        switch a {
        case .position(let position):
            out = [row(t, at: actor, namesActor: true, say("ladder.actorSays", ["actor": name(actor), "text": explanations.attackPosition(position)]), .alert)]
            // A 0-RTT replayer opens its own connection but presents no certificate and makes no keys:
            // it sends a copy of the client's first flight (RFC 8446 §2.3, §8).
            let replaysEarlyData = state.events.contains { if case .attack(.recordedEarlyFlight) = $0.kind { true } else { false } }
            key = replaysEarlyData ? "attack.replayEarlyData" : state.participants.values.contains(.attacker) ? "attack.mitm" : "attack.onPath"
        case .tampered(let message, let sender, let offset, let old, let new):
            out = [row(t, at: .attacker, namesActor: true, say("attack.line.tampered", ["actor": name(.attacker), "offset": "\(offset)", "sender": explanations.actorName(sender.rawValue),
                                                                       "message": secretName(message), "old": Hex.string([old]), "new": Hex.string([new])]), .alert)]
            key = message.hasPrefix("HTTP") ? "attack.tamperHTTP" : "attack.tamper"
            if key == "attack.tamper" { state.tamperPending = true }
        case .strippedSuites(let removed, let kept, let how):
            out = [row(t, at: .attacker, namesActor: true, say("attack.line.stripped", ["actor": name(.attacker), "removed": removed.map { "\($0)" }.joined(separator: say("list.separator")),
                                                                       "kept": kept.map { "\($0)" }.joined(separator: say("list.separator"))]), .alert),
                   detail(say("attack.line.strippedHow", ["how": explanations.stripping(how)]))]
            key = "attack.strip"
        case .strippedTLS13(let removed, let bytes):
            out = [row(t, at: .attacker, namesActor: true, say("attack.line.strippedTLS13", ["actor": name(.attacker), "bytes": "\(bytes)",
                                                                            "removed": removed.map { "\($0)" }.joined(separator: say("list.separator"))]), .alert)]
            key = "attack.stripTLS13"
        case .replayed(let bytes, let seq):
            out = [row(t, at: .attacker, namesActor: true, say("attack.line.replayed", ["actor": name(.attacker), "bytes": "\(bytes)", "seq": "\(seq)"]), .alert)]
            key = "attack.replay"
        case .injectedChangeCipherSpec(let seq):
            out = [row(t, at: .attacker, namesActor: true, say("attack.line.earlyCCS", ["actor": name(.attacker), "seq": "\(seq)"]), .alert)]
            key = "attack.earlyCCS"
        case .recordedEarlyFlight(let bytes, let records):
            out = [row(t, at: .attacker, namesActor: true, say("attack.line.recordedEarlyFlight", ["actor": name(.attacker), "bytes": "\(bytes)", "records": "\(records)"]), .alert)]
            key = "attack.recordedEarlyFlight"
        case .replayedEarlyFlight(let bytes):
            out = [row(t, at: .attacker, namesActor: true, say("attack.line.replayedEarlyFlight", ["actor": name(.attacker), "bytes": "\(bytes)"]), .alert)]
            key = "attack.replayedEarlyFlight"
        case .keyStolen(let bits):
            let title = say("attack.line.keyStolen", ["bits": "\(bits)"])
            out = [.blank, .heading(title, line: rule(title))]
            key = state.tls13 ? "attack.keyTheft.tls13" : "attack.keyTheft"
        case .seedSearch(let candidates, let found):
            let title = say("attack.line.seedSearch")
            out = [.blank, .heading(title, line: rule(title)),
                   row(t, at: .eavesdropper, namesActor: true, say("attack.line.seedTried", [
                       "actor": name(.eavesdropper), "count": "\(candidates)",
                       "result": found.map { say("attack.line.seedFound", ["seed": "\($0)"]) } ?? say("attack.line.seedNone")]), .alert)]
            key = "attack.seed"
        case .learned(let secret, let value, let how):
            let shown = secret.isHTTPText ? firstLine(String(decoding: value, as: UTF8.self), http2: false) : short(value)
            out = [row(t, at: actor, namesActor: true, say("attack.line.learned", ["actor": name(actor), "secret": secretName(secret), "value": shown]), .alert),
                   detail(say("attack.line.how", ["how": explanations.secretSource(how)]))]
            key = nil
        case .failed(let why):
            out = [row(t, at: actor, namesActor: true, say("attack.line.failed", ["actor": name(actor), "why": explanations.attackFailure(why)]))]
            key = nil
        }
        if verbosity != .summary, let key, !state.explained.contains(key), explanations(key) != nil {
            state.explained.insert(key)
            out += explain(Sentence(key))
        }
        return out
    }
}
