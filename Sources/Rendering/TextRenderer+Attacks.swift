import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The ladder's lines for what attackers and the eavesdropper did and worked out.
extension TextRenderer {
    func attackLines(_ a: AttackEvent, time t: String, actor: Actor, state: inout LadderState) -> [String] {
        var out: [String]
        var key: String?
        switch a {
        case .position(let sentence):
            out = [row(t, at: actor, "\(actor.rawValue): \(explanations.sentence(sentence))", .alert)]
            key = state.participants.values.contains(.attacker) ? "attack.mitm" : "attack.onPath"
        case .tampered(let message, let sender, let offset, let old, let new):
            out = [row(t, at: .attacker, "attacker changes byte \(offset) of the \(sender.rawValue)'s \(message) in flight: \(Hex.string([old])) → \(Hex.string([new]))", .alert)]
            key = message.hasPrefix("HTTP") ? "attack.tamperHTTP" : "attack.tamper"
            if key == "attack.tamper" { state.tamperPending = true }
        case .strippedSuites(let removed, let kept, let detail):
            out = [row(t, at: .attacker, "attacker strips \(removed.map { "\($0)" }.joined(separator: ", ")) from the ClientHello; left: \(kept.map { "\($0)" }.joined(separator: ", "))", .alert),
                   self.detail("(\(detail))")]
            key = "attack.strip"
        case .replayed(let bytes, let seq):
            out = [row(t, at: .attacker, "attacker replays the client's \(bytes)-byte application-data record as new TCP bytes at seq=\(seq)", .alert)]
            key = "attack.replay"
        case .keyStolen(let bits):
            out = ["", style("── After the run: the server's \(bits)-bit private key is stolen " + String(repeating: "─", count: 10), .heading)]
            key = "attack.keyTheft"
        case .seedSearch(let candidates, let found):
            out = ["", style("── After the run: the eavesdropper searches the client's seed space " + String(repeating: "─", count: 6), .heading),
                   row(t, at: .eavesdropper, "eavesdropper tried \(candidates) seeds: \(found.map { "seed \($0) reproduces client_random" } ?? "none matches")", .alert)]
            key = "attack.seed"
        case .learned(let secret, let value, let how):
            let shown = secret.hasPrefix("HTTP") ? firstLine(String(decoding: value, as: UTF8.self)) : short(value)
            out = [row(t, at: actor, "\(actor.rawValue) LEARNS the \(secret): \(shown)", .alert), detail("how: \(explanations.sentence(how))")]
            key = nil
        case .failed(let why):
            out = [row(t, at: actor, "\(actor.rawValue) cannot go further: \(explanations.sentence(why))")]
            key = nil
        }
        if verbosity != .summary, let key, !state.explained.contains(key), let text = explanations(key) {
            state.explained.insert(key)
            out += explain(text)
        }
        return out
    }
}
