import HTTP2
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

        /// The ladder entry as one string (its lines joined with newlines).
        public var headline: String { ladder.joined(separator: "\n") }
    }

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
        let normal = make(.normal), bytes = make(.bytes)
        renderer = normal
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
            guard var step = Self.step(index, event, plain: plain, full: full, trace: trace, renderer: normal) else { continue }
            if !taught.isEmpty {
                step.detail += taught
                step.detailWithBytes += taught
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

    /// The renderer's entries may hold several lines; the screen works with single lines.
    static func lines(_ entries: [String]) -> [String] {
        entries.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }
}
