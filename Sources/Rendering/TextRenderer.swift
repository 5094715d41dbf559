import Trace

/// Renders a trace as a ladder of lines: time on the left, who sends to whom, the TCP flags,
/// seq/ack/len or the TLS message, and — at the normal level — what it means and the values
/// derived, with their inputs. Pure: a trace in, lines out. It builds the run's document
/// (`RunDocumentBuilder`) and prints it (`LadderPrinter`), with the knowledge panel at the key
/// points, the outcome and the statistics.
public struct TextRenderer: CatalogueWording, Sendable {
    public typealias Verbosity = Rendering.Verbosity
    public typealias LadderStyle = Rendering.LadderStyle
    typealias Style = LadderEntry.Style

    public var verbosity: Verbosity
    public var width: Int
    public var color: Bool
    public var explanations: Explanations
    /// Long values (secrets, keys, randoms) in full instead of `03037e6c…a603235b` (`--full`).
    public var fullValues = false
    /// Columns and stream map for the trace being drawn (`prepared(for:)`).
    var layout = LadderLayout()
    /// How ladder rows are drawn: for print (the default), or for the interactive walkthrough.
    public var ladderStyle: LadderStyle = .printed

    public init(verbosity: Verbosity = .normal, width: Int = 100, color: Bool = false,
                explanations: Explanations = .english) {
        self.verbosity = verbosity
        self.width = max(width, 60)
        self.color = color
        self.explanations = explanations
    }

    /// What builds the document: this renderer's level of detail, width, language and layout.
    var words: RunDocumentBuilder {
        RunDocumentBuilder(verbosity: verbosity, width: width, explanations: explanations, fullValues: fullValues,
                           layout: layout, ladderStyle: ladderStyle)
    }

    /// What prints the document: this renderer's width, colour, language and layout.
    var printer: LadderPrinter {
        LadderPrinter(width: width, color: color, explanations: explanations, layout: layout, ladderStyle: ladderStyle)
    }

    public func render(_ trace: Trace) -> [String] {
        let r = prepared(for: trace)
        let words = r.words, printer = r.printer
        // An ATS decision has no ladder: no column header.
        var lines: [String] = trace.isATSDecision ? [] : printer.columnHeader()
        let document = words.document(for: trace)
        let panels = verbosity != .summary && !document.oneSided && !trace.isLessonOnly
        var keyPoints = KeyPoints()
        for (index, event) in trace.events.enumerated() {
            lines += printer.print(document.steps[index].entries)
            // The knowledge panel at the key points of the first connection.
            if panels, let moment = keyPoints.passed(event) {
                lines += printer.knowledgePanel(document.knowledge(after: index), moment: moment, remarks: false)
            }
        }
        if !trace.isLessonOnly {
            lines += printer.print(words.outcome(trace))
            lines += printer.statistics(trace)
        }
        // A real peer's trace has no wire and no second party to measure knowledge from.
        if panels { lines += printer.knowledgePanel(trace.knowledge, moment: "knowledge.atTheEnd", metadata: trace.wireMetadata) }
        return lines.flatMap(printer.fitToWidth)
    }

    /// The renderer's title line, wrapped to the width like every other line.
    public func title(_ text: String) -> [String] { printer.title(text) }

    /// A section heading drawn as the ladder's headings are ("── Title ────", as wide as 65 columns or
    /// the renderer's width if narrower, measured in display columns), in the heading's colour.
    public func heading(_ title: String) -> String { printer.style(printer.rule(title), .heading) }

    /// The table of who knows which secret (`moment`: the catalogue key of its heading).
    public func knowledgePanel(_ table: KnowledgeTable, moment: String = "knowledge.atTheEnd", remarks: Bool = true,
                               metadata: WireMetadata? = nil) -> [String] {
        printer.knowledgePanel(table, moment: moment, remarks: remarks, metadata: metadata)
    }

    /// The lesson's opening: its title as the heading, the kind and name, the description.
    public func lessonHeader(_ page: LessonPage) -> [String] { printer.lessonHeader(page) }

    /// The lesson's close: what it showed (each expectation checked) and what to try next.
    public func lessonFooter(_ page: LessonPage) -> [String] { printer.lessonFooter(page) }

    /// The names above the ladder's columns.
    func columnHeader() -> [String] { printer.columnHeader() }

    /// The run's document as this renderer words and lays it out.
    func document(for trace: Trace, explainingEveryStep: Bool = false, summarizingPhases: Bool = false) -> RunDocument {
        words.document(for: trace, explainingEveryStep: explainingEveryStep, summarizingPhases: summarizingPhases)
    }

    /// A time as the ladder writes it ("0.9ms"); see `RunDocument.timeText`.
    static func timeText(_ micros: Int64, unit: Bool = true) -> String { RunDocument.timeText(micros, unit: unit) }

    /// Words of `text` in lines of at most `width` columns; see `LadderPrinter.wrapWords`.
    static func wrapWords(_ text: String, width: Int, indent: Int) -> [String] { LadderPrinter.wrapWords(text, width: width, indent: indent) }

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
        r.layout = LadderLayout(trace: trace, width: width, walkthrough: ladderStyle == .walkthrough)
        return r
    }
}
