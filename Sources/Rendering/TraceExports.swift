import HTTP2
import TCPSim
import TLSEngine
import Trace

extension PcapWriter {
    /// Every segment on the wire in time order, as a capture would record it.
    ///
    /// Without an on-path attacker the capture sits next to the client: every segment as first sent
    /// and as retransmitted (segments the network later lost included). With one (tamper, strip,
    /// replay) the bytes change in flight, so one capture point must be chosen: next to the server,
    /// after the attacker — the client's segments as they arrived (changed, re-sequenced, and the
    /// injected copies), the server's as it sent them. Either way every acknowledged byte is in it.
    public static func packets(from trace: Trace) -> [Packet] {
        let onPath = !trace.participants.values.contains(.attacker) && trace.events.contains {
            if case .tcp(.injected) = $0.kind { return true }
            if case .attack(let a) = $0.kind {
                switch a {
                case .tampered, .strippedSuites, .replayed: return true
                default: return false
                }
            }
            return false
        }
        let server = trace.participants.first { $0.value == .server }?.key
        return trace.events.compactMap { event in
            let p: TCPPacket
            switch event.kind {
            case .tcp(.sent(let sent)) where !onPath || sent.source == server: p = sent
            case .tcp(.delivered(let arrived)) where onPath && arrived.destination == server: p = arrived
            default: return nil
            }
            return Packet(timeMicroseconds: event.time, source: p.source, destination: p.destination,
                          payload: p.segment.encoded(source: p.source, destination: p.destination))
        }
    }
}

extension KeyLogWriter {
    /// One key-log line per TLS session in the run (several connections, both legs of a MITM,
    /// resumed sessions with the master secret they reused), from `Trace.sessionSecrets`.
    public static func sessions(from trace: Trace) -> [Session] {
        trace.sessionSecrets.map { Session(clientRandom: $0.clientRandom, masterSecret: $0.masterSecret) }
    }
}
