import HTTP2
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
        /// The ladder entry: its row (time, rails, what crossed the wire) and the lines the row's
        /// text wraps onto (the rails continue beside them), so no message name is ever cut.
        public var ladder: [String]
        /// What the step means and the values it derives (normal detail), unwrapped: the screen wraps.
        public var detail: [String]
        /// The same with the annotated bytes (what `x` shows).
        public var detailWithBytes: [String]
        /// Where the entry's row sits on the ladder, as the text renderer drew it (nil: a heading,
        /// a summary, or a line beside no column).
        public var mark: LadderMark? = nil
        /// Virtual time of the step's event (µs); nil for the opening, summaries and closing.
        public var time: Int64? = nil
        /// The handshake message(s) the step sends, with their field-by-field dissection.
        public var message: MessageBytes? = nil

        /// The ladder entry as one string (its lines joined with newlines).
        public var headline: String { ladder.joined(separator: "\n") }
    }

    /// A message's bytes and their dissection, as `tlslab dissect` reads them.
    public struct MessageBytes: Sendable, Hashable {
        public var bytes: [UInt8]
        public var dissection: Dissection
    }

    /// How many columns the time and the ladder graphic take before a row's words.
    public let ladderPrefixWidth: Int

    public var title: String
    public var steps: [Step]
    let trace: Trace
    let renderer: TextRenderer
    /// False for a lesson without a ladder (an ATS decision): no column header.
    let hasLadder: Bool

    /// Cuts `trace` into steps: the opening, every event that the text renderer draws at the
    /// normal level, a summary where each phase ends, and the outcome. `width` is the screen width.
    /// A lesson file's `page` adds its title and description to the opening and closes the walk with
    /// its expectations checked and what to try next; `about` is a built-in run's one-line summary;
    /// `fullValues` shows long values unshortened; `explanations` is the catalogue of every word.
    public init(title: String, trace: Trace, width: Int, page: LessonPage? = nil, fullValues: Bool = false,
                about: String? = nil, explanations: Explanations = .english) {
        self.title = title
        self.trace = trace
        hasLadder = !trace.isATSDecision
        func make(_ verbosity: TextRenderer.Verbosity) -> TextRenderer {
            var r = TextRenderer(verbosity: verbosity, width: width, color: false, explanations: explanations)
            r.ladderStyle = .walkthrough
            r.fullValues = fullValues
            // One column is the current step's marker (▶).
            r.width = max(20, width - 1)
            return r.prepared(for: trace)
        }
        var normal = make(.normal)
        let bytes = make(.bytes)
        // Every row the normal renderer draws is recorded with its geometry (for the HTML ladder).
        let recorder = LadderMarkRecorder()
        normal.markRecorder = recorder
        renderer = normal
        ladderPrefixWidth = normal.layout.timeWidth + 2 + normal.layout.ladderWidth + 2
        var normalState = TextRenderer.LadderState(), bytesState = TextRenderer.LadderState()
        normalState.plainHTTP = !trace.summary.usedTLS
        bytesState.plainHTTP = normalState.plainHTTP
        normalState.lessonOnly = trace.isLessonOnly
        bytesState.lessonOnly = normalState.lessonOnly
        if normalState.lessonOnly {
            // A TCP lesson's attacker and spoofed hosts sit in their own column.
            normalState.participants = trace.participants
            bytesState.participants = trace.participants
        }
        var steps = [Self.opening(title: title, about: about, page: page, trace: trace, renderer: normal)]
        var teacher = StepTeacher(trace: trace, renderer: normal)
        var openPhase: (phase: Phase, connection: Int, start: Int)?
        for (index, event) in trace.events.enumerated() {
            // Every step stands on its own: an explanation is repeated wherever its kind comes again.
            normalState.explained = []
            bytesState.explained = []
            let plain = normal.render(event, state: &normalState)
            let full = bytes.render(event, state: &bytesState)
            let taught = teacher.sentences(for: index)
            if case .phase(let phase) = event.kind {
                if let open = openPhase, let summary = Self.phaseSummary(open.phase, connection: open.connection,
                                                                         events: open.start..<index, trace: trace, renderer: normal) {
                    steps.append(summary)
                }
                openPhase = (phase, event.connection, index)
            }
            let drawn = Self.step(index, event, plain: plain, full: full, trace: trace, renderer: normal)
            let rows = recorder.take()
            guard var step = drawn else { continue }
            step.mark = rows.first { $0.line == step.ladder.first }?.mark
            step.time = event.time
            if case .tls(.handshakeSent(_, let wire)) = event.kind {
                step.message = MessageBytes(bytes: wire, dissection: normal.dissection(of: wire, state: normalState))
            }
            if !taught.isEmpty {
                step.detail += taught
                step.detailWithBytes += taught
            }
            if trace.isLessonOnly, !step.detail.contains(where: { $0.split(separator: " ").count >= 4 }) {
                // A TCP, ATS or DH lesson's ladder rows are sentences: the pane shows the row's whole.
                let sentence = Self.rowText(step.ladder, renderer: normal, rails: !trace.isATSDecision)
                step.detail.insert(sentence, at: 0)
                step.detailWithBytes.insert(sentence, at: 0)
            }
            steps.append(step)
        }
        if let open = openPhase, let summary = Self.phaseSummary(open.phase, connection: open.connection,
                                                                 events: open.start..<trace.events.count, trace: trace, renderer: normal) {
            steps.append(summary)
        }
        let last = max(0, trace.events.count - 1)
        let outcome = normalState.lessonOnly ? [] : normal.outcome(trace).filter { !$0.isEmpty }
        if let head = outcome.first {
            let rest = Array(outcome.dropFirst())
            steps.append(Step(kind: .closing, eventIndex: last, ladder: [head], detail: rest, detailWithBytes: rest))
        }
        if let page {
            let close = normal.lessonFooter(page).filter { !$0.isEmpty }
            if let head = close.first {
                let rest = Array(close.dropFirst())
                steps.append(Step(kind: .closing, eventIndex: last, ladder: [head], detail: rest, detailWithBytes: rest))
            }
        }
        self.steps = steps
    }

    /// One event's step: its ladder entry and its detail. An event the renderer draws only as
    /// detail (a signature checked, a value derived) gets a row of its own at its actor's rail.
    static func step(_ index: Int, _ event: TraceEvent, plain: [String], full: [String], trace: Trace,
                     renderer: TextRenderer) -> Step? {
        let time = renderer.time(event.time)
        func split(_ entries: [String]) -> (ladder: [String], detail: [String])? {
            let entries = Array(entries.drop { $0.allSatisfy { $0 == " " } })
            guard let first = entries.first else { return nil }
            let rest = lines(Array(entries.dropFirst()))
            if first.hasPrefix("──"), DisplayWidth.columns(first) > renderer.width {
                // A long heading wraps like a row: every word of a phase's name stays whole.
                return (HexdumpRenderer(width: renderer.width).wrap(first, continuationIndent: 3), rest)
            }
            if first.hasPrefix(time) || first.hasPrefix("──") || trace.isATSDecision {
                return (lines([first]), rest)
            }
            let text = first.drop { $0 == " " }
            let actor: Actor? = [.client, .server, .attacker].contains(event.actor) ? event.actor : nil
            return (lines([renderer.row(time, at: actor, String(text))]), rest)
        }
        guard let normal = split(plain) else { return nil }
        let withBytes = split(full)?.detail ?? normal.detail
        return Step(kind: .event, eventIndex: index, ladder: normal.ladder, detail: normal.detail, detailWithBytes: withBytes)
    }

    /// The text of a ladder entry without its time and rails, its wrapped lines joined again.
    static func rowText(_ ladder: [String], renderer: TextRenderer, rails: Bool) -> String {
        let prefix = rails ? renderer.layout.timeWidth + 2 + renderer.layout.ladderWidth + 2 : 0
        return ladder.map { line in
            String(line.dropFirst(min(prefix, line.count)).drop { $0 == " " }).trimmingTrailingSpaces()
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A ladder entry's words without the time column and the ladder graphic in front of them, its
    /// wrapped lines joined again; a heading or a line beside no rails is returned as it is.
    /// Wrapped lines join with a space, except between two wide (CJK) characters: the wrapper breaks
    /// Chinese text between characters, where a space would split a word (as CSS Text 3 §4.1.3 drops
    /// a segment break between two wide characters).
    public func words(_ ladder: [String]) -> String {
        let pieces = ladder.map(words).map { $0.trimmingTrailingSpaces() }.filter { !$0.isEmpty }
        var joined = ""
        for piece in pieces {
            if let last = joined.last, let first = piece.first,
               !(DisplayWidth.columns(last) == 2 && DisplayWidth.columns(first) == 2) {
                joined += " "
            }
            joined += piece
        }
        return joined
    }

    /// One line's words without the time column and the ladder graphic (a row, or a line the
    /// row's text wraps onto), or the line itself (a heading, a detail line, a full-width paragraph).
    public func words(_ line: String) -> String {
        let graphic: Set<Character> = [" ", "│", "├", "┤", "─", "┼", "▶", "◀", "✗", "●", ".", "m", "s",
                                       "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
        guard hasLadder, line.count > ladderPrefixWidth, line.prefix(ladderPrefixWidth).allSatisfy(graphic.contains),
              line.dropFirst(ladderPrefixWidth - 2).hasPrefix("  ") else { return line }
        return String(line.dropFirst(ladderPrefixWidth).drop { $0 == " " })
    }

    /// The renderer's entries may hold several lines; the screen works with single lines.
    static func lines(_ entries: [String]) -> [String] {
        entries.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }
}
