import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// Builds a run's document (`RunDocument`) from its trace, once, in the catalogue's words: each
/// event's step with its kind, its entries (rows, values, explanations), its bytes; what each
/// phase achieved; the outcome. It depends on the catalogue (`explanations`), the level of detail
/// (`verbosity`), the width sentences are laid out to and the ladder's layout, never on a printer:
/// the terminal printer (`LadderPrinter`, used by `TextRenderer`), the walkthrough and the HTML page
/// consume what it builds.
struct RunDocumentBuilder: CatalogueWording, Sendable {
    var verbosity: Verbosity
    var width: Int
    var explanations: Explanations
    /// Long values (secrets, keys, randoms) in full instead of `03037e6c…a603235b` (`--full`).
    var fullValues = false
    /// Columns, time width and stream map for the trace being built (`prepared(for:)`).
    var layout = LadderLayout()
    /// For print, or for the walkthrough (times without their unit, rows that name no parties).
    var ladderStyle: LadderStyle = .printed

    init(verbosity: Verbosity = .normal, width: Int = 100, explanations: Explanations = .english,
         fullValues: Bool = false, layout: LadderLayout = LadderLayout(), ladderStyle: LadderStyle = .printed) {
        self.verbosity = verbosity
        self.width = width
        self.explanations = explanations
        self.fullValues = fullValues
        self.layout = layout
        self.ladderStyle = ladderStyle
    }

    /// This builder laid out for `trace`.
    func prepared(for trace: Trace) -> RunDocumentBuilder {
        var b = self
        b.layout = LadderLayout(trace: trace, width: width, walkthrough: ladderStyle == .walkthrough)
        return b
    }

    /// The run's document in this builder's words and layout (its verbosity, style and language).
    /// `explainingEveryStep`: each event's explanation is given wherever its kind comes again (the
    /// walkthrough's steps stand on their own), not once per run (the printed ladder).
    /// `summarizingPhases`: with what each phase achieved (`summaries`).
    func document(for trace: Trace, explainingEveryStep: Bool = false, summarizingPhases: Bool = false) -> RunDocument {
        var state = LadderState()
        state.participants = trace.participants
        state.plainHTTP = !trace.summary.usedTLS
        state.oneSided = trace.isOneSided
        state.lessonOnly = trace.isLessonOnly
        state.tls13 = trace.usesTLS13
        state.olderThanTLS13 = Set(trace.events.map(\.connection)).filter { c in trace.summary(connection: c).version.map { $0 < .tls13 } ?? false }
        state.tls13Retry = trace.events.contains { if case .tls(.tls13(.helloRetryRequested)) = $0.kind { true } else { false } }
        state.tls13Resumed = Set(trace.events.compactMap { e in
            if case .tls(.tls13(.pskAccepted)) = e.kind { e.connection } else { nil } })
        state.tls13EarlyData = Set(trace.events.compactMap { e in
            if e.actor == .server, case .tls(.tls13(.earlyDataAccepted)) = e.kind { e.connection } else { nil } })
        state.packets = PacketIndex(trace)
        state.events = trace.events
        var steps: [RunDocument.Step] = []
        steps.reserveCapacity(trace.events.count)
        var records = RecordPlacement()
        var calculationState = CalculationState()
        var pendingCalculations: [Actor: [Calculation]] = [:]
        var calculationOrder = CalculationOrder()
        var lastCalculationStep: [Actor: Int] = [:]
        for (index, event) in trace.events.enumerated() {
            if explainingEveryStep { state.explained = [] }
            let kind = RunDocument.kind(of: event, participants: trace.participants, oneSided: state.oneSided,
                                        replaced: state.packets.isReplaced(event))
            var entries = entries(for: event, state: &state)
            // The arrow joins the parties the event names: the row is drawn from the step's kind.
            if case .message(let from, let to, _, let lost) = kind,
               let first = entries.firstIndex(where: { $0.mark != nil }),
               case .row(let time, var mark, let text) = entries[first].form, mark.to != nil {
                mark.from = from
                mark.to = to
                mark.lost = lost
                entries[first].form = .row(time: time, mark: mark, text: text)
                entries[first].label = labelParts(for: event, state: state)
            }
            // A generic sentence names the step's real sender and receiver (behind a MITM, the attacker).
            if case .message(let from, let to, _, _) = kind { nameParties(from: from, to: to, in: &entries) }
            var message: RunDocument.MessageBytes?
            if case .tls(.handshakeSent(_, let wire)) = event.kind {
                message = RunDocument.MessageBytes(bytes: wire, dissection: dissection(of: wire, state: state))
            }
            var segment: RunDocument.MessageBytes?
            switch event.kind {
            case .tcp(.sent(let p)), .tcp(.dropped(let p, _)), .tcp(.injected(let p)), .tcp(.forwarded(let p, _)):
                segment = TCPHeaderDissection.dissect(p)
            default: break
            }
            steps.append(RunDocument.Step(kind: kind, eventIndex: index, time: event.time, entries: entries, message: message, segment: segment))
            if verbosity == .bytes {
                // A calculation whose event has no line of its own (the Finished MAC the engine computes
                // before it sends or checks a Finished) goes with the same side's next step that has one.
                let made = (pendingCalculations.removeValue(forKey: event.actor) ?? []) + calculations(for: event, state: &calculationState)
                if steps[steps.count - 1].entries.contains(where: { !$0.isBlank && !$0.bytesOnly }) {
                    steps[steps.count - 1].calculations = calculationOrder.place(made, connection: event.connection)
                    if !steps[steps.count - 1].calculations.isEmpty { lastCalculationStep[event.actor] = steps.count - 1 }
                } else if !made.isEmpty {
                    pendingCalculations[event.actor] = made
                }
            }
            for (step, record) in records.place(event, step: steps.count - 1) { steps[step].records.append(record) }
        }
        // A box whose secret's step was never shown goes with its side's last calculations.
        for (actor, waiting) in calculationOrder.unreleased {
            if let step = lastCalculationStep[actor] { steps[step].calculations += waiting }
        }
        return RunDocument(steps: steps, oneSided: state.oneSided, summaries: summarizingPhases ? phaseSummaries(trace) : [], trace: trace)
    }

