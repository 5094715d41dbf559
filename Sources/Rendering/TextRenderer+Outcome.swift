import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The end of a run: the outcome, the who-knows-what panel and the statistics.
extension TextRenderer {
    // MARK: Outcome and knowledge

    func outcome(_ trace: Trace) -> [LadderEntry] {
        let s = trace.summary
        func say(_ key: String, _ values: [String: String] = [:]) -> String { explanations(key, values) ?? key }
        let version = s.version.map(String.init(describing:)) ?? "TLS"
        let suite = s.cipherSuite.map(String.init(describing:)) ?? "?"
        let ems = s.extendedMasterSecret ? say("outcome.ems") : ""
        let alpn = s.applicationProtocol.map { say("outcome.alpn", ["protocol": $0.description]) } ?? ""
        let title = say("heading.outcome")
        var out: [LadderEntry] = [.blank, .heading(title, line: rule(title))]
        switch s.runOutcome {
        case let .alert(failure, afterHandshake):
            let values = ["side": name(failure.sentBy), "alert": "\(failure.alert)"]
            out.append(.line(say(afterHandshake ? "outcome.failedAfterHandshake" : "outcome.failed", values), .alert))
            out += paragraph(say("outcome.why", ["cause": explanations.alertCause(failure.cause)]))
        case .plainHTTP(let responded, _):
            out.append(.line(say(responded ? "outcome.plainHTTP" : "outcome.noResponse")))
        case .handshakeCompleted:
            out.append(.line(say("outcome.success", ["version": version, "suite": suite, "ems": ems, "alpn": alpn])))
            if s.sidesAgree, let m = s.masterSecret { out.append(.line(say("outcome.sameMaster", ["master": short(m)]))) }
        case let .oneSided(side, exchangeFailure):
            // A real peer (`tlslab connect` / `serve`): only our side's events exist.
            let values = ["side": name(side), "version": version, "suite": suite, "ems": ems, "alpn": alpn]
            if let why = exchangeFailure {
                out.append(.line(say("outcome.oneSidedFailed", values.merging(["why": explanations.exchangeFailure(why)]) { a, _ in a }), .alert))
            } else {
                out.append(.line(say("outcome.oneSided", values)))
            }
        case .exchangeFailed(let why):
            out.append(.line(say("outcome.exchangeFailed", ["why": explanations.exchangeFailure(why)]), .alert))
        case .incomplete:
            out.append(.line(say("outcome.incomplete")))
        }
        // An HTTP/2 connection error ends that connection however TLS fared (RFC 9113 §5.4.1).
        for event in trace.events {
            if case .http2(.connectionError(let code, let why)) = event.kind {
                out.append(.line(say("outcome.http2Error", ["side": name(event.actor), "code": code.name, "why": explanations.http2Problem(why)]), .alert))
            }
            if case .http2(.peerConnectionError(let code, let why)) = event.kind {
                out.append(.line(say("outcome.http2Error", ["side": name(event.counterpart), "code": code.name, "why": why]), .alert))
            }
        }
        let all = trace.summaries
        if all.count > 1 {
            for (i, c) in all.enumerated() {
                out.append(.line(say("outcome.connection", ["number": "\(i + 1)", "outcome": explanations("outcome.word.\(c.outcome)") ?? c.outcome,
                                                      "resumed": c.resumed ? say("outcome.resumed") : "",
                                                      "master": c.masterSecret.map { say("outcome.connectionMaster", ["master": short($0)]) } ?? ""])))
            }
        }
        return out
    }

