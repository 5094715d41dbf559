import TCPSim
import TLSEngine
import Trace

extension RunDocument {
    /// What a phase achieved, once it ended: TCP's open, the handshake, the close, an HTTP exchange.
    public struct PhaseSummary: Sendable, Hashable {
        public var phase: Phase
        public var connection: Int
        /// The phase's events, from its heading to the event before the next heading (or the end).
        public var events: Range<Int>
        /// What it achieved, in the renderer's words.
        public var sentences: [String]
    }
}

extension RunDocumentBuilder {
    /// The summary of each phase of `trace` that says something: a phase ends where the next begins.
    func phaseSummaries(_ trace: Trace) -> [RunDocument.PhaseSummary] {
        var out: [RunDocument.PhaseSummary] = []
        var open: (phase: Phase, connection: Int, start: Int)?
        func close(at end: Int) {
            guard let o = open, let sentences = phaseSummarySentences(o.phase, connection: o.connection, events: o.start..<end, trace: trace)
            else { return }
            out.append(RunDocument.PhaseSummary(phase: o.phase, connection: o.connection, events: o.start..<end, sentences: sentences))
        }
        for (index, event) in trace.events.enumerated() {
            guard case .phase(let phase) = event.kind else { continue }
            close(at: index)
            open = (phase, event.connection, index)
        }
        close(at: trace.events.count)
        return out
    }

    /// What the phase that began at `events.lowerBound` achieved by the event before `events.upperBound`:
    /// TCP's open (segments, both ISNs confirmed), the handshake (suite, EMS, who knows what now),
    /// the close (TIME-WAIT until when), an HTTP exchange (requests and responses); nil for the rest.
    func phaseSummarySentences(_ phase: Phase, connection: Int, events range: Range<Int>, trace: Trace) -> [String]? {
        guard range.count > 1 else { return nil }
        func party(_ actor: Actor) -> String { say(CatalogueKey.party(actor)) }
        let events = trace.events[range]
        let ms = { (t: Int64) in RunDocument.timeText(t) }
        var lines: [String] = []
        switch phase {
        case .tcpOpen:
            var segments = 0
            var clientISN: UInt32?, serverISN: UInt32?, clientAck: UInt32?, serverAck: UInt32?
            for e in events where e.connection == connection {
                guard case .tcp(.sent(let p)) = e.kind else { continue }
                segments += 1
                let s = p.segment
                if s.flags.contains(.syn), s.ack == nil { clientISN = s.seq.rawValue }
                if s.flags.contains(.syn), let ack = s.ack { serverISN = s.seq.rawValue; serverAck = ack.rawValue }
                if !s.flags.contains(.syn), let ack = s.ack, let isn = serverISN, ack.rawValue == isn &+ 1 { clientAck = ack.rawValue }
            }
            if let c = clientISN, let s = serverISN, serverAck == c &+ 1, clientAck == s &+ 1 {
                lines.append(say("walk.summary.tcpOpen", ["segments": "\(segments)", "clientISN": "\(c)", "serverISN": "\(s)",
                                                          "clientAck": "\(c &+ 1)", "serverAck": "\(s &+ 1)"]))
            } else {
                lines.append(say("walk.summary.tcpNotOpen", ["segments": "\(segments)"]))
            }
            // When each side became ESTABLISHED (the server only once the third segment arrives).
            for (i, e) in trace.events.enumerated() where e.connection == connection {
                guard case .tcp(.connection(_, .stateChanged(_, .established, _))) = e.kind else { continue }
                let key = i < range.upperBound ? "walk.summary.established" : "walk.summary.establishedLater"
                lines.append(say(key, ["actor": party(e.actor), "time": ms(e.time)]))
            }
        case .tlsHandshake:
            let s = trace.summary(connection: connection)
            if let failure = s.failure {
                lines.append(say("walk.summary.tlsFailed", ["side": party(failure.sentBy), "alert": "\(failure.alert)"]))
            } else if let suite = s.cipherSuite, s.version == .tls13 {
                lines.append(say("walk.summary.tls13", ["suite": "\(suite)"]))
                if s.resumed { lines.append(say("walk.summary.tls13Resumed")) }
            } else if let suite = s.cipherSuite, let version = s.version {
                lines.append(say(s.extendedMasterSecret ? "walk.summary.tlsEMS" : "walk.summary.tlsNoEMS",
                                 ["version": "\(version)", "suite": "\(suite)"]))
                if s.resumed { lines.append(say("walk.summary.resumed")) }
            } else {
                lines.append(say("walk.summary.tlsUnfinished"))
            }
            if connection == 0 {
                let rows = trace.knowledge(through: range.upperBound - 1).rows.filter { !$0.changedInFlight && !$0.derivedDifferently }
                let both = rows.filter { $0.client && $0.server }.map { secretName($0.secret) }
                let eavesdropper = rows.filter(\.eavesdropper).map { secretName($0.secret) }
                let none = say("walk.summary.nothing")
                lines.append(say("walk.summary.knows", ["both": both.isEmpty ? none : both.joined(separator: say("list.separator")),
                                                        "eavesdropper": eavesdropper.isEmpty ? none : eavesdropper.joined(separator: say("list.separator"))]))
            }
        case .closing:
            var waited = false
            for e in trace.events where e.connection == connection {
                guard case .tcp(.connection(_, .stateChanged(let from, .timeWait, _))) = e.kind else { continue }
                // TIME-WAIT ends when its 2·MSL timer expires: the CLOSED transition, if the run reached it.
                let closedAt = trace.events.first { other in
                    guard other.connection == connection, other.actor == e.actor, other.time >= e.time,
                          case .tcp(.connection(_, .stateChanged(.timeWait, .closed, _))) = other.kind else { return false }
                    return true
                }?.time
                var deadline = closedAt
                for other in trace.events where other.connection == connection && other.actor == e.actor {
                    if case .tcp(.connection(_, .timerSet(.timeWait, let d))) = other.kind, other.time >= e.time { deadline = d }
                }
                if let deadline {
                    // From CLOSING the FINs crossed (RFC 9293 §3.6): this side did not close first.
                    lines.append(say(from == .closing ? "walk.summary.timeWaitSimultaneous" : "walk.summary.timeWait", ["actor": party(e.actor), "since": ms(e.time), "until": ms(deadline),
                                                               "duration": ms(deadline - e.time)]))
                    waited = true
                }
            }
            if !waited { lines.append(say("walk.summary.closed")) }
        case .http(let overTLS):
            var requests = 0, responses = 0
            for e in events where e.connection == connection {
                if case .http(.requestSent) = e.kind, e.actor == .client { requests += 1 }
                if case .http(.responseReceived) = e.kind, e.actor == .client { responses += 1 }
            }
            lines.append(say(overTLS ? "walk.summary.http" : "walk.summary.httpPlain", ["requests": "\(requests)", "responses": "\(responses)"]))
        default:
            return nil
        }
        return lines
    }

}
