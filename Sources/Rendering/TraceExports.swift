import Simulation
import TCPSim
import TLSEngine

extension PcapWriter {
    /// Every segment the run put on the wire, as first sent and as retransmitted, in time order —
    /// what a capture next to the client would record (segments the network later lost included).
    public static func packets(from trace: Trace) -> [Packet] {
        trace.events.compactMap { event in
            guard case .tcp(.sent(let p)) = event.kind else { return nil }
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
