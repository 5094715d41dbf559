import TCPSim
import Trace

/// What became of each segment a TCP sent, read from the trace's TCP events and the network's packet
/// numbers (`TraceEvent.packetLinks`) only: whether the network lost it, whether an on-path attacker
/// passed it on changed (`forwarded`: the attacker's own send on its leg, naming the packet it
/// replaces), and what the receiving TCP reported when it arrived — the
/// `TCPEvent.acknowledged` event TCPSim emits where the receiver's SND.UNA advanced. The walkthrough
/// says what an ACK acknowledged from these facts, instead of keeping ISNs, FINs and last acks itself.
struct SegmentFates {
    /// What the receiving TCP's SND.UNA advanced over when the segment (or the attacker's version
    /// of it) arrived (RFC 9293 §3.10.7.4, "If the ACK bit is on").
    struct Acknowledged: Equatable {
        var from: SeqNumber, upTo: SeqNumber, dataOctets: Int, syn: Bool, fin: Bool
    }

    /// By the index of the segment's `sent` event.
    private(set) var acknowledged: [Int: Acknowledged] = [:]
    /// The sent segments the network lost (their `dropped` event, as sent or as the attacker passed them on).
    private(set) var lost: Set<Int> = []
    /// The segments an on-path attacker changed before passing them on: what the path carried instead.
    private(set) var carried: [Int: TCPPacket] = [:]
    /// For each data segment, the sequence number of its stream's first data byte: the last SYN its
    /// sender sent on that direction, + 1.
    private(set) var firstDataSequence: [Int: UInt32] = [:]

    private struct Direction: Hashable {
        var from: TCPEndpoint, to: TCPEndpoint
    }

    init(_ events: [TraceEvent]) {
        var first: [Direction: UInt32] = [:]
        // Each packet the network numbered, back to the sent segment it stands for: a sent segment is
        // itself; an attacker's changed copy stands for the segment it replaced.
        var origin: [Int: Int] = [:]
        var arrived: Set<Int> = []
        for (index, e) in events.enumerated() {
            guard let links = e.packetLinks else { continue }
            switch e.kind {
            case .tcp(.sent(let p)):
                let direction = Direction(from: p.sourceEndpoint, to: p.destinationEndpoint)
                if p.segment.flags.contains(.syn) { first[direction] = p.segment.seq.rawValue &+ 1 }
                if !p.segment.payload.isEmpty, let start = first[direction] { firstDataSequence[index] = start }
                origin[links.packet] = index
            case .tcp(.forwarded(let q, _)):
                // The segment the attacker replaced: what arrives in its place is `q`.
                guard let replaced = links.replacing, let sent = origin[replaced] else { continue }
                origin[links.packet] = sent
                carried[sent] = q
            case .tcp(.dropped):
                if let sent = origin[links.packet] { lost.insert(sent) }
            case .tcp(.delivered(let p)):
                // The first arrival of the packet (a duplicate copy arrives again, acknowledging nothing new).
                guard let sent = origin[links.packet], arrived.insert(links.packet).inserted else { continue }
                // The receiver's report follows the delivery at the same instant.
                var next = index + 1
                while next < events.count, events[next].time == e.time, case .tcp(.connection(let id, let event)) = events[next].kind,
                      id.local == p.destinationEndpoint {
                    if case let .acknowledged(from, upTo, octets, syn, fin) = event {
                        acknowledged[sent] = Acknowledged(from: from, upTo: upTo, dataOctets: octets, syn: syn, fin: fin)
                        break
                    }
                    next += 1
                }
            default:
                continue
            }
        }
    }
}
