import HTTP2
import TCPSim
import TLSCrypto
import TLSEngine
import Trace

/// The entries the document's steps are made of: rows (an arrow, a mark on a column, or neither)
/// with their time, values and explanations under them, the section rule, shortened values.
extension RunDocumentBuilder {
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
        guard from != to else { return name(from) }
        // The walkthrough's sticky header names the columns above the arrow.
        if ladderStyle == .walkthrough { return "" }
        return column(from) <= column(to) ? "\(name(from)) ──▶ \(name(to))" : "\(name(to)) ◀── \(name(from))"
    }

    /// The time column, right-aligned to the widest time of the trace.
    func time(_ micros: Int64) -> String {
        DisplayWidth.leftPadded(RunDocument.timeText(micros, unit: ladderStyle == .printed), to: layout.timeWidth)
    }

    /// One ladder entry: time, the graphic, the text (wrapped in its own column, rails continuing
    /// when printed): an arrow from `from` to `to` (broken off when `lost`), or a mark on `at`'s column.
    /// `namesActor`: the text already names `at` (its catalogue entry starts with the party, in
    /// every language), so a surface does not name the party again.
    func row(_ t: String, from: Actor? = nil, to: Actor? = nil, at: Actor? = nil, lost: Bool = false, namesActor: Bool = false,
             _ text: String, _ s: LadderEntry.Style = .plain) -> LadderEntry {
        let tone: LadderMark.Tone = switch s {
        case .tcp: .tcp
        case .tls: .tls
        case .alert: .alert
        default: .plain
        }
        let mark = from != nil && to != nil ? LadderMark(from: from, to: to, lost: lost, tone: tone) : LadderMark(from: at, to: nil, tone: tone)
        var entry = LadderEntry(.row(time: t, mark: mark, text: text), s)
        entry.namesActor = namesActor && at != nil
        return entry
    }

    /// A TCP segment's label parts: flags, seq, ack (when set), length, and what it carries.
    func segmentLabel(_ p: TCPPacket, injected: Bool = false) -> [LadderEntry.LabelPart] {
        let s = p.segment
        var parts: [LadderEntry.LabelPart] = [.protocolName("TCP"), .flags(s.flags.compact), .seq(s.seq.rawValue)]
        if let ack = s.ack { parts.append(.ack(ack.rawValue)) }
        parts.append(.length(s.payload.count))
        let names = carriedNames(p, injected: injected)
        if !names.isEmpty { parts.append(.carried(names)) }
        return parts
    }

    /// The same entry, marked as naming its actor in its words (`LadderEntry.namesActor`).
    func namingActor(_ entry: LadderEntry) -> LadderEntry {
        var entry = entry
        entry.namesActor = true
        return entry
    }

    /// A value under an entry (printed: blank time, plain rails, then the text).
    func detail(_ text: String, _ s: LadderEntry.Style = .plain, indent: Int = 0) -> LadderEntry {
        LadderEntry(s == .explanation ? .sentence(text, indent: indent) : .fact(text, indent: indent), s)
    }

    /// A catalogue sentence under a ladder entry, worded in the builder's language and kept as
    /// its key and values (parties as `Actor` raw values, numbers, hex), so a surface can word it
    /// again in its reader's language (`LadderEntry.worded(in:)`); nothing when the catalogue lacks it.
    func explain(_ sentence: Sentence) -> [LadderEntry] {
        guard explanations(sentence.key) != nil else { return [] }
        var entries = explain(explanations.sentence(sentence))
        for i in entries.indices { entries[i].sentence = sentence }
        return entries
    }

    /// An explanation under a ladder entry (rails continue beside it).
    func explain(_ text: String) -> [LadderEntry] {
        guard !text.isEmpty else { return [] }
        return [detail(text, .explanation, indent: 2)]
    }

    /// An explanation in a full-width section (outcome, knowledge panel).
    func paragraph(_ text: String) -> [LadderEntry] {
        guard !text.isEmpty else { return [] }
        return [LadderEntry(.paragraph(text), .explanation)]
    }

    func short(_ bytes: [UInt8], sized: Bool = true) -> String {
        bytes.count <= 16 || fullValues ? Hex.string(bytes)
            : Hex.string(bytes.prefix(8)) + "…" + Hex.string(bytes.suffix(4)) + (sized ? say("value.bytes", ["count": "\(bytes.count)"]) : "")
    }

    /// The first line of an HTTP/1.x message; for an HTTP/2 one (`http2`, from the trace's phase:
    /// its fields as `name: value` lines, pseudo-headers first) the request as method and URI
    /// (`GET https://example.com/a`), the response as its status.
    func firstLine(_ s: String, http2: Bool) -> String {
        let lines = s.split(separator: "\r\n")
        guard http2 else { return String(lines.first ?? "") }
        var pseudo: [String: String] = [:]
        for line in lines.prefix(while: { $0.hasPrefix(":") }) {
            guard let colon = line.dropFirst().firstIndex(of: ":") else { continue }
            pseudo[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if let method = pseudo[":method"] {
            return "\(method) \(pseudo[":scheme"] ?? "https")://\(pseudo[":authority"] ?? "")\(pseudo[":path"] ?? "")"
        }
        return pseudo[":status"].map { say("ladder.http.status", ["status": $0]) } ?? lines.prefix(while: { $0.hasPrefix(":") }).joined(separator: " ")
    }


    /// A section heading's rule ("── Title ────").
    func rule(_ title: String) -> String { LadderEntry.rule(title, width: width) }

    /// `text` wrapped to the width (a lesson's plan, laid out already).
    func wrapped(_ text: String, indent: Int) -> [String] {
        HexdumpRenderer(width: width).wrap(text, continuationIndent: indent)
    }
}
