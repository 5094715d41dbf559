import TCPSim
import TLSEngine
import Trace

/// The ladder's lines for what the network's packet numbers tell (`TraceEvent.packetLinks`): an
/// on-path attacker's changed copy of a segment, sent on its own leg with what it changed, and the
/// segment a SYN-ACK answers.
extension RunDocumentBuilder {
    /// At most this many changed payload bytes are listed one by one (a stripped ClientHello changes dozens).
    static let listedOctetChanges = 4

    /// The segment a TCP sent that the attacker's copy (`links.replacing`) replaces.
    func replacedSegment(_ links: TCPPacketLinks?, state: LadderState) -> TCPPacket? {
        guard let number = links?.replacing, let index = state.packets.putOnWire[number],
              case .tcp(.sent(let p)) = state.events[index].kind else { return nil }
        return p
    }

    /// The segment whose arrival a SYN-ACK answers (`links.answering`), by the event that put it on
    /// the wire: its sequence number, and whether it is the network's late copy of an old segment.
    func answeredSegment(_ links: TCPPacketLinks?, state: LadderState) -> (seq: UInt32, stale: Bool)? {
        guard let number = links?.answering, let index = state.packets.putOnWire[number] else { return nil }
        let event = state.events[index]
        switch event.kind {
        case .tcp(.sent(let p)), .tcp(.forwarded(let p, _)): return (p.segment.seq.rawValue, false)
        case .tcp(.injected(let p)): return (p.segment.seq.rawValue, event.actor == .network)
        default: return nil
        }
    }

    /// The attacker's copy of a segment, sent on its leg to the receiver: the row, what it changed
    /// (the numbers, the payload bytes by offset), and once a run why the receiver takes it.
    func forwardedLines(_ p: TCPPacket, _ rewrite: TCPRewrite, time t: String, links: TCPPacketLinks?,
                        state: inout LadderState) -> [LadderEntry] {
        let s = p.segment
        let receiver = state.participants[p.destination] ?? .server
        let original = replacedSegment(links, state: state)
        let origin = original.flatMap { state.participants[$0.source] } ?? state.participants[p.source] ?? .client
        let names = original.map { carriedNames($0) } ?? []
        let carried = names.isEmpty ? "" : " · " + names.joined(separator: ", ")
        var numbers = "seq=\(s.seq.rawValue)"
        if let ack = s.ack { numbers += " ack=\(ack.rawValue)" }
        var out: [LadderEntry]
        if ladderStyle == .walkthrough {
            out = [row(t, from: .attacker, to: receiver, "TCP [\(s.flags.compact)] len=\(s.payload.count)" + carried, .alert), detail(numbers)]
        } else {
            out = [row(t, from: .attacker, to: receiver, "TCP [\(s.flags.compact)] \(numbers) len=\(s.payload.count)" + carried, .alert)]
        }
        out.append(detail(say("ladder.tcp.forwarded.changes", ["changes": changes(rewrite)])))
        if verbosity != .summary, state.explained.insert("tcp.forwarded").inserted {
            out += explain(Sentence("tcp.forwarded", ["sender": Actor.attacker.rawValue, "receiver": receiver.rawValue, "side": origin.rawValue]))
        }
        return out
    }

    /// What the attacker changed, in the catalogue's words: "seq 1 → 2; ack 3 → 4; 2 payload bytes: …".
    func changes(_ rewrite: TCPRewrite) -> String {
        var parts: [String] = []
        if let seq = rewrite.seq { parts.append(say("ladder.tcp.change.seq", ["old": "\(seq.old.rawValue)", "new": "\(seq.new.rawValue)"])) }
        if let ack = rewrite.ack { parts.append(say("ladder.tcp.change.ack", ["old": "\(ack.old.rawValue)", "new": "\(ack.new.rawValue)"])) }
        if !rewrite.octets.isEmpty {
            var listed = rewrite.octets.prefix(Self.listedOctetChanges).map { c in
                say("ladder.tcp.change.octet", ["offset": "\(c.offset)", "old": Hex.string([c.old]), "new": Hex.string([c.new])])
            }
            let more = rewrite.octets.count - listed.count
            if more > 0 { listed.append(say("ladder.tcp.change.more", ["count": "\(more)"])) }
            parts.append(say("ladder.tcp.change.octets", ["count": "\(rewrite.octets.count)",
                                                          "list": listed.joined(separator: say("list.separator"))]))
        }
        return parts.joined(separator: say("ladder.tcp.change.separator"))
    }
}
