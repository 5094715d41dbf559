import Trace

/// One thing the ladder shows for an event, as data: a row (an arrow from one party to another,
/// or a mark on one party's column), a heading, a value line, a sentence that explains, a
/// paragraph, or a line laid out already (a hexdump line, a lesson's table). The terminal printer
/// lays entries out into lines (`LadderPrinter.print(_:)`); the walkthrough and the HTML page read
/// their fields and never the printed text.
public struct LadderEntry: Sendable, Hashable {
    public enum Form: Sendable, Hashable {
        /// A ladder row: its time column's text, where it sits (an arrow from `mark.from` to
        /// `mark.to`, or a mark on `mark.from`'s column, or neither) and its words.
        case row(time: String, mark: LadderMark, text: String)
        /// A section heading (`title`), drawn as `line` ("── title ────").
        case heading(title: String, line: String)
        /// A value or fact under a row, indented by `indent` columns.
        case fact(String, indent: Int)
        /// A sentence that explains the step (under its row, indented by `indent`).
        case sentence(String, indent: Int)
        /// A full-width paragraph that explains (an outcome's cause, a lesson's result).
        case paragraph(String)
        /// A line as it is: a hexdump line, a lesson's table row, an empty line.
        case line(String)
    }

    /// One typed part of a row's label: what a segment or a message is, in protocol notation.
    public enum LabelPart: Sendable, Hashable {
        /// The protocol of the row: "TCP", "TLS".
        case protocolName(String)
        /// A segment's control bits, compact (`S`, `SA`, `PA`, `FA`, `R`).
        case flags(String)
        /// A segment's sequence number, acknowledgment number and payload length.
        case seq(UInt32), ack(UInt32), length(Int)
        /// A TLS message's name (`ClientHello`, `ChangeCipherSpec`, `Alert fatal handshake_failure`).
        case message(String)
        /// A TLS message's size in bytes.
        case bytes(Int)
        /// What a segment's payload carries, each already worded (`ClientHello`, `Finished (encrypted)`).
        case carried([String])
    }

    /// How the terminal shows an entry: a heading, a TCP or TLS row, an alert, an explanation.
    enum Style: Sendable, Hashable { case heading, tcp, tls, alert, attacker, explanation, plain }

    public var form: Form
    /// How the terminal colours it.
    var style: Style
    /// Shown only with the annotated bytes (`--verbosity bytes`, the walkthrough's `x`).
    public var bytesOnly = false
    /// A line laid out already that is a sentence (a lesson's plan or verdict), not a value.
    var prose = false
    /// The words of a line laid out already (wrapped), before they were laid out.
    var words: String?
    /// A sentence's catalogue key and values (parties as `Actor` raw values, numbers, hex), when
    /// it was worded from language-neutral values: each surface words it for its reader
    /// (`worded(in:)`), and the document sets `sender` and `receiver` from the step's kind.
    public internal(set) var sentence: Sentence?
    /// A row's label as typed parts (a segment's flags, seq, ack and length, what it carries; a
    /// message's name and size), for surfaces that lay the label out themselves (the HTML arrows).
    public internal(set) var label: [LabelPart] = []
    /// True when the entry's words already name the party it sits on ("server: CLOSED → LISTEN",
    /// "client computes …"), in every language: a surface that names the party itself (the page's
    /// row titles) does not name it again. Set where the words are chosen, from the catalogue key.
    public internal(set) var namesActor = false

    init(_ form: Form, _ style: Style = .plain, bytesOnly: Bool = false) {
        self.form = form
        self.style = style
        self.bytesOnly = bytesOnly
    }

    /// An empty line.
    static let blank = LadderEntry(.line(""))

    /// A line as it is.
    static func line(_ text: String, _ style: Style = .plain) -> LadderEntry { LadderEntry(.line(text), style) }

    /// A line laid out already that says a sentence; `words` is its text before it was wrapped.
    static func prose(_ text: String, words: String? = nil, _ style: Style = .plain) -> LadderEntry {
        var e = LadderEntry(.line(text), style)
        e.prose = true
        e.words = words
        return e
    }

    /// A section heading's rule: "── Title ────", as wide as 65 columns or `width` if narrower.
    static func rule(_ title: String, width: Int) -> String {
        let head = "── \(title) "
        return head + String(repeating: "─", count: max(3, min(65, width) - DisplayWidth.columns(head)))
    }

    /// A heading drawn as the ladder's section rule.
    static func heading(_ title: String, line: String) -> LadderEntry { LadderEntry(.heading(title: title, line: line), .heading) }

    /// The row's geometry, when the entry is a row.
    public var mark: LadderMark? {
        if case .row(_, let mark, _) = form { return mark }
        return nil
    }

    /// The entry's words without layout: a row's text, a heading's title, a sentence, a value.
    public var text: String {
        if let words { return words }
        switch form {
        case .row(_, _, let text), .heading(let text, _), .fact(let text, _), .sentence(let text, _), .paragraph(let text), .line(let text):
            return text
        }
    }

    /// The entry's words in `explanations`' language: a sentence kept as key and values is worded
    /// now, at the last moment; any other entry is its text.
    public func worded(in explanations: Explanations) -> String {
        sentence.map(explanations.sentence) ?? text
    }

    /// True for an entry that teaches in words (a sentence or a paragraph), not a value.
    public var isSentence: Bool {
        switch form {
        case .sentence, .paragraph: return true
        default: return prose
        }
    }

    /// True for an entry that shows nothing (an empty line).
    var isBlank: Bool {
        if case .line(let text) = form { return text.allSatisfy { $0 == " " } }
        return false
    }

    /// The same entry, shown only with the bytes.
    var onlyWithBytes: LadderEntry {
        var e = self
        e.bytesOnly = true
        return e
    }
}
