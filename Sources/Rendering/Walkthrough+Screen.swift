import Trace

/// The walkthrough's screen: a title line, the sticky column header (the parties and the time
/// unit), the ladder up to the current step, a pane (the step's explanation, its bytes, or the
/// knowledge panel), and the keys. Every width is measured in display columns.
extension Walkthrough {
    /// The fewest ladder lines kept on screen while the pane has more to show: 15 from 30 rows up.
    static func minimumLadder(available: Int) -> Int { min(15, max(3, available - 11)) }

    struct Painted {
        var lines: [String]
        var maximumScroll: Int
        /// Rows of the pane's window (`d`/`u` move by half of it).
        var paneRows = 10
    }

    /// The whole screen for `cursor`: exactly `height` lines, none wider than `width` columns.
    public func screen(_ cursor: Cursor, width: Int, height: Int) -> [String] {
        layout(cursor, width: width, height: height).lines
    }

    func say(_ key: String, _ values: [String: String] = [:]) -> String { words.explanations(key, values) ?? key }

    func layout(_ cursor: Cursor, width: Int, height: Int) -> Painted {
        let width = max(width, 40), height = max(height, 12)
        guard !steps.isEmpty else {
            return Painted(lines: pad([say("walk.noSteps", ["title": title])], width: width, height: height), maximumScroll: 0)
        }
        let index = min(max(cursor.step, 0), steps.count - 1)
        let step = steps[index]
        let header = headerText(index: index, width: width)
        let footer = fit(footerText(cursor, width: width), width)
        let columns = hasLadder ? printer.columnHeader().map { fit(" " + $0, width) } : []
        var top = [fit(header, width)] + columns
        if cursor.showHelp {
            let help = helpLines(width: width)
            top.append(String(repeating: "─", count: width))
            let body = Array(help.prefix(height - top.count - 1))
            return Painted(lines: pad(top + body, width: width, height: height - 1) + [footer], maximumScroll: 0)
        }
        let available = height - top.count - 2               // the separator and the footer
        let pane = paneLines(cursor, step: step, width: width)
        var ladder: [String] = []
        // Each ladder line's SGR parameters (nil: plain), applied once the screen is laid out.
        var tones: [String?] = []
        var currentStart = 0
        var entryStarts: Set<Int> = []
        for i in 0...index {
            if i == index { currentStart = ladder.count }
            entryStarts.insert(ladder.count)
            let tone = Self.sgr(for: steps[i], current: i == index)
            for (n, line) in steps[i].ladder.enumerated() {
                ladder.append(fit((i == index && n == 0 ? "▶" : " ") + line, width))
                tones.append(tone)
            }
        }
        let reserved = min(ladder.count, Self.minimumLadder(available: available))
        let paneRows = min(pane.count, max(1, available - reserved))
        var shown = pane
        var maximumScroll = 0
        if pane.count > paneRows {
            // A window on the pane, moved with d/u; its last row says where it is.
            let visible = max(1, paneRows - 1)
            maximumScroll = pane.count - visible
            let first = min(max(0, cursor.scroll), maximumScroll)
            shown = Array(pane[first..<(first + visible)])
                + [fit("  ── " + say("walk.scrollWindow", ["first": "\(first + 1)", "last": "\(first + visible)", "count": "\(pane.count)"]) + " ──", width)]
        }
        let ladderRows = available - shown.count
        // The ladder ends with the current step's entry; its first line (▶) is always shown.
        // Whole entries only: a row's wrapped lines are not shown without the row.
        var start = min(max(0, ladder.count - ladderRows), currentStart)
        while start < currentStart && !entryStarts.contains(start) { start += 1 }
        var visibleLadder = Array(ladder[start..<min(ladder.count, start + ladderRows)])
        var visibleTones = Array(tones[start..<min(tones.count, start + ladderRows)])
        if start > 0 {
            // Scrolled: the blank rows go above, so the current step stays next to its explanation.
            let blank = max(0, ladderRows - visibleLadder.count)
            visibleLadder = Array(repeating: "", count: blank) + visibleLadder
            visibleTones = Array(repeating: nil, count: blank) + visibleTones
        }
        visibleLadder += Array(repeating: "", count: max(0, ladderRows - visibleLadder.count))
        let lines = top + visibleLadder + [String(repeating: "─", count: width)] + shown
        var painted = pad(lines, width: width, height: height - 1) + [footer]
        if color {
            for (offset, tone) in visibleTones.enumerated() {
                guard let tone, top.count + offset < painted.count, !painted[top.count + offset].isEmpty else { continue }
                painted[top.count + offset] = "\u{1B}[\(tone)m" + painted[top.count + offset] + "\u{1B}[0m"
            }
        }
        return Painted(lines: painted, maximumScroll: maximumScroll, paneRows: max(1, paneRows - 1))
    }

    /// A ladder row's SGR parameters: its kind's colour — a TCP segment cyan, a TLS message green,
    /// an alert red, whatever the attacker does magenta — and bold for the current step.
    static func sgr(for step: Step, current: Bool) -> String? {
        var codes: [String] = current ? ["1"] : []
        if let mark = step.mark {
            if mark.from == .attacker {
                codes.append("35")
            } else {
                switch mark.tone {
                case .tcp: codes.append("36")
                case .tls: codes.append("32")
                case .alert: codes.append("31")
                case .plain: break
                }
            }
        }
        return codes.isEmpty ? nil : codes.joined(separator: ";")
    }