    struct LadderState {
        var tcpAcks = 0
        var explained: Set<String> = []
        var keyExchange: KeyExchangeAlgorithm?
        /// The suite the ServerHello chose, so later messages (ClientKeyExchange) dissect in full.
        var cipherSuite: CipherSuite?
        var participants: [IPv4Address: Actor] = [:]
        var plainHTTP = false
        /// The HTTP phase under way is HTTP/2 (the trace's `Phase.http2`): its messages are field
        /// lists (pseudo-headers first), not HTTP/1.x text.
        var http2 = false
        /// Only one side is traced: the peer's messages are shown as they arrive.
        var oneSided = false
        /// The protocols the last ClientHello offered with ALPN (RFC 7301), for the ServerHello's sentence.
        var alpnOffered: [ProtocolName] = []
        /// ClientHello.client_version of the last ClientHello, beside the version its record header carries.
        var clientHelloVersion: ProtocolVersion?
        /// What the ladder says about a record a side just sealed, shown under the next TCP segment
        /// that side sends (the segment that carries it); each said once a run.
        var recordNotes: [Actor: [LadderEntry]] = [:]
        var recordVersionShown = false, gcmValuesShown = false
        /// An attacker changed a handshake byte; the sentence saying which check caught it waits for the alert.
        var tamperPending = false
        /// A lesson without TLS or HTTP (TCP alone, ATS, DH): TCP is drawn at every level, with
        /// state-change causes and timers; ATS rules are numbered; the DH group is remembered.
        var lessonOnly = false
        /// The run speaks TLS 1.3 (RFC 8446): its messages and phase take the 1.3 sentences.
        var tls13 = false
        /// The TLS 1.3 server asked for another key share (HelloRetryRequest): two round trips.
        var tls13Retry = false
        /// Connections whose client offered TLS 1.3 but which negotiated an older version.
        var olderThanTLS13: Set<Int> = []
        /// The connections whose TLS 1.3 handshake resumed with a PSK.
        var tls13Resumed: Set<Int> = []
        /// Connections whose server accepted 0-RTT data (RFC 8446 §2.3).
        var tls13EarlyData: Set<Int> = []
        /// The sides whose first TLS 1.3 protected record the ladder has described.
        var protectedRecordShown: Set<Actor> = []
        var atsRules = 0
        var dhGroup: (p: Int, g: Int)?
        /// Which event put each numbered packet on the wire, and which segments an attacker replaced:
        /// a SYN-ACK names the packet it answers, an attacker's copy the segment it replaces.
        var packets = PacketIndex()
        /// The trace's events (to read the event a packet number names).
        var events: [TraceEvent] = []
    }

