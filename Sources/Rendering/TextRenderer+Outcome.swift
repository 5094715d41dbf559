import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The end of a run: the outcome, the who-knows-what panel and the statistics.
extension TextRenderer {
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
    public func knowledgePanel(_ table: KnowledgeTable, moment: String = "knowledge.atTheEnd", remarks: Bool = true,
                               metadata: WireMetadata? = nil) -> [String] {
        func mark(_ b: Bool) -> String { b ? "knows" : "  —  " }
        var header = "secret              client   server   eavesdropper"
        if table.hasAfterwards { header += "   afterwards" }
        if table.hasAttacker { header += "   attacker" }
        var out = ["", style(rule(explanations(moment) ?? "Who knows what"), .heading), header]
        for row in table.rows {
            let name = (row.changedInFlight ? "  changed copy" : row.secret).padding(toLength: 18, withPad: " ", startingAt: 0)
            var line = "\(name)  \(mark(row.client))    \(mark(row.server))    \(mark(row.eavesdropper))"
            // Each extra column starts where its header does.
            if table.hasAfterwards { line += "          \(mark(row.eavesdropperAfterwards ?? false))" }
            if table.hasAttacker { line += (table.hasAfterwards ? "        " : "          ") + mark(row.attacker ?? false) }
            out.append(line)
        }
        guard remarks else { return out }
        out += paragraph(explanations("knowledge.measured") ?? "")
        if let metadata { out += metadataLines(metadata) }
        if table.hasChangedCopy, let text = explanations("knowledge.changedCopy") { out += paragraph(text) }
        if table.decodedHTTP2, let text = explanations("knowledge.http2") { out += paragraph(text) }
        if table.hasAfterwards, let text = explanations("knowledge.afterwards") { out += paragraph(text) }
        if table.hasAttacker, let text = explanations("knowledge.attacker") { out += paragraph(text) }
        return out
    }

    /// What the eavesdropper read in the clear besides the randoms (RFC 5246 §6.2, §7.3).
    func metadataLines(_ m: WireMetadata) -> [String] {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { explanations(key, values) ?? key }
        func sizes(_ lengths: [Int]) -> String {
            lengths.isEmpty ? say("metadata.noRecords")
                : say("metadata.records", ["count": "\(lengths.count)", "lengths": lengths.map(String.init).joined(separator: ", ")])
        }
        var rows: [(String, String)] = []
        if let client = m.client, let server = m.server { rows.append((say("metadata.endpoints"), "\(client) → \(server)")) }
        rows.append((say("metadata.serverName"), m.serverName ?? say("metadata.none")))
        if let length = m.chainLength { rows.append((say("metadata.chain"), say("metadata.chainLength", ["count": "\(length)"]))) }
        if let suite = m.cipherSuite { rows.append((say("metadata.suite"), suite.name ?? suite.hex)) }
        if let group = m.group {
            rows.append((say("metadata.group"), m.publicValuesInClear ? say("metadata.groupAndPublics", ["group": group]) : group))
        }
        rows.append((say("metadata.clientRecords"), sizes(m.clientRecordLengths)))
        rows.append((say("metadata.serverRecords"), sizes(m.serverRecordLengths)))
        let labelWidth = rows.map(\.0.count).max() ?? 0
        var out = paragraph(say("knowledge.metadata"))
        for (label, value) in rows {
            out += Self.wrapWords(value, width: max(20, width - labelWidth - 4), indent: 0).enumerated().map { i, line in
                "  " + (i == 0 ? label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) : String(repeating: " ", count: labelWidth)) + "  " + line
            }
        }
        out += paragraph(say("knowledge.metadataTLS"))
        return out
    }

    /// Counts for runs with several connections or requests.
    func statistics(_ trace: Trace) -> [String] {
        let st = trace.statistics
        guard st.connections > 1 || st.requests > 1 || st.cpuTime > 0 else { return [] }
        var out = ["", style(rule("Connections, handshakes, round trips"), .heading),
                   "connections: \(st.connections); TLS handshakes: \(st.fullHandshakes) full, \(st.abbreviatedHandshakes) abbreviated; requests: \(st.requests), responses: \(st.responses)",
                   "round trips the client waited for: \(st.roundTrips); last response at \(st.lastResponseTime.map { Self.timeText($0) } ?? "—"); virtual CPU for public-key work: \(Self.timeText(st.cpuTime))",
                   explanations("stats.firstByte", ["firstByte": st.roundTripsToFirstByte.map(String.init) ?? "—", "total": "\(st.roundTrips)"]) ?? ""]
        if st.roundTripsToFirstByteByConnection.count > 1 {
            out.append(explanations("stats.firstBytePerConnection", ["list": st.roundTripsToFirstByteByConnection.map(String.init).joined(separator: ", ")]) ?? "")
        }
        if let text = explanations("stats.roundTrips") { out += paragraph(text) }
        if st.usedHTTP2 {
            out.append("HTTP/2: \(st.http2Streams) streams on \(st.connections) connection\(st.connections == 1 ? "" : "s")\(st.pushedResponses > 0 ? " (\(st.pushedResponses) pushed)" : ""); header blocks \(st.hpackRawBytes) → \(st.hpackEncodedBytes) bytes with HPACK; each request's: \(st.requestHeaderBlocks.map(String.init).joined(separator: ", ")) bytes")
            if let text = explanations("stats.http2") { out += paragraph(text) }
        }
        return out
    }
}
