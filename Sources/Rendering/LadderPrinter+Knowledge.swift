import HTTP2
import PKI
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The end of a printed run: the who-knows-what panel and the statistics.
extension LadderPrinter {
    /// The table of who knows which secret; `moment` is the catalogue key of the heading (when in
    /// the run it is drawn), `remarks` adds the explanations below it.
    func knowledgePanel(_ table: KnowledgeTable, moment: String = "knowledge.atTheEnd", remarks: Bool = true,
                               metadata: WireMetadata? = nil) -> [String] {
        let marks = (yes: say("knowledge.knows"), no: say("knowledge.doesNotKnow"))
        let markWidth = max(DisplayWidth.columns(marks.yes), DisplayWidth.columns(marks.no))
        func mark(_ b: Bool) -> String { DisplayWidth.padded(b ? marks.yes : marks.no, to: markWidth) }
        // The columns: who, each as wide as its heading plus three, at least a mark plus four; a
        // row's marks start where the headings do (display columns, so Chinese headings align too).
        var columns = ["knowledge.column.client", "knowledge.column.server", "knowledge.column.eavesdropper"]
        if table.hasAfterwards { columns.append("knowledge.column.afterwards") }
        if table.hasAttacker { columns.append("knowledge.column.attacker") }
        let headings = columns.map { say($0) }
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
        out += paragraphLines(say("knowledge.measured"))
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
                : say("metadata.records", ["count": "\(lengths.count)", "lengths": lengths.map(String.init).joined(separator: say("list.separator"))])
        }
        var rows: [(String, String)] = []
        if let client = m.client, let server = m.server { rows.append((say("metadata.endpoints"), "\(client) → \(server)")) }
        rows.append((say("metadata.serverName"), m.serverName ?? say("metadata.none")))
        if let length = m.chainLength { rows.append((say("metadata.chain"), say("metadata.chainLength", ["count": "\(length)"]))) }
        if m.certificateEncrypted { rows.append((say("metadata.chain"), say("metadata.chainEncrypted"))) }
        if let suite = m.cipherSuite { rows.append((say("metadata.suite"), suite.nameOrHex)) }
        if let group = m.group {
            rows.append((say("metadata.group"), m.publicValuesInClear ? say("metadata.groupAndPublics", ["group": group]) : group))
        }
        rows.append((say("metadata.clientRecords"), sizes(m.clientRecordLengths)))
        rows.append((say("metadata.serverRecords"), sizes(m.serverRecordLengths)))
        let labelWidth = rows.map { DisplayWidth.columns($0.0) }.max() ?? 0
        var out = paragraphLines(say("knowledge.metadata"))
        for (label, value) in rows {
            out += LadderPrinter.wrapWords(value, width: max(20, width - labelWidth - 4), indent: 0).enumerated().map { i, line in
                "  " + (i == 0 ? DisplayWidth.padded(label, to: labelWidth) : String(repeating: " ", count: labelWidth)) + "  " + line
            }
        }
        out += paragraphLines(say(m.certificateEncrypted ? "knowledge.metadataTLS13" : "knowledge.metadataTLS"))
        return out
    }

    /// Counts for runs with several connections or requests.
    func statistics(_ trace: Trace) -> [String] {
        let st = trace.statistics
        guard st.connections > 1 || st.requests > 1 || st.cpuTime > 0 else { return [] }
        var out = ["", style(rule(say("heading.statistics")), .heading),
                   say("stats.counts", ["connections": "\(st.connections)", "full": "\(st.fullHandshakes)", "abbreviated": "\(st.abbreviatedHandshakes)",
                                        "requests": "\(st.requests)", "responses": "\(st.responses)"]),
                   say("stats.timing", ["roundTrips": "\(st.roundTrips)", "last": st.lastResponseTime.map { RunDocument.timeText($0) } ?? "—",
                                        "cpu": RunDocument.timeText(st.cpuTime)]),
                   say("stats.firstByte", ["firstByte": st.roundTripsToFirstByte.map(String.init) ?? "—", "total": "\(st.roundTrips)"])]
        if st.roundTripsToFirstByteByConnection.count > 1 {
            out.append(say("stats.firstBytePerConnection", ["list": st.roundTripsToFirstByteByConnection.map(String.init).joined(separator: say("list.separator"))]))
        }
        if let text = explanations("stats.roundTrips") { out += paragraphLines(text) }
        if st.usedHTTP2 {
            out.append(say(st.connections == 1 ? "stats.http2Line.oneConnection" : "stats.http2Line", [
                "streams": "\(st.http2Streams)", "connections": "\(st.connections)",
                "pushed": st.pushedResponses > 0 ? say("stats.http2Line.pushed", ["count": "\(st.pushedResponses)"]) : "",
                "raw": "\(st.hpackRawBytes)", "encoded": "\(st.hpackEncodedBytes)",
                "blocks": st.requestHeaderBlocks.map(String.init).joined(separator: say("list.separator"))]))
            if let text = explanations("stats.http2") { out += paragraphLines(text) }
        }
        return out
    }
}