    /// The title line: the step counter always shows; the phase goes first, then the title shortens
    /// from the left (a lesson file's path keeps its end).
    func headerText(index: Int, width: Int) -> String {
        func header(_ title: String) -> String {
            say("walk.header", ["title": title, "step": "\(index + 1)", "count": "\(steps.count)"])
        }
        var text = header(title)
        if let phase = phaseName(at: index) {
            let withPhase = text + say("walk.headerPhase", ["phase": phase])
            if DisplayWidth.columns(withPhase) <= width { return withPhase }
        }
        guard DisplayWidth.columns(text) > width else { return text }
        let room = width - DisplayWidth.columns(header("…"))
        var tail = ""
        for ch in title.reversed() {
            if DisplayWidth.columns(String(ch)) + DisplayWidth.columns(tail) > room { break }
            tail = String(ch) + tail
        }
        text = header("…" + tail)
        return text
    }

    /// The pane's lines, wrapped to the screen: the step's explanation, then its bytes (`x`), then
    /// the knowledge panel (`k`, with what TCP already holds that TLS has not read yet), stacked in
    /// one scrolling pane so that no part hides another.
    func paneLines(_ cursor: Cursor, step: Step, width: Int) -> [String] {
        paneSections(cursor, step: step, width: width).lines
    }

    /// The pane's lines and where its bytes and its knowledge panel start.
    func paneSections(_ cursor: Cursor, step: Step, width: Int) -> (lines: [String], bytesStart: Int?, knowledgeStart: Int?) {
        var lines = step.detail.flatMap { wrap($0, width) }
        var bytesStart: Int?, knowledgeStart: Int?
        if cursor.showBytes {
            bytesStart = lines.count
            // The bytes are what `detailWithBytes` adds; a step that sends none says so.
            let withBytes = step.detailWithBytes.flatMap { wrap($0, width) }
            if withBytes.count > lines.count {
                lines = withBytes
            } else {
                lines += wrap(say("walk.bytes.none"), width)
            }
        }
        if cursor.showKnowledge {
            knowledgeStart = lines.count
            // The table without its remarks (whole sentences or none): the table is what must fit.
            let table = printer.knowledgePanel(document.knowledge(after: step.eventIndex), moment: "knowledge.soFar", remarks: false)
                .filter { !$0.isEmpty }
            let notes = StepTeacher.unreadByTLS(trace, upTo: step.eventIndex, words: words)
            lines += table.map { fit($0, width) } + notes.flatMap { wrap($0, width) }
        }
        return (lines, bytesStart, knowledgeStart)
    }

    /// The name of the phase the step at `index` belongs to (the last phase heading before it).
    func phaseName(at index: Int) -> String? {
        guard steps[index].kind == .event || steps[index].kind == .phaseSummary else { return nil }
        let eventIndex = steps[index].eventIndex
        for e in trace.events.prefix(eventIndex + 1).reversed() {
            if case .phase(let phase) = e.kind { return words.explanations.phaseName(phase, connection: e.connection) }
        }
        return nil
    }

    func footerText(_ cursor: Cursor, width: Int) -> String {
        if let notice = cursor.notice {
            switch notice {
            case .noSuchStep(let requested, let count):
                return say("walk.noSuchStep", ["requested": "\(requested)", "count": "\(count)"])
            }
        }
        if let digits = cursor.jumpDigits { return say("walk.jump", ["digits": digits]) }
        if cursor.showHelp { return say("walk.helpClose") }
        if cursor.autoplay { return say("walk.autoplaying") }
        let toggles = ["knowledge": say(cursor.showKnowledge ? "walk.on" : "walk.off"),
                       "bytes": say(cursor.showBytes ? "walk.on" : "walk.off")]
        // The widest that fits: every key; the main keys with what k and x show (60 columns fit
        // it in both languages); the main keys alone.
        let full = say("walk.keys", toggles)
        if DisplayWidth.columns(full) <= width { return full }
        let short = say("walk.keysShort", toggles)
        return DisplayWidth.columns(short) <= width ? short : say("walk.keysShortest", toggles)
    }

    /// The help overlay: every key and what it does, aligned.
    func helpLines(width: Int) -> [String] {
        let keyWidth = Self.keyBindings.map { DisplayWidth.columns($0.keys) }.max() ?? 0
        var out = [say("walk.help.heading"), ""]
        for binding in Self.keyBindings {
            let line = "  " + DisplayWidth.padded(binding.keys, to: keyWidth) + "   " + say(binding.meaning)
            out += wrap(line, width, continuationIndent: keyWidth + 5)
        }
        return out
    }

    /// Every key and what it does, one line each (for `tlslab walkthrough --help`).
    public static func keyHelp(_ explanations: Explanations = .english) -> [String] {
        let keyWidth = keyBindings.map { DisplayWidth.columns($0.keys) }.max() ?? 0
        return keyBindings.map { DisplayWidth.padded($0.keys, to: keyWidth) + "   " + (explanations($0.meaning) ?? $0.meaning) }
    }

    // MARK: Width (display columns)

    func wrap(_ line: String, _ width: Int, continuationIndent: Int? = nil) -> [String] {
        guard DisplayWidth.columns(line) > width else { return [line] }
        let indent = continuationIndent ?? line.prefix { $0 == " " }.count
        return HexdumpRenderer(width: width).wrap(line, continuationIndent: min(indent, width / 2)).map { fit($0, width) }
    }

    /// `line` cut to `width` display columns, the cut marked with "…".
    func fit(_ line: String, _ width: Int) -> String {
        DisplayWidth.truncated(line, to: width)
    }

    func pad(_ lines: [String], width: Int, height: Int) -> [String] {
        (lines.map { fit($0, width) } + Array(repeating: "", count: height)).prefix(height).map { $0 }
    }
}
