import TLSEngine
import Trace

/// `tlslab compare`: two runs' facts in a table (a row per question, a column per run), why each
/// row comes out as it does (the rule, with its RFC section), who knows which secret in each run,
/// and the two ladders in two columns, phase beside phase.
public struct ComparisonPrinter: CatalogueWording, Sendable {
    public var explanations: Explanations
    /// The whole width; each ladder takes half.
    public var width: Int

    public init(width: Int = 140, explanations: Explanations = .english) {
        self.width = max(width, 124)
        self.explanations = explanations
    }

    public func render(_ comparison: RunComparison, _ first: Trace, _ second: Trace) -> [String] {
        let printer = LadderPrinter(width: width, color: false, explanations: explanations, layout: LadderLayout(), ladderStyle: .printed)
        var out = printer.title(say("compare.title", ["first": comparison.first.name, "second": comparison.second.name]))
        out += table(comparison)
        out += ["", printer.rule(say("compare.why.heading"))]
        for key in Self.whyKeys {
            out += DisplayWidth.wrap(say(key), width: width, indent: 0) + [""]
        }
        for side in [comparison.first, comparison.second] {
            out += ["", say("compare.knowledge.run", ["name": side.name])]
            out += printer.knowledgePanel(side.knowledge, moment: "knowledge.atTheEnd", remarks: false)
        }
        out += ["", printer.rule(say("compare.ladders.heading"))]
        out += ladders(first, second, names: (comparison.first.name, comparison.second.name))
        return out
    }

    // MARK: The table

    /// The table's rows, worded: the question, then each run's answer (the text table and the page
    /// both show these).
    public func rows(_ c: RunComparison) -> [(question: String, first: String, second: String)] {
        let rows: [(String, (RunComparison.Side) -> String)] = [
            ("compare.row.version", { $0.version.map(\.description) ?? say("compare.value.none") }),
            ("compare.row.suite", { $0.suite.map(\.description) ?? say("compare.value.none") }),
            ("compare.row.keyExchange", keyExchange),
            ("compare.row.roundTrips", { $0.roundTripsToFirstByte.map { "\($0)" } ?? say("compare.value.noResponse") }),
            ("compare.row.clear", { say("compare.value.messages", ["count": "\($0.clearMessages.count)", "bytes": "\($0.clearBytes)"]) }),
            ("compare.row.protected", { say("compare.value.messages", ["count": "\($0.protectedMessages.count)", "bytes": "\($0.protectedBytes)"]) }),
            ("compare.row.serverName", { seen($0.serverNameInClear) }),
            ("compare.row.certificate", { seen($0.certificateInClear) }),
            ("compare.row.suiteSeen", { seen($0.suiteInClear) }),
            ("compare.row.stolenKey", stolenKey),
        ]
        return rows.map { key, value in (say(key), value(c.first), value(c.second)) }
    }

    /// The keys of the "why" paragraphs, in order.
    public static let whyKeys = ["compare.why.roundTrips", "compare.why.clear", "compare.why.serverName", "compare.why.certificate",
                                 "compare.why.suite", "compare.why.stolenKey"]

    func table(_ c: RunComparison) -> [String] {
        let questionWidth = 34
        let valueWidth = (width - questionWidth - 2) / 2
        func line(_ question: String, _ a: String, _ b: String) -> [String] {
            let q = DisplayWidth.wrap(question, width: questionWidth, indent: 0)
            let left = DisplayWidth.wrap(a, width: valueWidth - 2, indent: 0)
            let right = DisplayWidth.wrap(b, width: valueWidth - 2, indent: 0)
            return (0 ..< max(q.count, left.count, right.count)).map { i in
                let cells = [i < q.count ? q[i] : "", i < left.count ? left[i] : "", i < right.count ? right[i] : ""]
                return (DisplayWidth.padded(cells[0], to: questionWidth + 2) + DisplayWidth.padded(cells[1], to: valueWidth) + cells[2])
                    .trimmingTrailingSpaces()
            }
        }
        var out = [""] + line("", c.first.name, c.second.name)
        for row in rows(c) { out += line(row.question, row.first, row.second) }
        return out
    }

