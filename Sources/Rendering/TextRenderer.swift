import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// Renders a trace as a ladder of lines: time on the left, who sends to whom, the TCP flags,
/// seq/ack/len or the TLS message, and — at the normal level — what it means and the values
/// derived, with their inputs. Pure: a trace in, lines out.
public struct TextRenderer: Sendable {
    public enum Verbosity: String, Sendable, CaseIterable {
        /// TLS messages and the outcome only.
        case summary
        /// Plus TCP segments, explanations, derived values and the knowledge panel.
        case normal
        /// Plus the annotated bytes of every handshake message.
        case bytes
    }

    public var verbosity: Verbosity
    public var width: Int
    public var color: Bool
    public var explanations: Explanations
    /// Long values (secrets, keys, randoms) in full instead of `03037e6c…a603235b` (`--full`).
    public var fullValues = false
    /// Columns and stream map for the trace being drawn (`prepared(for:)`).
    var layout = Layout()
    /// How ladder rows are drawn: for print (the default), or for the interactive walkthrough, whose
    /// sticky column header carries the time unit, whose rails narrow with the screen, whose rows
    /// name no parties in words (the arrow and the header do) and whose detail lines carry no rails
    /// (the walkthrough wraps them to the screen itself).
    public var ladderStyle: LadderStyle = .printed

    public enum LadderStyle: Sendable, Hashable { case printed, walkthrough }

    public init(verbosity: Verbosity = .normal, width: Int = 100, color: Bool = false,
                explanations: Explanations = .english) {
        self.verbosity = verbosity
        self.width = max(width, 60)
        self.color = color
        self.explanations = explanations
    }

    public func render(_ trace: Trace) -> [String] {
        let r = prepared(for: trace)
        // An ATS decision has no ladder: no column header.
        var lines: [String] = trace.isATSDecision ? [] : r.columnHeader()
        let document = r.document(for: trace)
        let panels = verbosity != .summary && !document.oneSided && !trace.isLessonOnly
        var keyPoints = KeyPoints()
        for (index, event) in trace.events.enumerated() {
            lines += r.print(document.steps[index].entries)
            // The knowledge panel at the key points of the first connection.
            if panels, let moment = keyPoints.passed(event) {
                lines += r.knowledgePanel(document.knowledge(after: index), moment: moment, remarks: false)
            }
        }
        if !trace.isLessonOnly {
            lines += r.print(r.outcome(trace))
            lines += r.statistics(trace)
        }
        // A real peer's trace has no wire and no second party to measure knowledge from.
        if panels { lines += r.knowledgePanel(trace.knowledge, moment: "knowledge.atTheEnd", metadata: trace.wireMetadata) }
        return lines.flatMap(r.fitToWidth)
    }

    /// The renderer's title line, wrapped to the width like every other line.
    public func title(_ text: String) -> [String] {
        HexdumpRenderer(width: width).wrap(text, continuationIndent: 2).map { style($0, .heading) }
    }

    /// Where the run passes a key point of its first connection: both sides hold the master secret
    /// and the session keys (the key exchange is complete), both sides checked Finished.
    struct KeyPoints {
        var derived: Set<Actor> = []
        var completed: Set<Actor> = []
        var keyExchangeShown = false, finishedShown = false

        /// The catalogue key naming the moment just passed, if one was.
        mutating func passed(_ event: TraceEvent) -> String? {
            guard event.connection == 0, case .tls(let tls) = event.kind else { return nil }
            switch tls {
            case .derived(.keyBlock):
                derived.insert(event.actor)
                if !keyExchangeShown, derived.count == 2 {
                    keyExchangeShown = true
                    return "knowledge.afterKeyExchange"
                }
            case .handshakeCompleted:
                completed.insert(event.actor)
                if !finishedShown, completed.count == 2 {
                    finishedShown = true
                    return "knowledge.afterFinished"
                }
            default:
                break
            }
            return nil
        }
    }

    /// This renderer laid out for `trace`: its columns (client, attacker when there is one,
    /// server), the width of the time column, and which stream bytes carry which TLS message.
    public func prepared(for trace: Trace) -> TextRenderer {
        var r = self
        r.layout = Layout(trace: trace, width: width, walkthrough: ladderStyle == .walkthrough)
        return r
    }

