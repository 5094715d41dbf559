import TCPSim
import TLSEngine
import Trace

/// The walk's opening screen (the story of the run, the parties, the keys) and the summary that
/// closes each phase, both read off the trace's facts and worded by the catalogue.
extension Walkthrough {
    static func opening(title: String, about: String?, page: LessonPage?, trace: Trace, renderer: TextRenderer) -> Step {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { renderer.explanations(key, values) ?? key }
        func party(_ actor: Actor) -> String { say("party.\(actor.rawValue)") }
        // A lesson opens with its own title; its file name follows in the lesson line.
        let heading = "── " + say("walk.opening.title", ["title": page?.title ?? title]) + " ──"
        var detail: [String] = []
        if let about { detail.append(about) }
        if let page {
            let kind = renderer.explanations("lesson.kind.\(page.kind)") ?? page.kind
            detail.append(say("lesson.header", ["name": page.name, "kind": kind]))
            detail += page.description.trimmingTrailingWhitespace().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            detail.append("")
        }
        // Who talks to whom, read off the wire.
        let metadata = trace.wireMetadata
        if let client = metadata?.client, let server = metadata?.server {
            var values = ["client": "\(client)", "server": "\(server)"]
            values["host"] = metadata?.serverName
            let usedTLS = trace.summary.usedTLS
            let key = usedTLS ? (values["host"] == nil ? "walk.story.partiesTLS" : "walk.story.partiesTLSHost")
                : "walk.story.partiesPlain"
            detail.append(say(key, values))
        } else if !trace.isLessonOnly, trace.summary.clientTraced != trace.summary.serverTraced {
            detail.append(say("walk.story.oneSided", ["side": party(trace.summary.clientTraced ? .client : .server)]))
        }
        if !trace.isLessonOnly {
            detail.append(say(trace.hasAttacker ? "walk.story.attacker" : "walk.story.eavesdropper"))
        }
        // What will be shown: the phases, in order.
        var phases: [String] = []
        for e in trace.events {
            guard case .phase(let phase) = e.kind else { continue }
            let name = renderer.explanations.phaseName(phase, connection: e.connection)
            if phases.last != name { phases.append(name) }
        }
        if !phases.isEmpty { detail.append(say("walk.story.phases", ["phases": phases.joined(separator: " → ")])) }
        if !trace.isATSDecision { detail.append(say("walk.story.ladder")) }
        detail.append(say("walk.opening.begin"))
        detail.append("")
        detail.append(say("walk.help.heading"))
        let keyWidth = keyBindings.map { DisplayWidth.columns($0.keys) }.max() ?? 0
        for binding in keyBindings {
            detail.append("  " + DisplayWidth.padded(binding.keys, to: keyWidth) + "   " + say(binding.meaning))
        }
        let ladder = DisplayWidth.columns(heading) > renderer.width
            ? HexdumpRenderer(width: renderer.width).wrap(heading, continuationIndent: 3) : [heading]
        return Step(kind: .opening, eventIndex: 0, ladder: ladder, detail: detail, detailWithBytes: detail)
    }

    /// What the phase that began at `events.lowerBound` achieved by the event before `events.upperBound`:
    /// TCP's open (segments, both ISNs confirmed), the handshake (suite, EMS, who knows what now),
    /// the close (TIME-WAIT until when), an HTTP exchange (requests and responses); nil for the rest.
    static func phaseSummary(_ phase: Phase, connection: Int, events range: Range<Int>, trace: Trace,
                             renderer: TextRenderer) -> Step? {
        guard range.count > 1 else { return nil }
        func say(_ key: String, _ values: [String: String] = [:]) -> String { renderer.explanations(key, values) ?? key }
        func party(_ actor: Actor) -> String { say("party.\(actor.rawValue)") }
        let events = trace.events[range]
        let ms = { (t: Int64) in TextRenderer.timeText(t) }
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
            } else if let suite = s.cipherSuite, let version = s.version {
                lines.append(say(s.extendedMasterSecret ? "walk.summary.tlsEMS" : "walk.summary.tlsNoEMS",
                                 ["version": "\(version)", "suite": "\(suite)"]))
                if s.resumed { lines.append(say("walk.summary.resumed")) }
            } else {
                lines.append(say("walk.summary.tlsUnfinished"))
            }
            if connection == 0 {
                let prefix = Trace(events: Array(trace.events.prefix(range.upperBound)), participants: trace.participants,
                                   streamSpans: trace.streamSpans)
                let rows = prefix.knowledge.rows.filter { !$0.changedInFlight && !$0.derivedDifferently }
                let both = rows.filter { $0.client && $0.server }.map { renderer.secretName($0.secret) }
                let eavesdropper = rows.filter(\.eavesdropper).map { renderer.secretName($0.secret) }
                let none = say("walk.summary.nothing")
                lines.append(say("walk.summary.knows", ["both": both.isEmpty ? none : both.joined(separator: say("list.separator")),
                                                        "eavesdropper": eavesdropper.isEmpty ? none : eavesdropper.joined(separator: say("list.separator"))]))
            }
        case .closing:
            var waited = false
            for e in trace.events where e.connection == connection {
                guard case .tcp(.connection(_, .stateChanged(_, .timeWait, _))) = e.kind else { continue }
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
                    lines.append(say("walk.summary.timeWait", ["actor": party(e.actor), "since": ms(e.time), "until": ms(deadline),
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
        let name = renderer.explanations.phaseName(phase, connection: connection)
        let last = range.upperBound - 1
        let row = renderer.row(renderer.time(trace.events[last].time), "✓ " + say("walk.summary.heading", ["phase": name]))
        return Step(kind: .phaseSummary, eventIndex: last, ladder: Self.lines(row), detail: lines, detailWithBytes: lines)
    }

    static func lines(_ entry: String) -> [String] { lines([entry]) }
}