    /// The table of who knows which secret; `moment` is the catalogue key of the heading (when in
    /// the run it is drawn), `remarks` adds the explanations below it.
    public func knowledgePanel(_ table: KnowledgeTable, moment: String = "knowledge.atTheEnd", remarks: Bool = true,
                               metadata: WireMetadata? = nil) -> [String] {
        let marks = (yes: say("knowledge.knows"), no: say("knowledge.doesNotKnow"))
        let markWidth = max(DisplayWidth.columns(marks.yes), DisplayWidth.columns(marks.no))
        func mark(_ b: Bool) -> String { DisplayWidth.padded(b ? marks.yes : marks.no, to: markWidth) }
        // The columns: who, each as wide as its heading plus three, at least a mark plus four; a
        // row's marks start where the headings do (display columns, so Chinese headings align too).
        var columns = ["client", "server", "eavesdropper"]
        if table.hasAfterwards { columns.append("afterwards") }
        if table.hasAttacker { columns.append("attacker") }
        let headings = columns.map { say("knowledge.column.\($0)") }
        let widths = headings.map { max(markWidth + 4, DisplayWidth.columns($0) + 3) }
        let names = table.rows.map { row in row.changedInFlight ? say("knowledge.changedCopyRow") : row.derivedDifferently ? say("knowledge.serverOwnRow") : secretName(row.secret) }
        let nameWidth = max(18, names.map { DisplayWidth.columns($0) }.max() ?? 0)
        func line(_ first: String, _ cells: [String]) -> String {
            DisplayWidth.padded(first, to: nameWidth + 2)
                + cells.enumerated().map { i, cell in i == cells.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[i]) }.joined()
        }
        var out = ["", style(rule(explanations(moment) ?? say("knowledge.soFar")), .heading), line(say("knowledge.column.secret"), headings)]
        for (row, name) in zip(table.rows, names) {
            var cells = [mark(row.client), mark(row.server), mark(row.eavesdropper)]
            if table.hasAfterwards { cells.append(mark(row.eavesdropperAfterwards ?? false)) }
            if table.hasAttacker { cells.append(mark(row.attacker ?? false)) }
            out.append(line(name, cells))
        }
        guard remarks else { return out }
        out += paragraphLines(explanations("knowledge.measured") ?? "")
        if let metadata { out += metadataLines(metadata) }
        if table.hasChangedCopy, let text = explanations("knowledge.changedCopy") { out += paragraphLines(text) }
        if table.hasDifferentValues, let text = explanations("knowledge.serverOwn") { out += paragraphLines(text) }
        if table.decodedHTTP2, let text = explanations("knowledge.http2") { out += paragraphLines(text) }
        if table.hasAfterwards, let text = explanations("knowledge.afterwards") { out += paragraphLines(text) }
        if table.hasAttacker, let text = explanations("knowledge.attacker") { out += paragraphLines(text) }
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
        let labelWidth = rows.map { DisplayWidth.columns($0.0) }.max() ?? 0
        var out = paragraphLines(say("knowledge.metadata"))
        for (label, value) in rows {
            out += Self.wrapWords(value, width: max(20, width - labelWidth - 4), indent: 0).enumerated().map { i, line in
                "  " + (i == 0 ? DisplayWidth.padded(label, to: labelWidth) : String(repeating: " ", count: labelWidth)) + "  " + line
            }
        }
        out += paragraphLines(say("knowledge.metadataTLS"))
        return out
    }

    /// A secret's name in the knowledge table and the attack lines ("premaster secret", "预主密钥").
    func secretName(_ secret: String) -> String {
        explanations("secret.\(secret.replacing(" ", with: "_"))") ?? secret
    }

    /// A secret's name in the reader's language (the catalogue's `secret.*` keys).
    func secretName(_ secret: Secret) -> String { secretName(secret.rawValue) }

    /// Counts for runs with several connections or requests.
    func statistics(_ trace: Trace) -> [String] {
        let st = trace.statistics
        guard st.connections > 1 || st.requests > 1 || st.cpuTime > 0 else { return [] }
        var out = ["", style(rule(say("heading.statistics")), .heading),
                   say("stats.counts", ["connections": "\(st.connections)", "full": "\(st.fullHandshakes)", "abbreviated": "\(st.abbreviatedHandshakes)",
                                        "requests": "\(st.requests)", "responses": "\(st.responses)"]),
                   say("stats.timing", ["roundTrips": "\(st.roundTrips)", "last": st.lastResponseTime.map { Self.timeText($0) } ?? "—",
                                        "cpu": Self.timeText(st.cpuTime)]),
                   explanations("stats.firstByte", ["firstByte": st.roundTripsToFirstByte.map(String.init) ?? "—", "total": "\(st.roundTrips)"]) ?? ""]
        if st.roundTripsToFirstByteByConnection.count > 1 {
            out.append(explanations("stats.firstBytePerConnection", ["list": st.roundTripsToFirstByteByConnection.map(String.init).joined(separator: ", ")]) ?? "")
        }
        if let text = explanations("stats.roundTrips") { out += paragraphLines(text) }
        if st.usedHTTP2 {
            out.append(say(st.connections == 1 ? "stats.http2Line.oneConnection" : "stats.http2Line", [
                "streams": "\(st.http2Streams)", "connections": "\(st.connections)",
                "pushed": st.pushedResponses > 0 ? say("stats.http2Line.pushed", ["count": "\(st.pushedResponses)"]) : "",
                "raw": "\(st.hpackRawBytes)", "encoded": "\(st.hpackEncodedBytes)",
                "blocks": st.requestHeaderBlocks.map(String.init).joined(separator: ", ")]))
            if let text = explanations("stats.http2") { out += paragraphLines(text) }
        }
        return out
    }
}
