import HTTP2
import TCPSim
import TLSEngine
import Trace

extension PcapWriter {
    /// Every segment on the wire in time order, as a capture would record it, each stamped with the
    /// time the ladder draws it (the instant it was put on the wire).
    ///
    /// The capture sees each segment as it travels the path: every segment as first sent and as
    /// retransmitted (segments the network later lost included). With an on-path attacker (tamper,
    /// strip, replay) the capture sits on the attacker's side towards the server, so that one byte
    /// stream with consistent sequence numbers is seen: in place of each client segment the attacker
    /// replaced, the attacker's changed copy (the `forwarded` event naming it, `TraceEvent.packetLinks`),
    /// the segments it injected, and the server's as the server sent them. Every frame is stamped with
    /// its sender's send time on that leg — the time the ladder shows for that segment.
    public static func packets(from trace: Trace) -> [Packet] {
        let server = trace.participants.first { $0.value == .server }?.key
        // The segments the attacker replaced with its own copy towards the server: the capture sees the copy.
        let replacedTowardsServer = Set(trace.events.compactMap { e -> Int? in
            guard case .tcp(.forwarded(let changed, _)) = e.kind, changed.destination == server else { return nil }
            return e.packetLinks?.replacing
        })
        var packets: [Packet] = []
        for event in trace.events {
            let p: TCPPacket
            switch event.kind {
            case .tcp(.sent(let sent)):
                if let number = event.packetLinks?.packet, replacedTowardsServer.contains(number) { continue }
                p = sent
            case .tcp(.injected(let injected)): p = injected
            // The attacker's own send on its leg to the server, stamped with the time it sent it.
            case .tcp(.forwarded(let changed, _)) where changed.destination == server: p = changed
            default: continue
            }
            packets.append(Packet(timeMicroseconds: event.time, source: p.source, destination: p.destination,
                                  payload: p.segment.encoded(source: p.source, destination: p.destination)))
        }
        return packets
    }
}

extension KeyLogWriter {
    /// One key-log line per TLS session in the run (several connections, both legs of a MITM,
    /// resumed sessions with the master secret they reused), from `Trace.sessionSecrets`.
    public static func sessions(from trace: Trace) -> [Session] {
        trace.sessionSecrets.map { Session(clientRandom: $0.clientRandom, masterSecret: $0.masterSecret) }
    }

    /// The TLS 1.3 sessions of the run, each with its secrets (`Trace.tls13SessionSecrets`).
    public static func tls13Sessions(from trace: Trace) -> [TLS13Session] {
        trace.tls13SessionSecrets.map { TLS13Session(clientRandom: $0.clientRandom, secrets: $0.steps) }
    }

    /// The run's key log: TLS 1.2 sessions as `CLIENT_RANDOM` lines, or, when the run speaks TLS
    /// 1.3, each 1.3 session's traffic secrets by their labels; and how many sessions it lists.
    public static func keyLog(for trace: Trace) -> (text: String, sessions: Int) {
        let tls13 = tls13Sessions(from: trace)
        guard !tls13.isEmpty else {
            let sessions = sessions(from: trace)
            return (text(sessions), sessions.count)
        }
        return (text(tls13: tls13), tls13.count)
    }
}
