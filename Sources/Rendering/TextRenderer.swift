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

    public init(verbosity: Verbosity = .normal, width: Int = 100, color: Bool = false,
                explanations: Explanations = .english) {
        self.verbosity = verbosity
        self.width = max(width, 60)
        self.color = color
        self.explanations = explanations
    }

    public func render(_ trace: Trace) -> [String] {
        var lines: [String] = []
        var state = LadderState()
        state.participants = trace.participants
        state.plainHTTP = !trace.summary.usedTLS
        state.oneSided = Self.isOneSided(trace)
        for event in trace.events {
            lines += render(event, state: &state)
        }
        lines += outcome(trace)
        lines += statistics(trace)
        // A real peer's trace has no wire and no second party to measure knowledge from.
        if verbosity != .summary && !state.oneSided { lines += knowledgePanel(trace.knowledge) }
        return lines.flatMap(fitToWidth)
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
    }

    // MARK: Events

    func render(_ event: TraceEvent, state: inout LadderState) -> [String] {
        let t = time(event.time)
        switch event.kind {
        case .phase(let name):
            var out = ["", style("── \(name) " + String(repeating: "─", count: max(0, 60 - name.count)), .heading)]
            let key = name.hasPrefix("TCP") ? "phase.tcp" : name.hasPrefix("TLS") ? "phase.tls"
                : name.hasPrefix("HTTP") ? "phase.http" : name.hasPrefix("closing") ? "phase.close" : ""
            if verbosity != .summary, !state.explained.contains(key), let text = explanations(key) {
                state.explained.insert(key)
                out += explain(text)
            }
            return out
        case .attack(let a):
            return attackLines(a, time: t, actor: event.actor, state: &state)
        case .compute(let operations, let duration):
            guard verbosity != .summary else { return [] }
            return ["\(t)  \(event.actor.rawValue) computes for \(String(time(duration).drop { $0 == " " })): \(operations.joined(separator: ", "))"]
        case .tcp(let kind):
            guard verbosity != .summary else { return [] }
            return tcpLines(kind, time: t, actor: event.actor, state: &state)
        case .tls(let tls):
            return tlsLines(tls, time: t, actor: event.actor, peer: event.counterpart, state: &state)
        case .http(let h):
            switch h {
            case .requestSent(let r):
                let carrier = state.plainHTTP ? "in plain text, no TLS" : "inside TLS application data"
                return ["\(t)  \(arrow(event.actor, event.counterpart))  HTTP request (\(carrier)): \(firstLine(r))"]
            case .responseReceived(let r):
                return ["\(t)  \(event.actor.rawValue) received the HTTP response: \(firstLine(r))"]
            case .requestReceived, .responseSent:
                return []
            }
        }
    }

    func tcpLines(_ kind: TCPNetworkEvent.Kind, time t: String, actor: Actor, state: inout LadderState) -> [String] {
        switch kind {
        case .injected(let p):
            let s = p.segment
            return [style("\(t)  attacker injects  TCP [\(s.flags.compact)] seq=\(s.seq.rawValue)\(s.ack.map { " ack=\($0.rawValue)" } ?? "") len=\(s.payload.count) (spoofed from \(p.source))", .alert)]
        case .sent(let p):
            let s = p.segment
            let receiver = state.participants[p.destination] ?? (actor == .client ? .server : .client)
            var text = "\(t)  \(arrow(actor, receiver))  TCP [\(s.flags.compact)] seq=\(s.seq.rawValue)"
            if let ack = s.ack { text += " ack=\(ack.rawValue)" }
            text += " len=\(s.payload.count)"
            var out = [style(text, .tcp)]
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
            return [style("\(t)  ✗ lost on the way: [\(p.segment.flags.compact)] seq=\(p.segment.seq.rawValue) len=\(p.segment.payload.count) (\(reason.rawValue))", .alert)]
        case .connection(_, .retransmitted(let seg, let attempt)):
            var out = [style("\(t)  \(actor.rawValue) retransmits seq=\(seg.seq.rawValue) len=\(seg.payload.count) (attempt \(attempt))", .alert)]
            if !state.explained.contains("tcp.retransmit"), let text = explanations("tcp.retransmit") {
                state.explained.insert("tcp.retransmit")
                out += explain(text)
            }
            return out
        case .connection(_, .stateChanged(let from, let to, _)):
            return ["\(t)  \(actor.rawValue): \(from) → \(to)"]
        default:
            return []
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
            return [style("\(t)  \(arrow(peer, actor))  TLS Alert \(alert)", .alert)]
        case .negotiated(let n):
            state.keyExchange = n.cipherSuite.parameters?.keyExchange
            state.cipherSuite = n.cipherSuite
            guard actor == .client else { return [] }
            return ["\(t)  agreed: \(n.version), \(n.cipherSuite)\(n.extendedMasterSecret ? ", extended master secret" : "")\(n.resumed ? ", resumed session" : "")"]
        case .derived(let value):
            return verbosity == .summary ? [] : derivedLines(value, actor: actor)
        case .certificateDecision(_, let length, let accepted, let detail):
            return [style("\(t)  \(actor.rawValue) \(accepted ? "trusts" : "REJECTS") the \(length)-certificate chain: \(detail)", accepted ? .tls : .alert)]
        case .signature(let sig):
            guard verbosity != .summary else { return [] }
            return ["          \(actor.rawValue) \(sig.valid ? "checked" : "found INVALID") the \(sig.purpose.rawValue) signature" +
                    (sig.scheme.map { " (\($0))" } ?? "") + " over \(sig.signedData.count) bytes"]
        case .countermeasureApplied(let reason):
            return [style("          server: \(reason)", .alert)] + explain(explanations("tls.countermeasure") ?? "")
        case .alertSent(let alert, let cause):
            return [style("\(t)  \(arrow(actor, peer))  TLS Alert \(alert)", .alert), "          why: \(cause)"]
        case .handshakeCompleted(let resumed):
            return [style("\(t)  \(actor.rawValue): handshake complete\(resumed ? " (abbreviated)" : "")", .heading)]
        case .applicationDataSent(let data):
            guard verbosity != .summary else { return [] }
            return ["          \(actor.rawValue) encrypts \(data.count) bytes of application data"]
        default:
            return []
        }
    }

    func messageLines(_ message: HandshakeMessage, bytes: [UInt8], from: Actor, to: Actor, time t: String, state: inout LadderState) -> [String] {
        var out = [style("\(t)  \(arrow(from, to))  TLS \(messageName(message))  (\(bytes.count) bytes)\(messageSummary(message))", .tls)]
        if verbosity != .summary {
            let key = explanationKey(message, state: state)
            if let text = explanations(key) { out += explain(text) }
        }
        if case .serverHello(let hello) = message { state.cipherSuite = hello.cipherSuite }
        if verbosity == .bytes {
            let dissection = Dissector(cipherSuite: state.cipherSuite).dissectHandshakeMessages(bytes)
            out += HexdumpRenderer(width: width - 10).render(dissection, input: bytes).map { "          " + $0 }
        }
        return out
    }

    func changeCipherSpecLines(from: Actor, to: Actor, time t: String, state: inout LadderState) -> [String] {
        var out = [style("\(t)  \(arrow(from, to))  TLS ChangeCipherSpec", .tls)]
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
            return ["          \(who): premaster = \(short(pre)) (48 bytes: version ‖ 46 random)",
                    "          \(who): PKCS#1 v1.5 block 00 02 <nonzero padding> 00 premaster = \(short(padded))",
                    "          \(who): encrypted with the server's \(bits)-bit RSA key → \(short(ciphertext))"]
        case .rsaPreMasterDecryption(_, let decrypted, let pre):
            return ["          \(who): decrypts the premaster with its private key → \(decrypted.map(short) ?? "padding error") (uses \(short(pre)))"]
        case .dhAgreement(let p, let g, let group, let x, let y, let peer, let pre):
            return ["          \(who): DH group \(group): p = \(short(p)), g = \(short(g))",
                    "          \(who): secret exponent x = \(short(x)) ; public value g^x mod p = \(short(y))",
                    "          \(who): peer's value = \(short(peer)) ; Z = peer^x mod p = premaster = \(short(pre))"]
        case .ecdhAgreement(let curve, let priv, let pub, let peer, let pre):
            return ["          \(who): \(curve) private key = \(short(priv)) ; public = \(short(pub))",
                    "          \(who): peer's public = \(short(peer)) ; shared secret = premaster = \(short(pre))"]
        case .masterSecret(_, let label, _, let prf, let master):
            var out = ["          \(who): master_secret = PRF(premaster, \"\(label)\", \(label.contains("extended") ? "session_hash" : "client_random ‖ server_random")) [\(prf)] = \(short(master))"]
            if actor == .client, let text = explanations("tls.masterSecret") { out += explain(text) }
            return out
        case .keyBlock(_, _, let block, let keys):
            var out = ["          \(who): key_block = PRF(master, \"key expansion\", server_random ‖ client_random) = \(block.count) bytes →",
                       "          \(who):   client_write_key = \(short(keys.clientWriteKey)), server_write_key = \(short(keys.serverWriteKey))" +
                       (keys.clientWriteMACKey.isEmpty ? "" : ", MAC keys \(keys.clientWriteMACKey.count) bytes") +
                       (keys.clientWriteIV.isEmpty ? "" : ", IVs \(short(keys.clientWriteIV)) / \(short(keys.serverWriteIV))")]
            if actor == .client, let text = explanations("tls.keyBlock") { out += explain(text) }
            return out
        case .transcriptHash(let purpose, let length, let hash):
            return verbosity == .bytes ? ["          \(who): Hash(handshake messages, \(length) bytes) for \(purpose) = \(short(hash))"] : []
        case .verifyData(let sender, let label, _, let data):
            return ["          \(who): verify_data = PRF(master, \"\(label)\", Hash(handshake messages))[0..11] = \(Hex.string(data))" +
                    (sender.rawValue == who ? "" : " (expected from the \(sender.rawValue))")]
        }
    }

    // MARK: Outcome and knowledge

    func outcome(_ trace: Trace) -> [String] {
        let s = trace.summary
        var out = ["", style("── Outcome " + String(repeating: "─", count: 54), .heading)]
        if let failure = s.failure, s.clientCompleted && s.serverCompleted {
            out.append(style("The handshake completed, then the \(failure.sentBy.rawValue) sent the fatal alert \(failure.alert) and ended the connection.", .alert))
            out += explain("Why: \(failure.cause)")
        } else if let failure = s.failure {
            out.append(style("The handshake failed: the \(failure.sentBy.rawValue) sent the fatal alert \(failure.alert).", .alert))
            out += explain("Why: \(failure.cause)")
        } else if !s.usedTLS {
            out.append(s.responsesReceived > 0 ? "Plain HTTP: no TLS at all; the response arrived, and every byte crossed the wire readable."
                                              : "The run ended before any response arrived.")
        } else if s.clientCompleted && s.serverCompleted {
            out.append("Success: \(s.version.map(String.init(describing:)) ?? "TLS"), \(s.cipherSuite.map(String.init(describing:)) ?? "?")" +
                       (s.extendedMasterSecret ? ", extended master secret" : "") + ".")
            if let m = s.masterSecret { out.append("Both sides derived the same master secret \(short(m)).") }
        } else if s.clientCompleted != s.serverCompleted, Self.isOneSided(trace) {
            // A real peer (`tlslab connect` / `serve`): only our side's events exist.
            let side = s.clientCompleted ? "client" : "server"
            out.append("Success on the \(side) side (the peer is a real program, so only this side is traced): " +
                       "\(s.version.map(String.init(describing:)) ?? "TLS"), \(s.cipherSuite.map(String.init(describing:)) ?? "?")" +
                       (s.extendedMasterSecret ? ", extended master secret" : "") + ".")
        } else {
            out.append("The run ended before the handshake finished.")
        }
        let all = trace.summaries
        if all.count > 1 {
            for (i, c) in all.enumerated() {
                out.append("connection \(i + 1): \(c.outcome)\(c.resumed ? " (resumed session)" : "")" +
                           (c.masterSecret.map { ", master secret \(short($0))" } ?? ""))
            }
        }
        return out
    }

    public func knowledgePanel(_ table: KnowledgeTable) -> [String] {
        func mark(_ b: Bool) -> String { b ? "knows" : "  —  " }
        var header = "secret              client   server   eavesdropper"
        if table.hasAfterwards { header += "   afterwards" }
        if table.hasAttacker { header += "   attacker" }
        var out = ["", style("── Who knows what " + String(repeating: "─", count: 47), .heading), header]
        for row in table.rows {
            let name = row.secret.padding(toLength: 18, withPad: " ", startingAt: 0)
            var line = "\(name)  \(mark(row.client))    \(mark(row.server))    \(mark(row.eavesdropper))"
            // Each extra column starts where its header does.
            if table.hasAfterwards { line += "          \(mark(row.eavesdropperAfterwards ?? false))" }
            if table.hasAttacker { line += (table.hasAfterwards ? "        " : "          ") + mark(row.attacker ?? false) }
            out.append(line)
        }
        out += explain("The eavesdropper column is measured, not assumed: a value counts as known when its exact bytes crossed the wire.")
        if table.hasAfterwards, let text = explanations("knowledge.afterwards") { out += explain(text) }
        if table.hasAttacker, let text = explanations("knowledge.attacker") { out += explain(text) }
        return out
    }

    /// Counts for runs with several connections or requests.
    func statistics(_ trace: Trace) -> [String] {
        let st = trace.statistics
        guard st.connections > 1 || st.requests > 1 || st.cpuTime > 0 else { return [] }
        var out = ["", style("── Connections, handshakes, round trips " + String(repeating: "─", count: 25), .heading),
                   "connections: \(st.connections); TLS handshakes: \(st.fullHandshakes) full, \(st.abbreviatedHandshakes) abbreviated; requests: \(st.requests), responses: \(st.responses)",
                   "round trips the client waited for: \(st.roundTrips); last response at \(st.lastResponseTime.map { String(time($0).drop { $0 == " " }) } ?? "—"); virtual CPU for public-key work: \(String(time(st.cpuTime).drop { $0 == " " }))"]
        if let text = explanations("stats.roundTrips") { out += explain(text) }
        return out
    }

    func attackLines(_ a: AttackEvent, time t: String, actor: Actor, state: inout LadderState) -> [String] {
        var out: [String]
        var key: String?
        switch a {
        case .position(let text):
            out = [style("\(t)  \(actor.rawValue): \(text)", .alert)]
            key = state.participants.values.contains(.attacker) ? "attack.mitm" : "attack.onPath"
        case .tampered(let message, let sender, let offset, let old, let new):
            out = [style("\(t)  attacker changes byte \(offset) of the \(sender.rawValue)'s \(message) in flight: \(Hex.string([old])) → \(Hex.string([new]))", .alert)]
            key = message.hasPrefix("HTTP") ? "attack.tamperHTTP" : "attack.tamper"
        case .strippedSuites(let removed, let kept, let detail):
            out = [style("\(t)  attacker strips \(removed.map { "\($0)" }.joined(separator: ", ")) from the ClientHello; left: \(kept.map { "\($0)" }.joined(separator: ", "))", .alert),
                   "          (\(detail))"]
            key = "attack.strip"
        case .replayed(let bytes, let seq):
            out = [style("\(t)  attacker replays the client's \(bytes)-byte application-data record as new TCP bytes at seq=\(seq)", .alert)]
            key = "attack.replay"
        case .keyStolen(let bits):
            out = ["", style("── After the run: the server's \(bits)-bit private key is stolen " + String(repeating: "─", count: 10), .heading)]
            key = "attack.keyTheft"
        case .seedSearch(let candidates, let found):
            out = ["", style("── After the run: the eavesdropper searches the client's seed space " + String(repeating: "─", count: 6), .heading),
                   style("\(t)  eavesdropper tried \(candidates) seeds: \(found.map { "seed \($0) reproduces client_random" } ?? "none matches")", .alert)]
            key = "attack.seed"
        case .learned(let secret, let value, let how):
            let shown = secret.hasPrefix("HTTP") ? firstLine(String(decoding: value, as: UTF8.self)) : short(value)
            out = [style("\(t)  \(actor.rawValue) LEARNS the \(secret): \(shown)", .alert), "          how: \(how)"]
            key = nil
        case .failed(let why):
            out = ["\(t)  \(actor.rawValue) cannot go further: \(why)"]
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
        if case .clientKeyExchange = m { return state.keyExchange == .rsa ? "tls.ClientKeyExchange.rsa" : "tls.ClientKeyExchange.dh" }
        return "tls." + messageName(m)
    }

    func messageSummary(_ m: HandshakeMessage) -> String {
        switch m {
        case .clientHello(let ch):
            return "\n          client_random = \(Hex.string(ch.random.bytes)), \(ch.cipherSuites.count) cipher suites offered"
        case .serverHello(let sh):
            return "\n          server_random = \(Hex.string(sh.random.bytes)), chosen: \(sh.cipherSuite)"
        case .certificate(let c):
            return ", \(c.certificateList.count) certificate(s)"
        default:
            return ""
        }
    }

    func arrow(_ actor: Actor) -> String {
        arrow(actor, actor == .client ? .server : .client)
    }

    /// "left ──▶ right" or "left ◀── right", columns ordered client, attacker, server.
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

    func time(_ micros: Int64) -> String {
        let ms = Double(micros) / 1000
        let text = String(Int(ms.rounded(.down))) + "." + String(Int((ms * 10).rounded(.down)) % 10)
        return String(repeating: " ", count: max(0, 7 - text.count)) + text + "ms"
    }

    func short(_ bytes: [UInt8]) -> String {
        bytes.count <= 16 ? Hex.string(bytes) : Hex.string(bytes.prefix(8)) + "…" + Hex.string(bytes.suffix(4)) + " (\(bytes.count) bytes)"
    }

    func firstLine(_ s: String) -> String { String(s.split(separator: "\r\n").first ?? "") }

    func explain(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        let indent = "            "
        return HexdumpRenderer(width: width).wrap(indent + text, continuationIndent: indent.count).map { style($0, .explanation) }
    }

    enum Style { case heading, tcp, tls, alert, explanation }

    func style(_ text: String, _ s: Style) -> String {
        guard color else { return text }
        let code: String
        switch s {
        case .heading: code = "1"
        case .tcp: code = "36"
        case .tls: code = "32"
        case .alert: code = "31"
        case .explanation: code = "2"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