    func keyExchange(_ side: RunComparison.Side) -> String {
        switch side.keyExchange {
        case .rsaKeyTransport: return say("compare.value.rsaTransport")
        case .ephemeral(let group): return say("compare.value.ephemeral", ["group": group])
        case .none: return say("compare.value.none")
        }
    }

    func stolenKey(_ side: RunComparison.Side) -> String {
        switch side.stolenKeyOpens {
        case .everything: return say("compare.value.opensEverything")
        case .nothing: return say("compare.value.opensNothing")
        case .notApplicable: return say("compare.value.none")
        }
    }

    func seen(_ value: Bool?) -> String {
        guard let value else { return say("compare.value.notSent") }
        return say(value ? "compare.value.inTheClear" : "compare.value.encrypted")
    }

    // MARK: The ladders, phase beside phase

    /// A run's ladder as blocks: each phase's heading and the arrows of the messages in it.
    public struct Block: Sendable { public var key: String; public var lines: [String] }

    public func blocks(_ trace: Trace, name: String, width: Int) -> [Block] {
        let layout = LadderLayout(trace: trace, width: width, walkthrough: false)
        let words = RunDocumentBuilder(verbosity: .normal, width: width, explanations: explanations, layout: layout)
        let printer = LadderPrinter(width: width, color: false, explanations: explanations, layout: layout, ladderStyle: .printed)
        var blocks = [Block(key: "start", lines: [name] + printer.columnHeader())]
        for step in words.document(for: trace).steps {
            switch step.kind {
            case .phaseHeading(let phase):
                blocks.append(Block(key: Self.key(phase, after: blocks.map(\.key)), lines: [""]))
                blocks[blocks.count - 1].lines += printer.print(step.entries.filter { if case .heading = $0.form { true } else { false } })
            case .message:
                blocks[blocks.count - 1].lines += printer.print(step.entries.filter { if case .row = $0.form { true } else { false } })
            default:
                break
            }
        }
        return blocks.map { Block(key: $0.key, lines: $0.lines.flatMap(printer.fitToWidth)) }
    }

    /// Which phases face each other: TCP's opening, the TLS handshake, the application's data, the close.
    static func key(_ phase: Phase, after keys: [String]) -> String {
        let base: String
        switch phase {
        case .tcpOpen, .tcpSocketLevel: base = "tcp"
        case .tlsHandshake: base = "tls"
        case .http, .http2, .http2NotSelected, .unspokenApplicationProtocol: base = "application"
        case .closing: base = "closing"
        default: base = "other"
        }
        // A second connection's phases face the other run's second connection.
        let count = keys.filter { $0 == base || $0.hasPrefix(base + "#") }.count
        return count == 0 ? base : "\(base)#\(count)"
    }

    func ladders(_ first: Trace, _ second: Trace, names: (String, String)) -> [String] {
        let column = (width - 3) / 2
        var out: [String] = []
        for (a, b) in facing(blocks(first, name: names.0, width: column), blocks(second, name: names.1, width: column)) {
            let rows = max(a?.lines.count ?? 0, b?.lines.count ?? 0)
            for i in 0 ..< rows {
                let l = a.flatMap { i < $0.lines.count ? $0.lines[i] : nil } ?? ""
                let r = b.flatMap { i < $0.lines.count ? $0.lines[i] : nil } ?? ""
                out.append((DisplayWidth.padded(l, to: column) + " │ " + r).trimmingTrailingSpaces())
            }
        }
        return out
    }

    /// The two runs' blocks paired phase with phase, in order; a phase only one run has faces nothing.
    public func facing(_ left: [Block], _ right: [Block]) -> [(Block?, Block?)] {
        var out: [(Block?, Block?)] = []
        var i = 0, j = 0
        while i < left.count || j < right.count {
            if i < left.count, j < right.count, left[i].key == right[j].key {
                out.append((left[i], right[j])); i += 1; j += 1
            } else if i < left.count, !right[j...].contains(where: { $0.key == left[i].key }) {
                out.append((left[i], nil)); i += 1
            } else if j < right.count {
                out.append((nil, right[j])); j += 1
            } else {
                out.append((left[i], nil)); i += 1
            }
        }
        return out
    }
}
