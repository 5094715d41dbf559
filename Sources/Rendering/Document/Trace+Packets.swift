import TCPSim
import Trace

/// The network's packet numbers (`TraceEvent.packetLinks`) as the surfaces read them: which event
/// put each packet on the wire, and which segments an on-path attacker replaced with its own copy.
struct PacketIndex: Sendable {
    /// The packet's number → the index of the event that put it on the wire (sent, injected, forwarded).
    var putOnWire: [Int: Int] = [:]
    /// The numbers of the segments an attacker on the path received and replaced with a changed copy.
    var replaced: Set<Int> = []

    init() {}

    init(_ trace: Trace) {
        for (index, e) in trace.events.enumerated() {
            guard let links = e.packetLinks else { continue }
            switch e.kind {
            case .tcp(.sent), .tcp(.injected):
                putOnWire[links.packet] = index
            case .tcp(.forwarded):
                putOnWire[links.packet] = index
                if let original = links.replacing { replaced.insert(original) }
            default:
                continue
            }
        }
    }

    /// True when the event sent a segment that an attacker on the path kept, passing on its own changed copy.
    func isReplaced(_ event: TraceEvent) -> Bool {
        guard case .tcp(.sent) = event.kind, let number = event.packetLinks?.packet else { return false }
        return replaced.contains(number)
    }
}