    /// A message row's label as typed parts: a segment's flags, numbers and what it carries; a TLS
    /// message's name and size.
    func labelParts(for event: TraceEvent, state: LadderState) -> [LadderEntry.LabelPart] {
        switch event.kind {
        case .tcp(.sent(let p)), .tcp(.dropped(let p, _)): return segmentLabel(p)
        case .tcp(.forwarded(let p, _)):
            // The copy carries the bytes of the segment it replaces (the attacker may have moved its seq).
            var parts = segmentLabel(p).filter { if case .carried = $0 { false } else { true } }
            let names = replacedSegment(event.packetLinks, state: state).map { carriedNames($0) } ?? []
            if !names.isEmpty { parts.append(.carried(names)) }
            return parts
        case .tcp(.injected(let p)) where event.actor == .network:
            // The network's stale copy carries nothing of this connection's stream.
            return segmentLabel(p).filter { if case .carried = $0 { false } else { true } }
        case .tcp(.injected(let p)): return segmentLabel(p, injected: true)
        case .tls(.handshakeSent(let message, let wire)): return [.protocolName("TLS"), .message(messageName(message)), .bytes(wire.count)]
        case .tls(.changeCipherSpecSent): return [.protocolName("TLS"), .message("ChangeCipherSpec")]
        case .tls(.alertSent(let alert, _)): return [.protocolName("TLS"), .message("Alert \(alert)")]
        default: return []
        }
    }

    /// Sets the `sender` and `receiver` of the sentences of a message's step to the step's parties
    /// and words them again.
    func nameParties(from: Actor, to: Actor, in entries: inout [LadderEntry]) {
        for i in entries.indices {
            guard var sentence = entries[i].sentence, case .sentence(_, let indent) = entries[i].form else { continue }
            if sentence.values["sender"] != nil { sentence.values["sender"] = from.rawValue }
            if sentence.values["receiver"] != nil { sentence.values["receiver"] = to.rawValue }
            guard sentence != entries[i].sentence else { continue }
            entries[i].sentence = sentence
            entries[i].form = .sentence(explanations.sentence(sentence), indent: indent)
        }
    }