    /// One output line per element, none wider than `width` columns: entries holding several
    /// lines are split, long lines wrap under their own indentation (colour kept on each piece).
    func fitToWidth(_ entry: String) -> [String] {
        entry.split(separator: "\n", omittingEmptySubsequences: false).flatMap { part -> [String] in
            let line = String(part)
            var code: String?
            var plain = line
            if color, line.hasPrefix("\u{1B}["), let m = line.firstIndex(of: "m"), line.hasSuffix("\u{1B}[0m") {
                code = String(line[line.index(line.startIndex, offsetBy: 2)..<m])
                plain = String(line[line.index(after: m)..<line.index(line.endIndex, offsetBy: -4)])
            }
            // Text a real peer sent (HTTP request target, headers, body) must not drive the terminal.
            plain = TerminalText.escaped(plain)
            guard DisplayWidth.columns(plain) > width else { return [code.map { "\u{1B}[\($0)m\(plain)\u{1B}[0m" } ?? plain] }
            let indent = plain.prefix { $0 == " " }.count
            let pieces = HexdumpRenderer(width: width).wrap(plain, continuationIndent: indent + 2)
            return pieces.map { piece in code.map { "\u{1B}[\($0)m\(piece)\u{1B}[0m" } ?? piece }
        }
    }

    /// A trace of one side only (`tlslab connect` / `serve`: the peer is a real program): TLS events
    /// by the client or by the server, not both, and no attacker.
    /// "a", "a and b", "a, b and c" (nothing: "no protocol"), in the catalogue's words.
    func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return say("list.none")
        case 1: return items[0]
        default: return items.dropLast().joined(separator: say("list.separator")) + say("list.lastSeparator") + (items.last ?? "")
        }
    }

    /// An actor's name in the catalogue's language ("client", "客户端").
    func name(_ actor: Actor) -> String { explanations.actorName(actor.rawValue) }

    /// A public-key operation the simulation timed, in the catalogue's words.
    func operationName(_ operation: ComputeOperation) -> String { explanations.operationName(operation) }

    static func isOneSided(_ trace: Trace) -> Bool {
        var client = false, server = false
        for event in trace.events {
            guard case .tls = event.kind else { continue }
            switch event.actor {
            case .client: client = true
            case .server: server = true
            default: return false
            }
        }
        return client != server
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
        var atsRules = 0
        var dhGroup: (p: Int, g: Int)?
        /// The SYNs seen on each direction (sender's endpoint first): their sequence number and
        /// whether it was the network's late copy of an old one, so a SYN-ACK says whose SYN it answers.
        var syns: [Layout.Pair: [(seq: UInt32, stale: Bool)]] = [:]
    }

    // MARK: Events

    func render(_ event: TraceEvent, state: inout LadderState) -> [LadderEntry] {
        let t = time(event.time)
        switch event.kind {
        case .phase(let phase):
            switch phase {
            case .http2: state.http2 = true
            case .http, .http2NotSelected, .unspokenApplicationProtocol: state.http2 = false
            default: break
            }
            let name = explanations.phaseName(phase, connection: event.connection)
            var out: [LadderEntry] = [.blank, .heading(name, line: "── \(name) " + String(repeating: "─", count: max(3, min(60, width - 4) - DisplayWidth.columns(name))))]
            let key = Explanations.explanationKey(phase, plainHTTP: state.plainHTTP) ?? ""
            if verbosity != .summary, !state.explained.contains(key), let text = explanations(key) {
                state.explained.insert(key)
                out += explain(text)
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
            return [row(t, at: event.actor, say("ladder.dropped", ["actor": name(event.actor), "what": what,
                                                                    "reason": explanations.sentence(undelivered.reason)]), .alert)]
        case .chainValidation(let validation):
            guard verbosity != .summary else { return [] }
            return chainValidationLines(validation, actor: event.actor, state: &state)
        case .compute(let operations, let duration):
            guard verbosity != .summary else { return [] }
            return [row(t, at: event.actor, say("ladder.compute", ["actor": name(event.actor), "ms": Self.timeText(duration, unit: false),
                                                                    "operations": operations.map(operationName).joined(separator: say("list.separator"))]))]
        case .tcp(let kind):
            if state.lessonOnly, case .connection(_, let e) = kind, !e.isRetransmission {
                return tcpLessonLines(e, time: t, actor: event.actor, at: event.time)
            }
            guard verbosity != .summary || state.lessonOnly else { return [] }
            return tcpLines(kind, time: t, actor: event.actor, state: &state)
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
                return [row(t, at: event.actor, say("ladder.http.response", ["actor": name(event.actor), "http": state.http2 ? "HTTP/2" : "HTTP",
                                                                          "line": firstLine(r, http2: state.http2)]))]
            case .failed(let why):
                return [row(t, at: event.actor, say("ladder.actorSays", ["actor": name(event.actor), "text": explanations.exchangeFailure(why)]), .alert)]
            case .requestReceived(let r) where state.oneSided && event.actor == .server:
                return [row(t, at: event.actor, say("ladder.http.requestReceived", ["actor": name(.server), "http": state.http2 ? "HTTP/2" : "HTTP",
                                                                                 "line": firstLine(r, http2: state.http2)]))]
            case .requestReceived, .responseSent:
                return []
            }
        case .http2(let h):
            return http2Lines(h, time: t, actor: event.actor, peer: event.counterpart, state: &state)
        }
    }
}
