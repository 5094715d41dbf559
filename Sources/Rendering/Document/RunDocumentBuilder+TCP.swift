import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The ladder's TCP lines: segments with flags, seq, ack and len, state changes, timers, drops, and what each segment carries.
extension RunDocumentBuilder {
    /// `links`: the event's packet numbers (`TraceEvent.packetLinks`): what a segment answers or replaces.
    func tcpLines(_ kind: TCPNetworkEvent.Kind, time t: String, actor: Actor, links: TCPPacketLinks?, state: inout LadderState) -> [LadderEntry] {
        switch kind {
        case .injected(let p) where actor == .network:
            // The network's stale copy of an earlier connection's segment (an old duplicate).
            let s = p.segment
            return [row(t, from: state.participants[p.source] ?? .client, to: state.participants[p.destination] ?? .server,
                        "TCP [\(s.flags.compact)] seq=\(s.seq.rawValue) len=\(s.payload.count) — " + explanations.phrase("tcp.injected.stale"), .alert)]
        case .injected(let p):
            let s = p.segment
            let to = state.participants[p.destination] ?? .server
            let segment = "TCP [\(s.flags.compact)] seq=\(s.seq.rawValue)\(s.ack.map { " ack=\($0.rawValue)" } ?? "") len=\(s.payload.count)\(carried(p, injected: true))"
            return [row(t, from: .attacker, to: to, say("ladder.tcp.injected", ["segment": segment, "source": "\(p.source)"]), .alert)]
        case .forwarded(let p, let rewrite):
            return forwardedLines(p, rewrite, time: t, links: links, state: &state)
        case .sent(let p):
            let s = p.segment
            let replaced = links.map { state.packets.replaced.contains($0.packet) } ?? false
            let receiver = replaced ? .attacker : state.participants[p.destination] ?? (actor == .client ? .server : .client)
            // The segment whose arrival this SYN-ACK answers, as the network numbered it: a stale copy
            // the network delivered late is not a SYN the receiver sent at all.
            let answered = s.flags.contains(.syn) && s.ack != nil ? answeredSegment(links, state: state) : nil
            var numbers = "seq=\(s.seq.rawValue)"
            if let ack = s.ack { numbers += " ack=\(ack.rawValue)" }
            var out: [LadderEntry]
            if ladderStyle == .walkthrough {
                // The row keeps the flags, the length and the message names; the numbers go below it.
                out = [row(t, from: actor, to: receiver, "TCP [\(s.flags.compact)] len=\(s.payload.count)" + carried(p), .tcp), detail(numbers)]
            } else {
                out = [row(t, from: actor, to: receiver, "TCP [\(s.flags.compact)] \(numbers) len=\(s.payload.count)" + carried(p), .tcp)]
            }
            if verbosity != .summary {
                let key: String? = s.flags.contains(.rst) ? (state.lessonOnly ? "tcp.rst" : nil)
                    : s.flags.contains(.syn) ? (s.ack == nil ? "tcp.syn" : answered?.stale == true ? "tcp.synack.stale" : "tcp.synack")
                    : s.flags.contains(.fin) ? "tcp.fin"
                    : (state.tcpAcks == 0 && s.payload.isEmpty ? "tcp.ack3" : nil)
                if s.flags.compact == "A", s.payload.isEmpty { state.tcpAcks += 1 }
                // Generic sentences name the segment's real sender and receiver (a MITM answers SYNs too).
                if let key, !state.explained.contains(key), explanations(key) != nil {
                    state.explained.insert(key)
                    out += explain(Sentence(key, ["sender": actor.rawValue, "receiver": receiver.rawValue, "seq": answered.map { "\($0.seq)" } ?? ""]))
                }
                // The attacker on the path keeps this segment: what goes on is its copy, the next row.
                if replaced, state.explained.insert("tcp.intercepted").inserted {
                    out += explain(Sentence("tcp.intercepted", ["sender": actor.rawValue, "receiver": Actor.attacker.rawValue,
                                                                "side": (state.participants[p.destination] ?? .server).rawValue]))
                }
                // What a record this side sealed carries (its header, its AES-GCM nonce), under the segment.
                if !s.payload.isEmpty, let notes = state.recordNotes.removeValue(forKey: actor) { out += notes }
            }
            return out
        case .dropped(let p, let reason):
            let receiver = state.participants[p.destination] ?? (actor == .client ? .server : .client)
            var out = [row(t, from: actor, to: receiver, lost: true,
                           say("ladder.tcp.lost", ["segment": "TCP [\(p.segment.flags.compact)] seq=\(p.segment.seq.rawValue) len=\(p.segment.payload.count)\(carried(p))",
                                                   "reason": say(CatalogueKey.dropReason(reason))]), .alert)]
            if !state.explained.contains("tcp.drop"), explanations("tcp.drop") != nil {
                state.explained.insert("tcp.drop")
                out += explain(Sentence("tcp.drop"))
            }
            return out
        case .connection(_, .retransmitted(let seg, let attempt)):
            var out = [row(t, at: actor, namesActor: true, say("ladder.tcp.retransmits", ["actor": name(actor), "seq": "\(seg.seq.rawValue)", "len": "\(seg.payload.count)",
                                                                       "attempt": "\(attempt)"]), .alert)]
            if !state.explained.contains("tcp.retransmit"), explanations("tcp.retransmit") != nil {
                state.explained.insert("tcp.retransmit")
                out += explain(Sentence("tcp.retransmit"))
            }
            return out
        case .connection(_, .outOfOrderBuffered(let seq, let count)) where !state.lessonOnly:
            // A TCP lesson has its own row for this (`tcp.outOfOrder`); here TLS or HTTP sits above.
            var out = [row(t, at: actor, namesActor: true, say("ladder.tcp.outOfOrder", ["actor": name(actor), "seq": "\(seq.rawValue)", "len": "\(count)"]))]
            let why = state.plainHTTP ? "tcp.outOfOrder.why.application" : "tcp.outOfOrder.why.tls"
            if state.explained.insert(why).inserted { out += explain(Sentence(why)) }
            return out
        case .connection(_, .stateChanged(let from, let to, _)):
            return [row(t, at: actor, namesActor: true, say("ladder.tcp.state", ["actor": name(actor), "from": "\(from)", "to": "\(to)"]))]
        case .duplicated(let p) where state.lessonOnly:
            return [row(t, at: actor, say("tcp.duplicated", ["seq": "\(p.segment.seq.rawValue)"]))]
        case .synCookieAccepted where state.lessonOnly:
            return [row(t, at: .server, namesActor: true, say("tcp.synCookieAccepted"))]
        default:
            return []
        }
    }