    /// The entries of one event, in the catalogue's words; `state` carries what earlier events
    /// told (the suite, what was explained already, the SYNs seen).
    func entries(for event: TraceEvent, state: inout LadderState) -> [LadderEntry] {
        let t = time(event.time)
        switch event.kind {
        case .phase(let phase):
            switch phase {
            case .http2: state.http2 = true
            case .http, .http2NotSelected, .unspokenApplicationProtocol: state.http2 = false
            default: break
            }
            let name = explanations.phaseName(phase, connection: event.connection)
            // The section rule every heading uses (65 columns, or the width), so all headings end in one column.
            var out: [LadderEntry] = [.blank, .heading(name, line: rule(name))]
            var key = Explanations.explanationKey(phase, plainHTTP: state.plainHTTP) ?? ""
            if state.tls13, case .tlsHandshake = phase, state.olderThanTLS13.contains(event.connection) {
                key = "phase.tls13.offeredOlderChosen"
            } else if state.tls13, case .tlsHandshake = phase {
                key = state.tls13EarlyData.contains(event.connection) ? "phase.tls13.earlyData"
                    : state.tls13Resumed.contains(event.connection) ? "phase.tls13.resumed" : state.tls13Retry ? "phase.tls13.retry" : "phase.tls13"
            }
            if verbosity != .summary, !state.explained.contains(key), explanations(key) != nil {
                state.explained.insert(key)
                out += explain(Sentence(key))
            }
            return out
        case .attack(let a):
            return attackLines(a, time: t, actor: event.actor, state: &state)
        case .dropped(let undelivered):
            guard verbosity != .summary else { return [] }
            let what: String
            switch undelivered.content {
            case .handshake(let m, _): what = "TLS " + messageName(m)
            case .changeCipherSpec: what = "TLS ChangeCipherSpec"
            case .alert(let alert): what = "TLS Alert \(alert)"
            }
            return [row(t, at: event.actor, namesActor: true, say("ladder.dropped", ["actor": name(event.actor), "what": what,
                                                                    "reason": explanations.dropReason(undelivered.reason, receiver: event.actor)]), .alert)]
        case .chainValidation(let validation):
            guard verbosity != .summary else { return [] }
            return chainValidationLines(validation, actor: event.actor, state: &state)
        case .compute(let operations, let duration):
            guard verbosity != .summary else { return [] }
            return [row(t, at: event.actor, namesActor: true, say("ladder.compute", ["actor": name(event.actor), "ms": RunDocument.timeText(duration, unit: false),
                                                                    "operations": operations.map(operationName).joined(separator: say("list.separator"))]))]
        case .tcp(let kind):
            if state.lessonOnly, case .connection(_, let e) = kind, !e.isRetransmission {
                return tcpLessonLines(e, time: t, actor: event.actor, at: event.time)
            }
            guard verbosity != .summary || state.lessonOnly else { return [] }
            return tcpLines(kind, time: t, actor: event.actor, links: event.packetLinks, state: &state)
        case .lesson(let lesson):
            return lessonLines(lesson, time: t, actor: event.actor, state: &state)
        case .tls(let tls):
            return tlsLines(tls, time: t, actor: event.actor, peer: event.counterpart, state: &state)
        case .http(let h):
            switch h {
            case .requestSent(let r):
                let http2 = state.http2
                let carrier = say(state.plainHTTP ? (http2 ? "ladder.http.carrier.h2Plain" : "ladder.http.carrier.plain")
                    : (http2 ? "ladder.http.carrier.h2TLS" : "ladder.http.carrier.tls"))
                return [row(t, from: event.actor, to: event.counterpart, say("ladder.http.request", ["carrier": carrier, "line": firstLine(r, http2: http2)]))]
            case .requestRetried(let r, let refused):
                return [row(t, from: event.actor, to: event.counterpart,
                            say("ladder.http.retried", ["stream": "\(refused)", "line": firstLine(r, http2: state.http2)]))]
            case .responseReceived(let r):
                return [row(t, at: event.actor, namesActor: true, say("ladder.http.response", ["actor": name(event.actor), "http": state.http2 ? "HTTP/2" : "HTTP",
                                                                          "line": firstLine(r, http2: state.http2)]))]
            case .failed(let why):
                return [row(t, at: event.actor, namesActor: true, say("ladder.actorSays", ["actor": name(event.actor), "text": explanations.exchangeFailure(why)]), .alert)]
            case .requestReceived(let r) where state.oneSided && event.actor == .server:
                return [row(t, at: event.actor, namesActor: true, say("ladder.http.requestReceived", ["actor": name(.server), "http": state.http2 ? "HTTP/2" : "HTTP",
                                                                                 "line": firstLine(r, http2: state.http2)]))]
            case .requestReceived, .responseSent:
                return []
            }
        case .http2(let h):
            return http2Lines(h, time: t, actor: event.actor, peer: event.counterpart, state: &state)
        }
    }
}
