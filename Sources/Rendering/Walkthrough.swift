import HTTP2
import Trace

/// The interactive walkthrough as values: a run cut into steps, a cursor with the viewer's
/// toggles, and a pure function from (steps, cursor, screen size) to the lines on screen.
/// The terminal loop in the CLI only reads keys, applies them, and paints what this returns.
public struct Walkthrough: Sendable {
    /// One stop of the walkthrough: the ladder line it adds, and what is shown while it is current.
    public struct Step: Sendable, Hashable {
        /// Index of the trace event this step shows (the knowledge panel is computed up to it).
        public var eventIndex: Int
        /// The ladder line (time, arrow, what crossed the wire).
        public var headline: String
        /// Explanation and derived values (normal detail).
        public var detail: [String]
        /// The same with the annotated bytes (what `x` shows).
        public var detailWithBytes: [String]
    }

    public var title: String
    public var steps: [Step]
    let trace: Trace
    let renderer: TextRenderer

    /// Cuts `trace` into steps: every event that the text renderer draws at the normal level
    /// becomes one step, and the outcome closes the walk. `width` is the screen width.
    /// A lesson file's `page` opens the walk with its title and description and closes it with
    /// its expectations checked and what to try next; `fullValues` shows long values unshortened.
    /// `explanations` is the catalogue of the language every word of the screen is in.
    public init(title: String, trace: Trace, width: Int, page: LessonPage? = nil, fullValues: Bool = false,
                explanations: Explanations = .english) {
        self.title = title
        self.trace = trace
        var normalRenderer = TextRenderer(verbosity: .normal, width: width, color: false, explanations: explanations)
        var bytesRenderer = TextRenderer(verbosity: .bytes, width: width, color: false, explanations: explanations)
        normalRenderer.fullValues = fullValues
        bytesRenderer.fullValues = fullValues
        let normal = normalRenderer.prepared(for: trace)
        let bytes = bytesRenderer.prepared(for: trace)
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
        var steps: [Step] = []
        if let page {
            let intro = normal.lessonHeader(page).filter { !$0.isEmpty }
            if let head = intro.first {
                steps.append(Step(eventIndex: 0, headline: head, detail: Array(intro.dropFirst()), detailWithBytes: Array(intro.dropFirst())))
            }
        }
        for (index, event) in trace.events.enumerated() {
            let plain = Self.lines(normal.render(event, state: &normalState))
            let full = Self.lines(bytes.render(event, state: &bytesState))
            guard let head = plain.firstIndex(where: { !$0.allSatisfy { $0 == " " } }) else { continue }
            let headline = plain[head]
            steps.append(Step(eventIndex: index, headline: headline,
                              detail: Array(plain[(head + 1)...]),
                              detailWithBytes: Array(full.drop { $0 != headline }.dropFirst())))
        }
        let outcome = normalState.lessonOnly ? [] : normal.outcome(trace).filter { !$0.isEmpty }
        if let head = outcome.first {
            steps.append(Step(eventIndex: max(0, trace.events.count - 1), headline: head,
                              detail: Array(outcome.dropFirst()), detailWithBytes: Array(outcome.dropFirst())))
        }
        if let page {
            let close = normal.lessonFooter(page).filter { !$0.isEmpty }
            if let head = close.first {
                steps.append(Step(eventIndex: max(0, trace.events.count - 1), headline: head,
                                  detail: Array(close.dropFirst()), detailWithBytes: Array(close.dropFirst())))
            }
        }
        self.steps = steps
    }

    /// Where the viewer is and what is toggled on.
    public struct Cursor: Sendable, Hashable {
        public var step = 0
        public var showKnowledge = false
        public var showBytes = false
        /// Digits typed after `g`, while a jump is being entered.
        public var jumpDigits: String?
        public var finished = false
        /// How many lines the current step's detail is scrolled down (0 on every new step).
        public var scroll = 0

        public init() {}
    }

    /// A key press, already decoded from the terminal's bytes.
    public enum Key: Sendable, Hashable {
        case next, back, first, last, jump, digit(Int), enter, cancel, knowledge, bytes, quit, other
        /// Scroll the current step's detail (d / PgDn, u / PgUp): `k` stays the knowledge toggle.
        case scrollDown, scrollUp
    }

    /// Decodes the bytes of one key press (arrows arrive as escape sequences).
    public static func key(_ bytes: [UInt8]) -> Key {
        switch bytes {
        case [0x0d], [0x0a]: return .enter
        case [0x20], [UInt8(ascii: "n")], [0x1b, 0x5b, 0x43], [0x1b, 0x5b, 0x42], [UInt8(ascii: "j")]: return .next
        case [UInt8(ascii: "b")], [0x1b, 0x5b, 0x44], [0x1b, 0x5b, 0x41], [UInt8(ascii: "p")]: return .back
        case [UInt8(ascii: "g")]: return .jump
        case [UInt8(ascii: "k")]: return .knowledge
        case [UInt8(ascii: "x")]: return .bytes
        case [UInt8(ascii: "d")], [0x1b, 0x5b, 0x36, 0x7e]: return .scrollDown
        case [UInt8(ascii: "u")], [0x1b, 0x5b, 0x35, 0x7e]: return .scrollUp
        case [UInt8(ascii: "q")], [0x03], [0x04]: return .quit
        case [UInt8(ascii: "<")], [0x1b, 0x5b, 0x48]: return .first
        case [UInt8(ascii: ">")], [0x1b, 0x5b, 0x46]: return .last
        case [0x1b]: return .cancel
        case let b where b.count == 1 && (0x30...0x39).contains(b[0]): return .digit(Int(b[0] - 0x30))
        default: return .other
        }
    }

