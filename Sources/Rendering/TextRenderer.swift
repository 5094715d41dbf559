import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine

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
    /// Columns and stream map for the trace being drawn (`prepared(for:)`).
    var layout = Layout()

    public init(verbosity: Verbosity = .normal, width: Int = 100, color: Bool = false,
                explanations: Explanations = .english) {
        self.verbosity = verbosity
        self.width = max(width, 60)
        self.color = color
        self.explanations = explanations
    }

    public func render(_ trace: Trace) -> [String] {
        let r = prepared(for: trace)
        var lines: [String] = r.columnHeader()
        var state = LadderState()
        state.participants = trace.participants
        state.plainHTTP = !trace.summary.usedTLS
        state.oneSided = Self.isOneSided(trace)
        let panels = verbosity != .summary && !state.oneSided
        var keyPoints = KeyPoints()
        for (index, event) in trace.events.enumerated() {
            lines += r.render(event, state: &state)
            // The knowledge panel at the key points of the first connection.
            if panels, let moment = keyPoints.passed(event) {
                let prefix = Trace(events: Array(trace.events.prefix(index + 1)), participants: trace.participants,
                                   streamSpans: trace.streamSpans)
                lines += r.knowledgePanel(prefix.knowledge, moment: moment, remarks: false)
            }
        }
        lines += r.outcome(trace)
        lines += r.statistics(trace)
        // A real peer's trace has no wire and no second party to measure knowledge from.
        if panels { lines += r.knowledgePanel(trace.knowledge, moment: "knowledge.atTheEnd") }
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
        r.layout = Layout(trace: trace, width: width, timeText: { time($0) })
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
            guard plain.count > width else { return [line] }
            let indent = plain.prefix { $0 == " " }.count
            let pieces = HexdumpRenderer(width: width).wrap(plain, continuationIndent: indent + 2)
            return pieces.map { piece in code.map { "\u{1B}[\($0)m\(piece)\u{1B}[0m" } ?? piece }
        }
    }

    /// A trace of one side only (`tlslab connect` / `serve`: the peer is a real program): TLS events
    /// by the client or by the server, not both, and no attacker.
    /// "a", "a and b", "a, b and c" (nothing: "no protocol").
    static func englishList(_ items: [String]) -> String {
        switch items.count {
        case 0: return "no protocol"
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
        }
    }

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
        /// Only one side is traced: the peer's messages are shown as they arrive.
        var oneSided = false
        /// The protocols the last ClientHello offered with ALPN (RFC 7301), for the ServerHello's sentence.
        var alpnOffered: [ProtocolName] = []
    }

    // MARK: Events

    func render(_ event: TraceEvent, state: inout LadderState) -> [String] {
        let t = time(event.time)
        switch event.kind {
        case .phase(let name):
            var out = ["", style("── \(name) " + String(repeating: "─", count: max(3, min(60, width - 4) - name.count)), .heading)]
            let key = name.hasPrefix("TCP") ? "phase.tcp" : name.hasPrefix("TLS") ? "phase.tls"
                : name.hasPrefix("HTTP/2 in the clear") ? "phase.h2c" : name.hasPrefix("HTTP/2") ? "phase.h2"
                : name.hasPrefix("HTTP") ? "phase.http" : name.hasPrefix("closing") ? (state.plainHTTP ? "phase.closePlain" : "phase.close") : ""
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
            return [row(t, at: event.actor, "\(event.actor.rawValue) drops \(what) unprocessed: \(explanations.sentence(undelivered.reason))", .alert)]
        case .chainValidation(let validation):
            guard verbosity != .summary else { return [] }
            return chainValidationLines(validation, actor: event.actor, state: &state)
        case .compute(let operations, let duration):
            guard verbosity != .summary else { return [] }
            return [row(t, at: event.actor, "\(event.actor.rawValue) computes for \(duration / 1000) ms: \(operations.joined(separator: ", "))")]
        case .tcp(let kind):
            guard verbosity != .summary else { return [] }
            return tcpLines(kind, time: t, actor: event.actor, state: &state)
        case .tls(let tls):
            return tlsLines(tls, time: t, actor: event.actor, peer: event.counterpart, state: &state)
        case .http(let h):
            switch h {
            case .requestSent(let r):
                let http2 = r.hasPrefix(":")
                let carrier = state.plainHTTP ? (http2 ? "HTTP/2 frames in the clear, no TLS" : "in plain text, no TLS")
                    : (http2 ? "HTTP/2 frames inside TLS application data" : "inside TLS application data")
                return [row(t, from: event.actor, to: event.counterpart, "HTTP request (\(carrier)): \(firstLine(r))")]
            case .requestRetried(let r, let refused):
                return [row(t, from: event.actor, to: event.counterpart,
                            "HTTP request again on a new stream (stream \(refused) was refused, so it was never processed): \(firstLine(r))")]
            case .responseReceived(let r):
                return [row(t, at: event.actor, "\(event.actor.rawValue) received the HTTP\(r.hasPrefix(":") ? "/2" : "") response: \(firstLine(r))")]
            case .failed(let why):
                return [row(t, at: event.actor, "\(event.actor.rawValue): \(why)", .alert)]
            case .requestReceived(let r) where state.oneSided && event.actor == .server:
                return [row(t, at: event.actor, "server received the HTTP\(r.hasPrefix(":") ? "/2" : "") request: \(firstLine(r))")]
            case .requestReceived, .responseSent:
                return []
            }
        case .http2(let h):
            return http2Lines(h, time: t, actor: event.actor, peer: event.counterpart, state: &state)
        }
    }

    /// HTTP/2: how it was chosen, the preface, and each frame as its sender writes it (the
    /// receiver's copy is the same frame, so it is not repeated), with HPACK's sizes.
    func http2Lines(_ h: HTTP2Event, time t: String, actor: Actor, peer: Actor, state: inout LadderState) -> [String] {
        var out: [String] = []
        var key: String?
        switch h {
        case .chosen(let how):
            out.append(row(t, at: actor, how == .h2
                ? "\(actor.rawValue) speaks HTTP/2 over TLS: protocol \"h2\" (RFC 9113 §3.2)"
                : "\(actor.rawValue) speaks HTTP/2 in the clear: \"h2c\" with prior knowledge (RFC 9113 §3.3)"))
            key = how == .h2 ? "h2.chosen.tls" : "h2.chosen.h2c"
        case .prefaceSent:
            out.append(row(t, from: actor, to: peer, "HTTP/2 connection preface \"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n\" (24 bytes)"))
            key = "h2.preface"
        case .prefaceReceived where state.oneSided:
            // A real peer's trace (`tlslab serve`, `connect`): the other side's frames exist only as
            // received here, so they are drawn from it, as if it had traced them.
            return http2Lines(.prefaceSent, time: t, actor: peer, peer: actor, state: &state)
        case .frameReceived(let f) where state.oneSided:
            return http2Lines(.frameSent(f), time: t, actor: peer, peer: actor, state: &state)
        case .prefaceReceived, .frameReceived:
            return []
        case .connectionError(let code, let why):
            return [row(t, at: actor, "\(actor.rawValue): HTTP/2 connection error \(code.name): \(why)", .alert)]
        case .streamError(let stream, let code, let why):
            return [row(t, at: actor, "\(actor.rawValue): HTTP/2 stream \(stream) is malformed, reset with \(code.name): \(why)", .alert)]
        case .peerConnectionError:
            return []  // its GOAWAY is drawn as received; the Outcome names the error
        case .frameSent(let f):
            var text = "HTTP/2 \(f.typeName) stream \(f.streamID)"
            let flags = f.flagNames
            if !flags.isEmpty { text += " [\(flags.joined(separator: ", "))]" }
            switch f.frame.payload {
            case .settings(let list) where !list.isEmpty:
                text += ": " + list.map { "\(HTTP2Setting(rawValue: $0.0)?.name ?? "0x\(String($0.0, radix: 16))")=\($0.1)" }.joined(separator: ", ")
                key = "h2.settings"
            case .settings:
                key = "h2.settingsAck"
            case .pushPromise(let promised, _):
                text += " promises stream \(promised)"
                key = "h2.push"
            case .data(let d):
                text += ": \(d.count) bytes of body"
                key = "h2.data"
            case .goaway(let last, let code, _):
                text += ": last stream \(last), \(HTTP2ErrorCode(rawValue: code)?.name ?? String(code))"
                // Graceful only with NO_ERROR; any other code ends the connection with that error.
                key = code == HTTP2ErrorCode.noError.rawValue ? "h2.goaway" : "h2.goawayError"
            case .rstStream(let code):
                text += ": \(HTTP2ErrorCode(rawValue: code)?.name ?? String(code))"
            case .windowUpdate(let increment):
                text += ": \(increment) more bytes may come"
                key = "h2.windowUpdate"
            case .headers:
                key = "h2.headers"
            default:
                break
            }
            if let hpack = f.hpack {
                let path = hpack.fields.first { $0.name == ":path" || $0.name == ":status" }.map { " \($0.name) \($0.value)," } ?? ""
                text += "\(f.frame.type == .pushPromise ? " —" : ":")\(path) \(hpack.fields.count) header fields, HPACK \(hpack.rawSize) → \(hpack.encodedSize) bytes"
                if hpack.indexedCount > 0 { text += " (\(hpack.indexedCount) from the tables)" }
                let fromDynamic = hpack.representations.contains {
                    if case .indexed(let i) = $0 { return i > HPACKStaticTable.count } else { return false }
                }
                // The note speaks of a later request repeating the first's fields (:authority,
                // cookie): it goes with the first request block that indexes them, not with a
                // response or a push that happens to reuse a dynamic entry earlier.
                if fromDynamic, actor == .client, f.frame.type == .headers, !state.explained.contains("h2.hpack") { key = "h2.hpack" }
            }
            out.append(row(t, from: actor, to: peer, text, state.plainHTTP ? .plain : .tls))
            if verbosity == .bytes { out += http2FrameBytes(f) }
        }
        if verbosity != .summary, let key, !state.explained.contains(key), let text = explanations(key) {
            state.explained.insert(key)
            out += explain(text)
        }
        return out
    }

    /// At `bytes` verbosity: the frame header's fields, the first payload octets, and how HPACK
    /// represented each header field (RFC 7541 §6).
    func http2FrameBytes(_ f: HTTP2FrameTrace) -> [String] {
        let wire = f.frame.encoded
        var out = [detail("frame header \(Hex.string(Array(wire.prefix(9)))): length \(f.length), type 0x\(String(wire[3], radix: 16)) \(f.typeName), flags 0x\(String(format: "%02x", wire[4])), stream \(f.streamID)", indent: 10)]
        let payload = wire.dropFirst(9)
        if !payload.isEmpty {
            out.append(detail("payload \(Hex.string(Array(payload.prefix(32))))\(payload.count > 32 ? "… (\(payload.count) bytes)" : "")", indent: 10))
        }
        guard let hpack = f.hpack else { return out }
        var fields = hpack.fields.makeIterator()
        for representation in hpack.representations {
            switch representation {
            case .sizeUpdate(let size):
                out.append(detail("dynamic table size update → \(size)", indent: 12))
            case .indexed(let index):
                let field = fields.next().map(\.description) ?? "?"
                out.append(detail("indexed \(index) (\(index <= HPACKStaticTable.count ? "static" : "dynamic")) → \(field)", indent: 12))
            case .literal(let field, let nameIndex, let indexing, let huffmanName, let huffmanValue):
                _ = fields.next()
                let how: String
                switch indexing {
                case .incremental: how = "literal, added to the dynamic table"
                case .without: how = "literal, not indexed"
                case .never: how = "literal, never indexed"
                }
                let name = nameIndex.map { "name from index \($0)" } ?? "literal name\(huffmanName ? " (Huffman)" : "")"
                out.append(detail("\(how); \(name); value\(huffmanValue ? " Huffman-coded" : " as is") → \(field)", indent: 12))
            }
        }
        out.append(detail("dynamic table now \(hpack.tableEntries) \(hpack.tableEntries == 1 ? "entry" : "entries"), \(hpack.tableSize) bytes", indent: 12))
        return out
    }

    func tcpLines(_ kind: TCPNetworkEvent.Kind, time t: String, actor: Actor, state: inout LadderState) -> [String] {
        switch kind {
        case .injected(let p):
            let s = p.segment
            let to = state.participants[p.destination] ?? .server
            return [row(t, from: .attacker, to: to, "TCP [\(s.flags.compact)] seq=\(s.seq.rawValue)\(s.ack.map { " ack=\($0.rawValue)" } ?? "") len=\(s.payload.count)\(carried(p)) — injected by the attacker, spoofed from \(p.source)", .alert)]
        case .sent(let p):
            let s = p.segment
            let receiver = state.participants[p.destination] ?? (actor == .client ? .server : .client)
            var text = "TCP [\(s.flags.compact)] seq=\(s.seq.rawValue)"
            if let ack = s.ack { text += " ack=\(ack.rawValue)" }
            text += " len=\(s.payload.count)" + carried(p)
            var out = [row(t, from: actor, to: receiver, text, .tcp)]
            if verbosity != .summary {
                let key: String? = s.flags.contains(.syn) ? (s.ack == nil ? "tcp.syn" : "tcp.synack")
                    : s.flags.contains(.fin) ? "tcp.fin"
                    : (state.tcpAcks == 0 && s.payload.isEmpty ? "tcp.ack3" : nil)
                if s.flags.compact == "A", s.payload.isEmpty { state.tcpAcks += 1 }
                if let key, !state.explained.contains(key), let text = explanations(key) {
                    state.explained.insert(key)
                    out += explain(text)
                }
            }
            return out
        case .dropped(let p, let reason):
            let receiver = state.participants[p.destination] ?? (actor == .client ? .server : .client)
            var out = [row(t, from: actor, to: receiver, lost: true,
                           "✗ lost: TCP [\(p.segment.flags.compact)] seq=\(p.segment.seq.rawValue) len=\(p.segment.payload.count)\(carried(p)) (\(reason.rawValue))", .alert)]
            if !state.explained.contains("tcp.drop"), let text = explanations("tcp.drop") {
                state.explained.insert("tcp.drop")
                out += explain(text)
            }
            return out
        case .connection(_, .retransmitted(let seg, let attempt)):
            var out = [row(t, at: actor, "\(actor.rawValue) retransmits seq=\(seg.seq.rawValue) len=\(seg.payload.count) (attempt \(attempt))", .alert)]
            if !state.explained.contains("tcp.retransmit"), let text = explanations("tcp.retransmit") {
                state.explained.insert("tcp.retransmit")
                out += explain(text)
            }
            return out
        case .connection(_, .stateChanged(let from, let to, _)):
            return [row(t, at: actor, "\(actor.rawValue): \(from) → \(to)")]
        default:
            return []
        }
    }

    /// The TLS messages (or records) whose bytes the segment carries, from the stream offsets the
    /// simulation recorded: " · ClientHello", " · Finished (encrypted, part)".
    func carried(_ p: TCPPacket) -> String {
        let names = layout.carried(p).map { item -> String in
            var name = spanName(item.span.content)
            var notes: [String] = []
            if item.span.encrypted, case .handshake = item.span.content { notes.append("encrypted") }
            if item.partial { notes.append("part") }
            if !notes.isEmpty { name += " (\(notes.joined(separator: ", ")))" }
            return name
        }
        return names.isEmpty ? "" : " · " + names.joined(separator: ", ")
    }

    func spanName(_ content: StreamSpan.Content) -> String {
        switch content {
        case .handshake(let type): return handshakeName(type)
        case .changeCipherSpec: return "ChangeCipherSpec"
        case .alert(let alert): return "Alert \(alert.alertDescription)"
        case .applicationData: return "application data"
        case .plainHTTP: return "HTTP (no TLS)"
        }
    }

    func tlsLines(_ event: TLSEvent, time t: String, actor: Actor, peer: Actor, state: inout LadderState) -> [String] {
        switch event {
        case .handshakeSent(let message, let bytes):
            return messageLines(message, bytes: bytes, from: actor, to: peer, time: t, state: &state)
        case .handshakeReceived(let message, let bytes) where state.oneSided:
            // The real peer is not traced: its message is shown as it arrived, with the same explanation.
            return messageLines(message, bytes: bytes, from: peer, to: actor, time: t, state: &state)
        case .changeCipherSpecSent:
            return changeCipherSpecLines(from: actor, to: peer, time: t, state: &state)
        case .changeCipherSpecReceived where state.oneSided:
            return changeCipherSpecLines(from: peer, to: actor, time: t, state: &state)
        case .alertReceived(let alert) where state.oneSided:
            return [row(t, from: peer, to: actor, "\(arrow(peer, actor))  TLS Alert \(alert)", .alert)] + alertExplanation(alert)
        case .negotiated(let n):
            state.keyExchange = n.cipherSuite.parameters?.keyExchange
            state.cipherSuite = n.cipherSuite
            guard actor == .client else { return [] }
            return [row(t, at: actor, "agreed: \(n.version), \(n.cipherSuite)\(n.extendedMasterSecret ? ", extended master secret" : "")\(n.resumed ? ", resumed session" : "")\(n.applicationProtocol.map { ", ALPN \($0)" } ?? "")")]
        case .derived(let value):
            return verbosity == .summary ? [] : derivedLines(value, actor: actor)
        case .certificateDecision(_, let length, let accepted, let detail):
            return certificateDecisionLines(actor: actor, length: length, accepted: accepted, detail: detail, time: t)
        case .signature(let sig):
            guard verbosity != .summary else { return [] }
            return [detail("\(actor.rawValue) \(sig.created ? "signed" : sig.valid ? "checked" : "found INVALID") the \(sig.purpose.rawValue) signature" +
                           (sig.scheme.map { " (\($0))" } ?? "") + " over \(sig.signedData.count) bytes")]
        case .countermeasureApplied(let reason):
            return [detail("server: \(reason)", .alert)] + explain(explanations("tls.countermeasure") ?? "")
        case .alertSent(let alert, let cause):
            var out = [row(t, from: actor, to: peer, "\(arrow(actor, peer))  TLS Alert \(alert)", .alert)]
            // close_notify is explained with its phase ("phase.close").
            if alert.alertDescription != .closeNotify {
                out.append(detail("why: \(cause)"))
                out += alertExplanation(alert)
                if verbosity != .summary, !state.explained.contains("tls.alert"), let text = explanations("tls.alert") {
                    state.explained.insert("tls.alert")
                    out += explain(text)
                }
            }
            return out
        case .handshakeCompleted(let resumed):
            return [row(t, at: actor, "\(actor.rawValue): handshake complete\(resumed ? " (abbreviated)" : "")", .heading)]
        case .applicationDataSent(let data):
            guard verbosity != .summary else { return [] }
            return [detail("\(actor.rawValue) encrypts \(data.count) bytes of application data")]
        default:
            return []
        }
    }

    /// A plain-language line for alerts that have one in the catalogue ("alert.<name>").
    func alertExplanation(_ alert: Alert) -> [String] {
        guard verbosity != .summary, let name = alert.alertDescription.name, let text = explanations("alert.\(name)") else { return [] }
        return explain(text)
    }

    func messageLines(_ message: HandshakeMessage, bytes: [UInt8], from: Actor, to: Actor, time t: String, state: inout LadderState) -> [String] {
        var out = [row(t, from: from, to: to, "\(arrow(from, to))  TLS \(messageName(message))  (\(bytes.count) bytes)", .tls)]
        out += messageSummary(message).map { detail($0) }
        if verbosity != .summary {
            let key = explanationKey(message, state: state)
            if let text = explanations(key) { out += explain(text) }
        }
        switch message {
        case .clientHello(let hello):
            state.alpnOffered = hello.extensions?.applicationProtocols ?? []
        case .serverHello(let hello):
            // ALPN (RFC 7301): said once, where the server's choice arrives.
            if verbosity != .summary, let chosen = hello.extensions?.applicationProtocols?.first,
               let text = explanations("tls.alpn", ["offered": Self.englishList(state.alpnOffered.map(\.description)),
                                                    "chosen": chosen.description]) {
                out += explain(text)
            }
        default:
            break
        }
        if case .serverHello(let hello) = message { state.cipherSuite = hello.cipherSuite }
        if verbosity == .bytes {
            let dissection = Dissector(cipherSuite: state.cipherSuite).dissectHandshakeMessages(bytes)
            out += HexdumpRenderer(width: width - 10).render(dissection, input: bytes).map { "          " + $0 }
        }
        return out
    }

    func changeCipherSpecLines(from: Actor, to: Actor, time t: String, state: inout LadderState) -> [String] {
        var out = [row(t, from: from, to: to, "\(arrow(from, to))  TLS ChangeCipherSpec", .tls)]
        if verbosity != .summary, !state.explained.contains("ccs\(from)"), let text = explanations("tls.ChangeCipherSpec") {
            state.explained.insert("ccs\(from)")
            out += explain(text)
        }
        return out
    }

    func derivedLines(_ value: DerivedValue, actor: Actor) -> [String] {
        let who = actor.rawValue
        switch value {
        case .rsaPreMasterEncryption(let pre, let padded, let ciphertext, let bits):
            return [detail("\(who): premaster = \(short(pre, sized: false)) (\(pre.count) bytes: version ‖ 46 random)"),
                    detail("\(who): PKCS#1 v1.5 block 00 02 <nonzero padding> 00 premaster = \(short(padded))"),
                    detail("\(who): encrypted with the server's \(bits)-bit RSA key → \(short(ciphertext))")]
        case .rsaPreMasterDecryption(_, let decrypted, let pre):
            return [detail("\(who): decrypts the premaster with its private key → \(decrypted.map { short($0) } ?? "padding error") (uses \(short(pre)))")]
        case .dhAgreement(let p, let g, let group, let x, let y, let peer, let pre):
            return [detail("\(who): DH group \(group): p = \(short(p)), g = \(short(g))"),
                    detail("\(who): secret exponent x = \(short(x)) ; public value g^x mod p = \(short(y))"),
                    detail("\(who): peer's value = \(short(peer)) ; Z = peer^x mod p = premaster = \(short(pre))")]
        case .ecdhAgreement(let curve, let priv, let pub, let peer, let pre):
            return [detail("\(who): \(curve) private key = \(short(priv)) ; public = \(short(pub))"),
                    detail("\(who): peer's public = \(short(peer)) ; shared secret = premaster = \(short(pre))")]
        case .masterSecret(_, let label, _, let prf, let master):
            let extended = label.contains("extended")
            var out = [detail("\(who): master_secret = PRF(premaster, \"\(label)\", \(extended ? "session_hash" : "client_random ‖ server_random")) [\(prf)] = \(short(master))")]
            if actor == .client, let text = explanations(extended ? "tls.masterSecret.ems" : "tls.masterSecret") { out += explain(text) }
            return out
        case .keyBlock(_, _, let block, let keys):
            var out = [detail("\(who): key_block = PRF(master, \"key expansion\", server_random ‖ client_random) = \(block.count) bytes →"),
                       detail("\(who):   client_write_key = \(short(keys.clientWriteKey)), server_write_key = \(short(keys.serverWriteKey))" +
                              (keys.clientWriteMACKey.isEmpty ? "" : ", MAC keys \(keys.clientWriteMACKey.count) bytes") +
                              (keys.clientWriteIV.isEmpty ? "" : ", IVs \(short(keys.clientWriteIV)) / \(short(keys.serverWriteIV))"))]
            if actor == .client, let text = explanations("tls.keyBlock") { out += explain(text) }
            return out
        case .transcriptHash(let purpose, let length, let hash):
            return verbosity == .bytes ? [detail("\(who): Hash(handshake messages, \(length) bytes) for \(purpose) = \(short(hash))")] : []
        case .verifyData(let sender, let label, _, let data):
            return [detail("\(who): verify_data = PRF(master, \"\(label)\", Hash(handshake messages))[0..11] = \(Hex.string(data))" +
                           (sender.rawValue == who ? "" : " (expected from the \(sender.rawValue))"))]
        }
    }

    /// The chain validation, link by link: each certificate of the path with its checks in order,
    /// pass or fail; at the bytes level, Hash1, Hash2 and the recovered PKCS#1 block.
    func chainValidationLines(_ v: ChainValidationTrace, actor: Actor, state: inout LadderState) -> [String] {
        let r = v.result
        let trust = explanations("trust.\(r.result.rawValue)") ?? r.result.rawValue
        var out = [detail("\(actor.rawValue) validates the \(v.peer.rawValue)'s chain, leaf → anchor (path of \(r.path.count)" +
                          (r.anchorStore.map { ", anchor from \($0)" } ?? "") + "): \(trust)")]
        if !state.explained.contains("pki.chain"), let text = explanations("pki.chain") {
            state.explained.insert("pki.chain")
            out += explain(text)
        }
        let depths = r.checks.map(\.depth).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        for depth in depths {
            let checks = r.checks.filter { $0.depth == depth }
            let subject = depth < r.path.count ? "\(r.path[depth].subject)" : (checks.first?.subject ?? "?")
            out.append(detail("link \(depth) (\(depth == 0 ? "leaf" : depth == r.path.count - 1 ? "anchor" : "CA")): \(subject)", indent: 2))
            for check in checks {
                out.append(detail("\(check.passed ? "✓" : "✗ FAIL") \(check.kind.rawValue): \(check.detail)", check.passed ? .plain : .alert, indent: 4))
                guard verbosity == .bytes, let sig = check.signature else { continue }
                out.append(detail("Hash1 = \(sig.algorithm) digest(TBSCertificate) = \(Hex.string(sig.hash1))", indent: 6))
                if let hash2 = sig.hash2 { out.append(detail("Hash2 = digest recovered from the signature with the issuer's key = \(Hex.string(hash2))", indent: 6)) }
                if let block = sig.recoveredBlock {
                    out.append(detail("PKCS#1 v1.5 block (signature^e mod n) = \(Hex.string(block.encodedMessage))", indent: 6))
                    out.append(detail("DigestInfo = \(Hex.string(block.digestInfo))\(block.hash.map { " (\($0))" } ?? "")", indent: 6))
                }
                if !sig.note.isEmpty { out.append(detail(sig.note, indent: 6)) }
            }
        }
        return out
    }

    func certificateDecisionLines(actor: Actor, length: Int, accepted: Bool, detail text: String, time t: String) -> [String] {
        [row(t, at: actor, "\(actor.rawValue) \(accepted ? "trusts" : "REJECTS") the \(length)-certificate chain: \(text)", accepted ? .tls : .alert)]
    }

    // MARK: Outcome and knowledge

    func outcome(_ trace: Trace) -> [String] {
        let s = trace.summary
        func say(_ key: String, _ values: [String: String] = [:]) -> String { explanations(key, values) ?? key }
        let version = s.version.map(String.init(describing:)) ?? "TLS"
        let suite = s.cipherSuite.map(String.init(describing:)) ?? "?"
        let ems = s.extendedMasterSecret ? say("outcome.ems") : ""
        let alpn = s.applicationProtocol.map { say("outcome.alpn", ["protocol": $0.description]) } ?? ""
        var out = ["", style(rule("Outcome"), .heading)]
        if let failure = s.failure {
            let values = ["side": failure.sentBy.rawValue, "alert": "\(failure.alert)"]
            out.append(style(say(s.clientCompleted && s.serverCompleted ? "outcome.failedAfterHandshake" : "outcome.failed", values), .alert))
            out += paragraph(say("outcome.why", ["cause": failure.cause]))
        } else if !s.usedTLS {
            out.append(say(s.responsesReceived > 0 ? "outcome.plainHTTP" : "outcome.noResponse"))
        } else if s.clientCompleted && s.serverCompleted {
            out.append(say("outcome.success", ["version": version, "suite": suite, "ems": ems, "alpn": alpn]))
            if s.sidesAgree, let m = s.masterSecret { out.append(say("outcome.sameMaster", ["master": short(m)])) }
        } else if s.clientCompleted != s.serverCompleted, Self.isOneSided(trace) {
            // A real peer (`tlslab connect` / `serve`): only our side's events exist.
            let values = ["side": s.clientCompleted ? "client" : "server", "version": version, "suite": suite, "ems": ems, "alpn": alpn]
            if let why = s.exchangeFailure {
                out.append(style(say("outcome.oneSidedFailed", values.merging(["why": why]) { a, _ in a }), .alert))
            } else {
                out.append(say("outcome.oneSided", values))
            }
        } else if let why = s.exchangeFailure {
            out.append(style(say("outcome.exchangeFailed", ["why": why]), .alert))
        } else {
            out.append(say("outcome.incomplete"))
        }
        // An HTTP/2 connection error ends that connection however TLS fared (RFC 9113 §5.4.1).
        for event in trace.events {
            if case .http2(.connectionError(let code, let why)) = event.kind {
                out.append(style(say("outcome.http2Error", ["side": event.actor.rawValue, "code": code.name, "why": why]), .alert))
            }
            if case .http2(.peerConnectionError(let code, let why)) = event.kind {
                out.append(style(say("outcome.http2Error", ["side": event.counterpart.rawValue, "code": code.name, "why": why]), .alert))
            }
        }
        let all = trace.summaries
        if all.count > 1 {
            for (i, c) in all.enumerated() {
                out.append(say("outcome.connection", ["number": "\(i + 1)", "outcome": c.outcome,
                                                      "resumed": c.resumed ? say("outcome.resumed") : "",
                                                      "master": c.masterSecret.map { say("outcome.connectionMaster", ["master": short($0)]) } ?? ""]))
            }
        }
        return out
    }

    /// The table of who knows which secret; `moment` is the catalogue key of the heading (when in
    /// the run it is drawn), `remarks` adds the explanations below it.
    public func knowledgePanel(_ table: KnowledgeTable, moment: String = "knowledge.atTheEnd", remarks: Bool = true) -> [String] {
        func mark(_ b: Bool) -> String { b ? "knows" : "  —  " }
        var header = "secret              client   server   eavesdropper"
        if table.hasAfterwards { header += "   afterwards" }
        if table.hasAttacker { header += "   attacker" }
        var out = ["", style(rule(explanations(moment) ?? "Who knows what"), .heading), header]
        for row in table.rows {
            let name = row.secret.padding(toLength: 18, withPad: " ", startingAt: 0)
            var line = "\(name)  \(mark(row.client))    \(mark(row.server))    \(mark(row.eavesdropper))"
            // Each extra column starts where its header does.
            if table.hasAfterwards { line += "          \(mark(row.eavesdropperAfterwards ?? false))" }
            if table.hasAttacker { line += (table.hasAfterwards ? "        " : "          ") + mark(row.attacker ?? false) }
            out.append(line)
        }
        guard remarks else { return out }
        out += paragraph(explanations("knowledge.measured") ?? "")
        if table.decodedHTTP2, let text = explanations("knowledge.http2") { out += paragraph(text) }
        if table.hasAfterwards, let text = explanations("knowledge.afterwards") { out += paragraph(text) }
        if table.hasAttacker, let text = explanations("knowledge.attacker") { out += paragraph(text) }
        return out
    }

    /// Counts for runs with several connections or requests.
    func statistics(_ trace: Trace) -> [String] {
        let st = trace.statistics
        guard st.connections > 1 || st.requests > 1 || st.cpuTime > 0 else { return [] }
        var out = ["", style(rule("Connections, handshakes, round trips"), .heading),
                   "connections: \(st.connections); TLS handshakes: \(st.fullHandshakes) full, \(st.abbreviatedHandshakes) abbreviated; requests: \(st.requests), responses: \(st.responses)",
                   "round trips the client waited for: \(st.roundTrips); last response at \(st.lastResponseTime.map { Self.timeText($0) } ?? "—"); virtual CPU for public-key work: \(Self.timeText(st.cpuTime))"]
        if let text = explanations("stats.roundTrips") { out += paragraph(text) }
        if st.usedHTTP2 {
            out.append("HTTP/2: \(st.http2Streams) streams on \(st.connections) connection\(st.connections == 1 ? "" : "s")\(st.pushedResponses > 0 ? " (\(st.pushedResponses) pushed)" : ""); header blocks \(st.hpackRawBytes) → \(st.hpackEncodedBytes) bytes with HPACK; each request's: \(st.requestHeaderBlocks.map(String.init).joined(separator: ", ")) bytes")
            if let text = explanations("stats.http2") { out += paragraph(text) }
        }
        return out
    }

    func attackLines(_ a: AttackEvent, time t: String, actor: Actor, state: inout LadderState) -> [String] {
        var out: [String]
        var key: String?
        switch a {
        case .position(let sentence):
            out = [row(t, at: actor, "\(actor.rawValue): \(explanations.sentence(sentence))", .alert)]
            key = state.participants.values.contains(.attacker) ? "attack.mitm" : "attack.onPath"
        case .tampered(let message, let sender, let offset, let old, let new):
            out = [row(t, at: .attacker, "attacker changes byte \(offset) of the \(sender.rawValue)'s \(message) in flight: \(Hex.string([old])) → \(Hex.string([new]))", .alert)]
            key = message.hasPrefix("HTTP") ? "attack.tamperHTTP" : "attack.tamper"
        case .strippedSuites(let removed, let kept, let detail):
            out = [row(t, at: .attacker, "attacker strips \(removed.map { "\($0)" }.joined(separator: ", ")) from the ClientHello; left: \(kept.map { "\($0)" }.joined(separator: ", "))", .alert),
                   self.detail("(\(detail))")]
            key = "attack.strip"
        case .replayed(let bytes, let seq):
            out = [row(t, at: .attacker, "attacker replays the client's \(bytes)-byte application-data record as new TCP bytes at seq=\(seq)", .alert)]
            key = "attack.replay"
        case .keyStolen(let bits):
            out = ["", style("── After the run: the server's \(bits)-bit private key is stolen " + String(repeating: "─", count: 10), .heading)]
            key = "attack.keyTheft"
        case .seedSearch(let candidates, let found):
            out = ["", style("── After the run: the eavesdropper searches the client's seed space " + String(repeating: "─", count: 6), .heading),
                   row(t, at: .eavesdropper, "eavesdropper tried \(candidates) seeds: \(found.map { "seed \($0) reproduces client_random" } ?? "none matches")", .alert)]
            key = "attack.seed"
        case .learned(let secret, let value, let how):
            let shown = secret.hasPrefix("HTTP") ? firstLine(String(decoding: value, as: UTF8.self)) : short(value)
            out = [row(t, at: actor, "\(actor.rawValue) LEARNS the \(secret): \(shown)", .alert), detail("how: \(explanations.sentence(how))")]
            key = nil
        case .failed(let why):
            out = [row(t, at: actor, "\(actor.rawValue) cannot go further: \(explanations.sentence(why))")]
            key = nil
        }
        if verbosity != .summary, let key, !state.explained.contains(key), let text = explanations(key) {
            state.explained.insert(key)
            out += explain(text)
        }
        return out
    }

    // MARK: Helpers

    func messageName(_ m: HandshakeMessage) -> String {
        switch m {
        case .clientHello: return "ClientHello"
        case .serverHello: return "ServerHello"
        case .certificate: return "Certificate"
        case .serverKeyExchange: return "ServerKeyExchange"
        case .certificateRequest: return "CertificateRequest"
        case .serverHelloDone: return "ServerHelloDone"
        case .certificateVerify: return "CertificateVerify"
        case .clientKeyExchange: return "ClientKeyExchange"
        case .finished: return "Finished"
        case .helloRequest: return "HelloRequest"
        case .other(let type, _): return "\(type)"
        }
    }

    func explanationKey(_ m: HandshakeMessage, state: LadderState) -> String {
        if case .clientKeyExchange = m {
            switch state.keyExchange {
            case .rsa: return "tls.ClientKeyExchange.rsa"
            case .ecdheRSA: return "tls.ClientKeyExchange.ecdh"
            default: return "tls.ClientKeyExchange.dh"
            }
        }
        return "tls." + messageName(m)
    }

    /// The values a message introduces, shown under its arrow.
    func messageSummary(_ m: HandshakeMessage) -> [String] {
        switch m {
        case .clientHello(let ch):
            return ["client_random = \(Hex.string(ch.random.bytes)), \(ch.cipherSuites.count) cipher suite(s) offered"]
                + (ch.extensions?.applicationProtocols.map { ["ALPN offers: \($0.map(\.description).joined(separator: ", "))"] } ?? [])
        case .serverHello(let sh):
            return ["server_random = \(Hex.string(sh.random.bytes)), chosen: \(sh.cipherSuite)"]
                + (sh.extensions?.applicationProtocols.map { ["ALPN chose: \($0.map(\.description).joined(separator: ", "))"] } ?? [])
        case .certificate(let c):
            return ["\(c.certificateList.count) certificate(s)"]
        default:
            return []
        }
    }

    func handshakeName(_ type: HandshakeType) -> String {
        switch type {
        case .helloRequest: return "HelloRequest"
        case .clientHello: return "ClientHello"
        case .serverHello: return "ServerHello"
        case .certificate: return "Certificate"
        case .serverKeyExchange: return "ServerKeyExchange"
        case .certificateRequest: return "CertificateRequest"
        case .serverHelloDone: return "ServerHelloDone"
        case .certificateVerify: return "CertificateVerify"
        case .clientKeyExchange: return "ClientKeyExchange"
        case .finished: return "Finished"
        default: return "\(type)"
        }
    }

    /// Who sends to whom, in words beside the graphic ("client ──▶ server", "client ◀── server"),
    /// the left name being the left column: with three columns the graphic alone is easy to misread.
    func arrow(_ from: Actor, _ to: Actor) -> String {
        func column(_ a: Actor) -> Int {
            switch a {
            case .client: return 0
            case .attacker, .eavesdropper, .network: return 1
            case .server: return 2
            }
        }
        guard from != to else { return from.rawValue }
        return column(from) <= column(to) ? "\(from.rawValue) ──▶ \(to.rawValue)" : "\(to.rawValue) ◀── \(from.rawValue)"
    }

    /// The time column, right-aligned to the widest time of the trace.
    func time(_ micros: Int64) -> String {
        let text = Self.timeText(micros)
        return String(repeating: " ", count: max(0, layout.timeWidth - text.count)) + text
    }

    static func timeText(_ micros: Int64) -> String {
        "\(micros / 1000).\((micros % 1000) / 100)ms"
    }

    // MARK: Ladder rows

    /// The names above the columns.
    func columnHeader() -> [String] {
        var chars = Array(repeating: Character(" "), count: layout.ladderWidth)
        for actor in layout.columns {
            guard let position = layout.position(actor) else { continue }
            let name = Array(actor.rawValue)
            let start = actor == .client ? 0 : actor == .server ? layout.ladderWidth - name.count : max(0, position - name.count / 2)
            for (i, c) in name.enumerated() where start + i < chars.count { chars[start + i] = c }
        }
        let head = String(repeating: " ", count: max(0, layout.timeWidth - 4)) + "time" + "  " + String(chars)
        return [style(head.trimmingTrailingSpaces(), .heading)]
    }

    /// The ladder graphic: a rail per column, an arrow from one column to another (broken off
    /// with ✗ when the network lost it), or a dot on the column of the actor acting alone.
    func rails(from: Actor? = nil, to: Actor? = nil, at: Actor? = nil, lost: Bool = false) -> String {
        var chars = Array(repeating: Character(" "), count: layout.ladderWidth)
        for actor in layout.columns { if let p = layout.position(actor) { chars[p] = "│" } }
        if let from, let to, let a = layout.position(from), let b = layout.position(to), a != b {
            let step = a < b ? 1 : -1
            let end = lost ? a + (b - a) / 2 : b
            var i = a + step
            while i != end {
                chars[i] = chars[i] == "│" ? "┼" : "─"
                i += step
            }
            chars[a] = a < b ? "├" : "┤"
            if lost {
                chars[end] = "✗"
            } else {
                chars[end - step] = a < b ? "▶" : "◀"
            }
        } else if let at, let p = layout.position(at) {
            chars[p] = "●"
        }
        return String(chars)
    }

    /// One ladder entry: time, the graphic, the text (wrapped in its own column, rails continuing).
    func row(_ t: String, from: Actor? = nil, to: Actor? = nil, at: Actor? = nil, lost: Bool = false,
             _ text: String, _ s: Style = .plain) -> String {
        let first = t + "  " + rails(from: from, to: to, at: at, lost: lost) + "  "
        return lay(first: first, text, indent: 0, s)
    }

    /// A line under an entry: blank time, plain rails, then the text.
    func detail(_ text: String, _ s: Style = .plain, indent: Int = 0) -> String {
        let first = String(repeating: " ", count: layout.timeWidth) + "  " + rails() + "  "
        return lay(first: first, text, indent: indent, s)
    }

    func lay(first: String, _ text: String, indent: Int, _ s: Style) -> String {
        let continuation = String(repeating: " ", count: layout.timeWidth) + "  " + rails() + "  "
        let textWidth = max(20, width - first.count)
        let pieces = Self.wrapWords(text, width: textWidth, indent: indent)
        return pieces.enumerated().map { i, piece in
            style(((i == 0 ? first : continuation) + piece).trimmingTrailingSpaces(), s)
        }.joined(separator: "\n")
    }

    func short(_ bytes: [UInt8], sized: Bool = true) -> String {
        bytes.count <= 16 ? Hex.string(bytes)
            : Hex.string(bytes.prefix(8)) + "…" + Hex.string(bytes.suffix(4)) + (sized ? " (\(bytes.count) bytes)" : "")
    }

    /// The first line of an HTTP/1.x message; for an HTTP/2 one (its fields as `name: value`
    /// lines, pseudo-headers first) the request as method and URI (`GET https://example.com/a`), the
    /// response as its status.
    func firstLine(_ s: String) -> String {
        let lines = s.split(separator: "\r\n")
        guard lines.first?.hasPrefix(":") == true else { return String(lines.first ?? "") }
        var pseudo: [String: String] = [:]
        for line in lines.prefix(while: { $0.hasPrefix(":") }) {
            guard let colon = line.dropFirst().firstIndex(of: ":") else { continue }
            pseudo[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if let method = pseudo[":method"] {
            return "\(method) \(pseudo[":scheme"] ?? "https")://\(pseudo[":authority"] ?? "")\(pseudo[":path"] ?? "")"
        }
        return pseudo[":status"].map { "status \($0)" } ?? lines.prefix(while: { $0.hasPrefix(":") }).joined(separator: " ")
    }

    /// A section heading: "── Title ────", as wide as 65 columns or the screen if narrower.
    func rule(_ title: String) -> String {
        let head = "── \(title) "
        return head + String(repeating: "─", count: max(3, min(65, width) - head.count))
    }

    /// Words of `text` in lines of at most `width` characters, each starting with `indent` spaces;
    /// a word longer than a line (a hex value) is cut where the line ends.
    static func wrapWords(_ text: String, width: Int, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let room = max(8, width - indent)
        var lines: [String] = []
        var line = ""
        // Empty pieces are the extra spaces of a run ("server  TLS"): kept inside a line.
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            if word.isEmpty {
                if !line.isEmpty, line.count + 1 < room { line += " " }
                continue
            }
            if !line.isEmpty, line.count + 1 + word.count <= room {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while word.count > room {
                lines.append(String(word.prefix(room)))
                word = word.dropFirst(room)
            }
            line = String(word)
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines.map { pad + $0 }
    }

    /// An explanation under a ladder entry (rails continue beside it).
    func explain(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        return [detail(text, .explanation, indent: 2)]
    }

    /// An explanation in a full-width section (outcome, knowledge panel).
    func paragraph(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        let indent = "            "
        return HexdumpRenderer(width: width).wrap(indent + text, continuationIndent: indent.count).map { style($0, .explanation) }
    }

    enum Style { case heading, tcp, tls, alert, explanation, plain }

    func style(_ text: String, _ s: Style) -> String {
        guard color else { return text }
        let code: String
        switch s {
        case .plain: return text
        case .heading: code = "1"
        case .tcp: code = "36"
        case .tls: code = "32"
        case .alert: code = "31"
        case .explanation: code = "2"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
