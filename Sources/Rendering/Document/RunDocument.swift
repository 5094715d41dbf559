import HTTP2
import TCPSim
import TLSEngine
import Trace

/// One run as every teaching surface reads it, built once from the trace: a step per trace event
/// with its kind (a message or segment from one party to another on a connection, a party's own
/// action, a phase heading, a note beside every column), its time, what the ladder shows for it as
/// typed entries (row, values, sentences, bytes) and the handshake bytes or TCP header it sends
/// with their dissection; what each phase achieved (`summaries`); the knowledge after any step.
/// `RunDocumentBuilder` builds it in the catalogue's words; the terminal ladder prints it
/// (`LadderPrinter`, through `TextRenderer.render`), the walkthrough cuts it into stops and the
/// HTML page draws it: none of them reads another's printed lines.
public struct RunDocument: Sendable {
    public struct Step: Sendable {
        public enum Kind: Sendable, Hashable {
            /// A message, record or segment from one party to another on connection `connection`
            /// (`lost`: the network dropped it half-way).
            case message(from: Actor, to: Actor, connection: Int, lost: Bool)
            /// A party's own action: a state change, a value derived, a decision, an attack.
            case action(Actor)
            /// A phase of the run begins.
            case phaseHeading(Phase)
            /// Something beside every column (a lesson's table, the network's own note).
            case note
        }

        public var kind: Kind
        /// Index of the trace event.
        public var eventIndex: Int
        /// Virtual time of the event (µs).
        public var time: Int64
        /// What the ladder shows for the event, in order: its row or heading first, then its values
        /// and sentences; entries marked `bytesOnly` only with the annotated bytes.
        public var entries: [LadderEntry]
        /// The handshake message(s) the event sends, with their field-by-field dissection.
        public var message: MessageBytes?
        /// The TCP segment's header (the event sends, loses or injects one), field by field.
        public var segment: MessageBytes?
        /// The TLS records that carry what the step sends (`RecordPlacement` says which step shows which record).
        public var records: [RecordBytes] = []
        /// The calculations the event does, each a step a learner can redo (inputs, formula, output).
        public var calculations: [Calculation] = []
    }

    /// A message's bytes and their dissection, as `tlslab dissect` reads them.
    public struct MessageBytes: Sendable, Hashable {
        public var bytes: [UInt8]
        public var dissection: Dissection
    }

    /// One step per trace event, in the trace's order (an event the ladder does not show has no entries).
    public var steps: [Step]
    /// Only one side is traced (a real peer's run: `tlslab connect`, `serve`).
    public var oneSided: Bool
    /// What each phase achieved, in order (when the document was asked for them: the walkthrough).
    public var summaries: [PhaseSummary] = []
    /// The trace the document was built from (for the knowledge snapshots).
    let trace: Trace
    let snapshots: KnowledgeSnapshots

    init(steps: [Step], oneSided: Bool, summaries: [PhaseSummary], trace: Trace) {
        self.steps = steps
        self.oneSided = oneSided
        self.summaries = summaries
        self.trace = trace
        snapshots = KnowledgeSnapshots(trace: trace)
    }

    /// The knowledge snapshot after the event at `eventIndex`: who knows which secret once it has
    /// happened (computed when asked, once per event that can change it).
    public func knowledge(after eventIndex: Int) -> KnowledgeTable {
        snapshots.table(through: eventIndex)
    }
}

extension RunDocument {
    /// A time as the document writes it: milliseconds with one decimal, rounded to the nearest
    /// tenth ("0.9ms" for 882 µs, "160.9ms" for 160.882 ms; a half rounds up); without the unit
    /// where a header names it.
    public static func timeText(_ micros: Int64, unit: Bool = true) -> String {
        let tenths = (micros.magnitude + 50) / 100
        return (micros < 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)" + (unit ? "ms" : "")
    }
}

extension Trace {
    /// A trace of one side only (`tlslab connect` / `serve`: the peer is a real program): TLS
    /// events by the client or by the server, not both, and no attacker.
    var isOneSided: Bool {
        var client = false, server = false
        for event in events {
            guard case .tls = event.kind else { continue }
            switch event.actor {
            case .client: client = true
            case .server: server = true
            default: return false
            }
        }
        return client != server
    }

    /// Who knows what once the event at `index` has happened: the knowledge of the trace up to it.
    func knowledge(through index: Int) -> KnowledgeTable {
        Trace(events: Array(events.prefix(index + 1)), participants: participants, streamSpans: streamSpans).knowledge
    }
}

extension RunDocument {
    /// What an event is on the ladder, from the event's own facts: who sent a segment (the actor)
    /// and to whom (the party owning the destination address), who sent a TLS or HTTP message and
    /// to whom (the actor and its peer on that connection), who acted alone.
    /// `replaced`: an attacker on the path kept the segment the event sent, passing on its own copy
    /// (`PacketIndex.isReplaced`): the segment goes to the attacker.
    static func kind(of event: TraceEvent, participants: [IPv4Address: Actor], oneSided: Bool, replaced: Bool = false) -> Step.Kind {
        func owner(_ address: IPv4Address, or fallback: Actor) -> Actor { participants[address] ?? fallback }
        let usualPeer: Actor = event.actor == .client ? .server : .client
        let connection = event.connection
        func message(_ from: Actor, _ to: Actor, lost: Bool = false) -> Step.Kind {
            .message(from: from, to: to, connection: connection, lost: lost)
        }
        let alone: Step.Kind = [.client, .server, .attacker, .eavesdropper].contains(event.actor) ? .action(event.actor) : .note
        switch event.kind {
        case .phase(let phase):
            return .phaseHeading(phase)
        case .tcp(.sent(let p)):
            return message(event.actor, replaced ? .attacker : owner(p.destination, or: usualPeer))
        case .tcp(.forwarded(let p, _)):
            // The attacker's changed copy of a segment, sent on its leg towards the receiver.
            return message(.attacker, owner(p.destination, or: .server))
        case .tcp(.dropped(let p, _)):
            return message(event.actor, owner(p.destination, or: usualPeer), lost: true)
        case .tcp(.injected(let p)) where event.actor == .network:
            // The network's stale copy of a segment an earlier connection's sender sent.
            return message(owner(p.source, or: .client), owner(p.destination, or: .server))
        case .tcp(.injected(let p)):
            // Sent by the attacker, whatever source address it wrote.
            return message(.attacker, owner(p.destination, or: .server))
        case .tls(.handshakeSent), .tls(.changeCipherSpecSent), .tls(.alertSent):
            return message(event.actor, event.counterpart)
        case .tls(.handshakeReceived), .tls(.changeCipherSpecReceived), .tls(.alertReceived):
            // Drawn only when the sender is a real peer that is not traced.
            return oneSided ? message(event.counterpart, event.actor) : alone
        case .http(.requestSent), .http(.requestRetried):
            return message(event.actor, event.counterpart)
        case .http2(.prefaceSent), .http2(.frameSent):
            return message(event.actor, event.counterpart)
        case .http2(.prefaceReceived), .http2(.frameReceived):
            return oneSided ? message(event.counterpart, event.actor) : alone
        case .lesson(.dh(.sent(let side, _))):
            return message(side, side == .client ? .server : .client)
        default:
            return alone
        }
    }
}