    /// The new cursor after a key. Pure, so every key binding is testable without a terminal.
    public func apply(_ key: Key, to cursor: Cursor) -> Cursor {
        var c = cursor
        let last = max(0, steps.count - 1)
        if let digits = c.jumpDigits {
            switch key {
            case .digit(let d):
                if digits.count < 6 { c.jumpDigits = digits + String(d) }
            case .enter:
                if let n = Int(digits) { c.step = min(max(n, 1), last + 1) - 1 }
                c.jumpDigits = nil
                c.scroll = 0
            case .quit:
                c.finished = true
            default:
                c.jumpDigits = nil
            }
            return c
        }
        let before = c.step
        switch key {
        case .scrollDown:
            let index = min(max(c.step, 0), last)
            let count = steps.isEmpty ? 0 : (c.showBytes ? steps[index].detailWithBytes : steps[index].detail).count
            c.scroll = min(c.scroll + 5, max(0, count))
        case .scrollUp: c.scroll = max(0, c.scroll - 5)
        case .next, .enter: c.step = min(c.step + 1, last)
        case .back: c.step = max(c.step - 1, 0)
        case .first: c.step = 0
        case .last: c.step = last
        case .jump: c.jumpDigits = ""
        case .knowledge: c.showKnowledge.toggle()
        case .bytes:
            c.showBytes.toggle()
            c.scroll = 0
        case .quit: c.finished = true
        case .digit, .cancel, .other: break
        }
        if c.step != before { c.scroll = 0 }     // every step starts at the top of its detail
        return c
    }

    /// The whole screen for `cursor`: exactly `height` lines, none wider than `width` columns.
    public func screen(_ cursor: Cursor, width: Int, height: Int) -> [String] {
        let width = max(width, 40), height = max(height, 12)
        func say(_ key: String, _ values: [String: String] = [:]) -> String { renderer.say(key, values) }
        guard !steps.isEmpty else { return pad([say("walk.noSteps", ["title": title])], width: width, height: height) }
        let index = min(max(cursor.step, 0), steps.count - 1)
        let step = steps[index]

        let header = fit(say("walk.header", ["title": title, "step": "\(index + 1)", "count": "\(steps.count)"]), width)
        let keys: String
        if let digits = cursor.jumpDigits {
            keys = say("walk.jump", ["digits": digits])
        } else {
            keys = say("walk.keys", ["knowledge": say(cursor.showKnowledge ? "walk.on" : "walk.off"),
                                     "bytes": say(cursor.showBytes ? "walk.on" : "walk.off")])
        }
        let footer = fit(keys, width)

        var knowledge: [String] = []
        if cursor.showKnowledge {
            let prefix = Trace(events: Array(trace.events.prefix(step.eventIndex + 1)), participants: trace.participants,
                               streamSpans: trace.streamSpans)
            // The table without its remarks (whole sentences or none): the table is what must fit.
            knowledge = renderer.knowledgePanel(prefix.knowledge, moment: "knowledge.soFar", remarks: false).filter { !$0.isEmpty }
        }
        let available = height - 2                       // header and footer
        var detail = (cursor.showBytes ? step.detailWithBytes : step.detail).flatMap { wrap($0, width) }
        // A headline too long for its ladder row is shown whole above the detail.
        if DisplayWidth.columns(step.headline) + 1 > width { detail = wrap(step.headline, width) + detail }
        if detail.isEmpty { detail = ["            " + say("walk.nothingMore")] }
        let minimumLadder = 4
        var detailRows = min(detail.count, max(3, (available - knowledge.count - 1) / 2))
        if knowledge.count + 1 + detailRows + minimumLadder > available {
            detailRows = max(1, available - knowledge.count - 1 - minimumLadder)
        }
        if knowledge.count + 1 + detailRows + minimumLadder > available {
            knowledge = Array(knowledge.prefix(max(0, available - 1 - detailRows - minimumLadder)))
        }
        if detail.count > detailRows {
            // A window on the detail, moved with d/u; the last row says where it is.
            let visible = max(1, detailRows - 1)
            let top = min(max(0, cursor.scroll), detail.count - visible)
            let window = Array(detail[top..<(top + visible)])
            detail = window + ["  ── " + say("walk.scrollWindow", ["first": "\(top + 1)", "last": "\(top + visible)", "count": "\(detail.count)"]) + " ──"]
        }
        let ladderRows = available - knowledge.count - 1 - detail.count
        let start = max(0, index + 1 - ladderRows)
        var ladder: [String] = []
        for i in start...index {
            ladder.append(fit((i == index ? "▶" : " ") + steps[i].headline, width))
        }
        var lines = [header] + ladder
        lines += Array(repeating: "", count: max(0, ladderRows - ladder.count))
        lines.append(String(repeating: "─", count: width))
        lines += knowledge.map { fit($0, width) }
        lines += detail.map { fit($0, width) }
        lines += Array(repeating: "", count: max(0, height - 1 - lines.count))
        lines = Array(lines.prefix(height - 1))
        lines.append(footer)
        return lines
    }

    /// The renderer's entries may hold several lines; the screen works with single lines.
    static func lines(_ entries: [String]) -> [String] {
        entries.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    func wrap(_ line: String, _ width: Int) -> [String] {
        guard DisplayWidth.columns(line) > width else { return [line] }
        let indent = line.prefix { $0 == " " }.count
        return HexdumpRenderer(width: width).wrap(line, continuationIndent: min(indent, width / 2))
    }

    func fit(_ line: String, _ width: Int) -> String {
        DisplayWidth.truncated(line, to: width)
    }

    func pad(_ lines: [String], width: Int, height: Int) -> [String] {
        (lines.map { fit($0, width) } + Array(repeating: "", count: height)).prefix(height).map { $0 }
    }
}
