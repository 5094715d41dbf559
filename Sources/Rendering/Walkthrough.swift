import HTTP2
import TCPSim
import TLSEngine
import Trace

/// The interactive walkthrough as values: a run cut into steps, a cursor with the viewer's
/// toggles, and a pure function from (steps, cursor, screen size) to the lines on screen.
/// The terminal loop in the CLI only reads keys, applies them, and paints what this returns.
///
/// The walk opens with a screen that tells the run's story and the keys, gives every step a
/// sentence that teaches (derived from the trace's facts where the ladder has none), and closes
/// each phase with a summary of what it achieved.
public struct Walkthrough: Sendable {
    /// One stop of the walkthrough: the ladder entry it adds, and what is shown while it is current.
    public struct Step: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// The opening screen: the story of the run and the keys.
            case opening
            /// One trace event drawn on the ladder.
            case event
            /// What the phase that just ended achieved.
            case phaseSummary
            /// The outcome, or a lesson's expectations and what to try next.
            case closing
        }

        public var kind: Kind
        /// Index of the trace event this step shows (the knowledge panel is computed up to it).
        public var eventIndex: Int
        /// The ladder entry as the terminal draws it: its row (time, rails, what crossed the wire)
        /// and the lines the row's text wraps onto (the rails continue beside them).
        public var ladder: [String]
        /// What the step means and the values it derives (normal detail), unwrapped: the screen wraps.
        public var detail: [String]
        /// The same with the annotated bytes (what `x` shows).
        public var detailWithBytes: [String]
        /// Where the entry's row sits: an arrow from one party to another (from the event's own
        /// facts, `RunDocument.Step.Kind`), or a mark on one party's column (nil: a heading, a
        /// summary, or a line beside no column).
        public var mark: LadderMark? = nil
        /// Virtual time of the step's event (µs); nil for the opening, summaries and closing.
        public var time: Int64? = nil
        /// The handshake message(s) the step sends, with their field-by-field dissection.
        public var message: MessageBytes? = nil
        /// The TLS records that carry what the step sends, header and fragment (and, protected, what they decrypt to).
        public var records: [RunDocument.RecordBytes] = []
        /// The TCP segment's header the step sends, loses or injects, field by field, and its payload's length.
        public var segment: MessageBytes? = nil
        public var segmentPayload = 0
        /// The step's words: the row's text, a heading's title, unwrapped (no time, no rails).
        public var label: String = ""
        /// A message or segment step's label as typed parts (flags, seq, ack, len, message name, size).
        public var labelParts: [LadderEntry.LabelPart] = []
        /// The label already names the party whose rail the row sits on (`LadderEntry.namesActor`):
        /// a surface that names the party itself does not name it twice.
        public var labelNamesActor = false
        /// The step's detail as typed entries (normal detail): values, sentences, headings.
        public var lines: [LadderEntry] = []
        /// The sentences that explain the step's bytes (each extension of a ClientHello, …): the
        /// terminal shows them with `x`, the page beside the bytes they explain.
        public var bytesSentences: [LadderEntry] = []
        /// The calculations the step's event does (the page shows each with its inputs, formula and output, to copy).
        public var calculations: [Calculation] = []

        /// The ladder entry as one string (its lines joined with newlines).
        public var headline: String { ladder.joined(separator: "\n") }
    }

    /// A message's bytes and their dissection, as `tlslab dissect` reads them.
    public typealias MessageBytes = RunDocument.MessageBytes

    /// How many columns the time and the ladder graphic take before a row's words.
    public let ladderPrefixWidth: Int

    public var title: String
    public var steps: [Step]
    let trace: Trace
    /// The document's words for this screen (normal detail) and the ladder printer it draws with.
    let words: RunDocumentBuilder
    let printer: LadderPrinter
    /// The run's document the steps are cut from.
    public let document: RunDocument
    /// False for a lesson without a ladder (an ATS decision): no column header.
    let hasLadder: Bool
    /// Colour the ladder by kind (TCP, TLS, alert, the attacker's rows) and make the current row
    /// bold (SGR codes added after every width is measured). Off unless the terminal supports it.
    public var color = false

    /// Cuts `trace` into steps: the opening, every event that the text renderer draws at the
    /// normal level, a summary where each phase ends, and the outcome. `width` is the screen width.
    /// A lesson file's `page` adds its title and description to the opening and closes the walk with
    /// its expectations checked and what to try next; `about` is a built-in run's one-line summary;
    /// `fullValues` shows long values unshortened; `explanations` is the catalogue of every word.
    /// Where the walk is read: the terminal's screen (keys, the ladder above the explanation) or the
    /// HTML page (its own controls, the ladder beside the explanation); the opening speaks of it.
    public enum Surface: Sendable { case terminal, page }

    /// `next` is the lesson after this one in the course (name and title): the last step points to
    /// it when the lesson has no `try_next` of its own (a built-in run: where the course starts).
    public init(title: String, trace: Trace, width: Int, page: LessonPage? = nil, fullValues: Bool = false,
                about: String? = nil, explanations: Explanations = .english, surface: Surface = .terminal,
                next: (name: String, title: String)? = nil) {
        self.title = title
        self.trace = trace
        hasLadder = !trace.isATSDecision
        // One column is the current step's marker (▶).
        let screenWidth = max(20, width - 1)
        let layout = LadderLayout(trace: trace, width: screenWidth, walkthrough: true)
        let bytes = RunDocumentBuilder(verbosity: .bytes, width: screenWidth, explanations: explanations, fullValues: fullValues,
                                       layout: layout, ladderStyle: .walkthrough)
        var normal = bytes
        normal.verbosity = .normal
        words = normal
        let printer = LadderPrinter(width: screenWidth, color: false, explanations: explanations, layout: layout, ladderStyle: .walkthrough)
        self.printer = printer
        ladderPrefixWidth = layout.timeWidth + 2 + layout.ladderWidth + 2
        // The run's document, once: every step stands on its own, so an explanation is repeated
        // wherever its kind comes again.
        let document = bytes.document(for: trace, explainingEveryStep: true, summarizingPhases: true)
        self.document = document
        var steps = [Self.opening(title: title, about: about, page: page, trace: trace, words: normal, surface: surface)]
        var teacher = StepTeacher(trace: trace, words: normal)
        // A phase's summary closes it, just before the next phase's heading (or the outcome).
        var summaries = document.summaries[...]
        for entry in document.steps {
            let index = entry.eventIndex
            let event = trace.events[index]
            let taught = teacher.sentences(for: index, kind: entry.kind)
            if case .phaseHeading = entry.kind {
                while let summary = summaries.first, summary.events.upperBound <= index {
                    steps.append(Self.phaseSummary(summary, trace: trace, words: normal, printer: printer))
                    summaries.removeFirst()
                }
            }
            guard var step = Self.step(entry, event, trace: trace, words: normal, printer: printer, surface: surface) else { continue }
            if !taught.isEmpty {
                step.detail += taught
                step.detailWithBytes += taught
                step.lines += taught.map { LadderEntry(.sentence($0, indent: 0), .explanation) }
            }
            if trace.isLessonOnly, !step.lines.contains(where: \.isSentence) {
                // A TCP, ATS or DH lesson's ladder rows are sentences: the pane shows the row's whole.
                step.detail.insert(step.label, at: 0)
                step.detailWithBytes.insert(step.label, at: 0)
                step.lines.insert(LadderEntry(.sentence(step.label, indent: 0), .explanation), at: 0)
            }
            steps.append(step)
        }
        steps += summaries.map { Self.phaseSummary($0, trace: trace, words: normal, printer: printer) }
        let last = max(0, trace.events.count - 1)
        if !trace.isLessonOnly {
            let outcome = normal.outcome(trace).filter { !$0.isBlank }
            if let head = outcome.first {
                let rest = Array(outcome.dropFirst())
                let detail = Self.lines(printer.print(rest)).filter { !$0.isEmpty }
                steps.append(Step(kind: .closing, eventIndex: last, ladder: Self.lines(printer.print(head)), detail: detail,
                                  detailWithBytes: detail, label: head.text, lines: rest))
            }
        }
        if let page {
            let close = printer.lessonFooter(page).filter { !$0.isEmpty }
            if let head = close.first {
                let rest = Array(close.dropFirst())
                steps.append(Step(kind: .closing, eventIndex: last, ladder: [head], detail: rest, detailWithBytes: rest,
                                  label: normal.say("lesson.showed"), lines: rest.map { LadderEntry.line($0) }))
            }
        }
        // What to try next: the lesson's own try_next is in its footer; otherwise the next lesson.
        if let next, page?.tryNext.isEmpty ?? true, let closing = steps.indices.last, steps[closing].kind == .closing {
            let line = normal.say(page == nil ? "walk.next.course" : "walk.next.lesson", ["name": next.name, "title": next.title])
            steps[closing].detail += ["", line]
            steps[closing].detailWithBytes += ["", line]
            steps[closing].lines.append(LadderEntry(.sentence(line, indent: 0), .explanation))
        }
        self.steps = steps
    }

    /// One event's step from its document entry: the ladder row (or heading) and the detail. An
    /// event the renderer shows only as detail (a signature checked, a value derived) gets a row of
    /// its own at its actor's rail.
    static func step(_ entry: RunDocument.Step, _ event: TraceEvent, trace: Trace, words: RunDocumentBuilder, printer: LadderPrinter,
                     surface: Surface = .terminal) -> Step? {
        let all = Array(entry.entries.drop(while: \.isBlank))
        guard let headIndex = all.firstIndex(where: { !$0.bytesOnly }) else { return nil }
        let head = all[headIndex]
        var rest = all
        rest.remove(at: headIndex)
        let normal = rest.filter { !$0.bytesOnly }
        // The terminal's lines; the page draws its ladder from `label` and its panel from `lines`.
        func printed(_ entries: [LadderEntry]) -> [String] { surface == .terminal ? lines(printer.print(entries)) : [] }
        func printed(_ entry: LadderEntry) -> [String] { printed([entry]) }
        let ladder: [String]
        var mark: LadderMark?
        switch head.form {
        case .heading(_, let line):
            // A long heading wraps like a row: every word of a phase's name stays whole.
            ladder = DisplayWidth.columns(line) > printer.width
                ? HexdumpRenderer(width: printer.width).wrap(line, continuationIndent: 3) : [line]
        case .row:
            ladder = printed(head)
            mark = head.mark
        case _ where trace.isATSDecision:
            ladder = printed(head)
        default:
            let actor: Actor? = [.client, .server, .attacker].contains(event.actor) ? event.actor : nil
            let row = words.row(words.time(event.time), at: actor, String(head.worded(in: words.explanations).drop { $0 == " " }))
            ladder = printed(row)
            mark = row.mark
        }
        // The terminal's `x` view; the page draws the same bytes from `message`, `segment` and `records`.
        var withBytes = printed(rest)
        if surface == .terminal, let segment = entry.segment {
            // `x` on a segment shows its TCP header field by field (its payload's messages have their own bytes).
            withBytes.append(words.say("walk.bytes.tcpHeader", ["header": "\(segment.bytes.count)", "payload": "\(payloadCount(event))"]))
            withBytes += HexdumpRenderer(width: printer.width - 2, explanations: words.explanations).render(segment.dissection, input: segment.bytes).map { "  " + $0 }
        }
        // `x` also shows the records that carry the step's content: header and fragment, and what a protected one decrypts to.
        let dump = HexdumpRenderer(width: printer.width - 2, explanations: words.explanations)
        for record in entry.records where surface == .terminal && record.wire.bytes.count >= 5 {
            let fragment = Int(record.wire.bytes[3]) << 8 | Int(record.wire.bytes[4])
            withBytes.append(words.say("walk.bytes.record", ["type": ContentType(rawValue: record.wire.bytes[0]).description,
                                                            "fragment": "\(fragment)"]))
            withBytes += dump.render(record.wire.dissection, input: record.wire.bytes).map { "  " + $0 }
            if let p = record.protection {
                withBytes.append(words.say(p.tls13 ? "walk.bytes.recordProtected13" : "walk.bytes.recordProtected", ["seq": "\(p.sequenceNumber)"]))
                withBytes += dump.render(p.plaintext.dissection, input: p.plaintext.bytes).map { "  " + $0 }
            }
        }
        var step = Step(kind: .event, eventIndex: entry.eventIndex, ladder: ladder, detail: printed(normal),
                        detailWithBytes: withBytes, mark: mark, time: event.time, message: entry.message,
                        label: String(head.worded(in: words.explanations).drop { $0 == " " }), lines: normal)
        step.labelParts = head.label
        step.labelNamesActor = head.namesActor
        step.bytesSentences = rest.filter { $0.bytesOnly && $0.isSentence }
        step.records = entry.records
        step.calculations = entry.calculations
        step.segment = entry.segment
        step.segmentPayload = payloadCount(event)
        return step
    }

    /// The payload length of the segment an event sends, loses or injects.
    static func payloadCount(_ event: TraceEvent) -> Int {
        switch event.kind {
        case .tcp(.sent(let p)), .tcp(.dropped(let p, _)), .tcp(.injected(let p)), .tcp(.forwarded(let p, _)): return p.segment.payload.count
        default: return 0
        }
    }

    /// The renderer's entries may hold several lines; the screen works with single lines.
    static func lines(_ entries: [String]) -> [String] {
        entries.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }
}