    /// The TLS messages (or records) whose bytes the segment carries, from the stream offsets the
    /// simulation recorded: " · ClientHello", " · Finished (encrypted, part)".
    func carried(_ p: TCPPacket, injected: Bool = false) -> String {
        let names = carriedNames(p, injected: injected)
        return names.isEmpty ? "" : " · " + names.joined(separator: ", ")
    }

    /// What a segment's payload carries, each worded with its notes (encrypted, part, copy).
    func carriedNames(_ p: TCPPacket, injected: Bool = false) -> [String] {
        layout.carried(p, injected: injected).map { item -> String in
            var name = spanName(item.span.content)
            var notes: [String] = []
            if item.span.encrypted, case .handshake = item.span.content { notes.append(say("carried.encrypted")) }
            if item.partial { notes.append(say("carried.part")) }
            // A replayed record is a copy; an injected ChangeCipherSpec is one the attacker made itself.
            if item.span.injected { notes.append(say(item.span.content == .changeCipherSpec ? "carried.forged" : "carried.copy")) }
            if !notes.isEmpty { name += say("carried.notes", ["notes": notes.joined(separator: say("list.separator"))]) }
            return name
        }
    }

    func spanName(_ content: StreamSpan.Content) -> String {
        switch content {
        case .handshake(let type): return handshakeName(type)
        case .changeCipherSpec: return "ChangeCipherSpec"
        case .alert(let alert): return "Alert \(alert.alertDescription)"
        case .applicationData: return say("span.applicationData")
        case .plainHTTP: return say("span.plainHTTP")
        }
    }
}

extension TCPEvent {
    var isRetransmission: Bool { if case .retransmitted = self { true } else { false } }
}
