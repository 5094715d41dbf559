/// The walkthrough's keys: decoded from the terminal's bytes, applied to a cursor. Pure, so every
/// binding is testable without a terminal.
extension Walkthrough {
    /// Where the viewer is and what is toggled on.
    public struct Cursor: Sendable, Hashable {
        public var step = 0
        /// The knowledge panel (who knows what so far) in place of the step's explanation.
        public var showKnowledge = false
        public var showBytes = false
        /// Digits typed after `g`, while a jump is being entered.
        public var jumpDigits: String?
        public var finished = false
        /// How many lines the current step's detail is scrolled down (0 on every new step).
        public var scroll = 0
        /// The help overlay (every key) is open; any key closes it.
        public var showHelp = false
        /// Steps advance by themselves on every `tick` (`--autoplay`); any key pauses.
        public var autoplay = false
        /// The part of the pane just switched on (bytes or knowledge), scrolled to the top of the
        /// window once the screen's size is known (`clamped`).
        public var reveal: PanePart?
        /// Rows of the pane's window on the last screen drawn: `d`/`u` move by half of it.
        public var paneRows = 10
        /// Something the last key could not do, said in the footer until the next key.
        public var notice: Notice?

        public init() {}
    }

    /// The parts the pane stacks: the step's explanation, its bytes (`x`), who knows what (`k`).
    public enum PanePart: Sendable, Hashable { case bytes, knowledge }

    /// What a key could not do.
    public enum Notice: Sendable, Hashable {
        /// `g N` named a step the walk does not have.
        case noSuchStep(requested: Int, count: Int)
    }

    /// A key press, already decoded from the terminal's bytes; `tick` is autoplay's timer.
    public enum Key: Sendable, Hashable {
        case next, back, first, last, jump, digit(Int), enter, cancel, knowledge, bytes, quit, other
        /// Scroll the current step's detail (d / PgDn, u / PgUp): `k` stays the knowledge toggle.
        case scrollDown, scrollUp
        /// `?`: the help overlay; `a`: autoplay on or off; `tick`: autoplay's interval has passed.
        case help, autoplay, tick
    }

    /// Every key the walkthrough knows, as (keys, catalogue key of what they do), in the order the
    /// help overlay and `tlslab walkthrough --help` list them.
    public static let keyBindings: [(keys: String, meaning: String)] = [
        ("n  Enter  Space  →  ↓", "walk.help.next"),
        ("b  p  ←  ↑", "walk.help.back"),
        ("g N Enter", "walk.help.jump"),
        ("<  >  Home  End", "walk.help.ends"),
        ("k", "walk.help.knowledge"),
        ("x", "walk.help.bytes"),
        ("d  u  PgDn  PgUp", "walk.help.scroll"),
        ("a", "walk.help.autoplay"),
        ("?", "walk.help.help"),
        ("q  Ctrl-C  Ctrl-D", "walk.help.quit"),
    ]

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
        case [UInt8(ascii: "<")], [0x1b, 0x5b, 0x48], [0x1b, 0x4f, 0x48], [0x1b, 0x5b, 0x31, 0x7e]: return .first
        case [UInt8(ascii: ">")], [0x1b, 0x5b, 0x46], [0x1b, 0x4f, 0x46], [0x1b, 0x5b, 0x34, 0x7e]: return .last
        case [UInt8(ascii: "?")]: return .help
        case [UInt8(ascii: "a")]: return .autoplay
        case [0x1b]: return .cancel
        case let b where b.count == 1 && (0x30...0x39).contains(b[0]): return .digit(Int(b[0] - 0x30))
        default: return .other
        }
    }

    /// The new cursor after a key.
    public func apply(_ key: Key, to cursor: Cursor) -> Cursor {
        var c = cursor
        let last = max(0, steps.count - 1)
        if key != .tick { c.notice = nil }
        if key == .quit {
            c.finished = true
            return c
        }
        if c.showHelp {
            // Any key closes the overlay and does nothing else.
            if key != .tick { c.showHelp = false }
            return c
        }
        if c.autoplay {
            switch key {
            case .tick:
                if c.step < last {
                    c.step += 1
                    c.scroll = 0
                }
                if c.step >= last { c.autoplay = false }
            default:
                c.autoplay = false              // any key pauses, and is used for nothing else
            }
            return c
        }
        if let digits = c.jumpDigits {
            switch key {
            case .digit(let d):
                if digits.count < 6 { c.jumpDigits = digits + String(d) }
            case .enter:
                if let n = Int(digits) {
                    if (1...steps.count).contains(n) {
                        if c.step != n - 1 { c.scroll = 0 }
                        c.step = n - 1
                    } else {
                        c.notice = .noSuchStep(requested: n, count: steps.count)
                    }
                }
                c.jumpDigits = nil
            default:
                c.jumpDigits = nil
            }
            return c
        }
        let before = c.step
        switch key {
        case .scrollDown:
            // The screen clamps to what its width wraps the pane into (`clamped`).
            c.scroll = min(c.scroll + max(1, c.paneRows / 2), paneLineBound(c))
        case .scrollUp: c.scroll = max(0, c.scroll - max(1, c.paneRows / 2))
        case .next, .enter: c.step = min(c.step + 1, last)
        case .back: c.step = max(c.step - 1, 0)
        case .first: c.step = 0
        case .last: c.step = last
        case .jump: c.jumpDigits = ""
        case .knowledge:
            // Stacked under the explanation (and the bytes): switched on, the window moves to it.
            c.showKnowledge.toggle()
            c.scroll = 0
            c.reveal = c.showKnowledge ? .knowledge : nil
        case .bytes:
            c.showBytes.toggle()
            c.scroll = 0
            c.reveal = c.showBytes ? .bytes : nil
        case .help: c.showHelp = true
        case .autoplay: c.autoplay = c.step < last
        case .quit: c.finished = true
        case .digit, .cancel, .other, .tick: break
        }
        if c.step != before { c.scroll = 0 }     // every step starts at the top of its detail
        return c
    }

    /// A bound on how far the pane can scroll, before the screen's width is known: every line of
    /// the pane, each counted as wrapped onto as many rows as it could need on a 20-column screen.
    func paneLineBound(_ c: Cursor) -> Int {
        guard !steps.isEmpty else { return 0 }
        let step = steps[min(max(c.step, 0), steps.count - 1)]
        let lines = (c.showKnowledge ? 40 : 0) + (c.showBytes ? step.detailWithBytes : step.detail).reduce(1) { $0 + 1 + $1.count / 20 }
        return max(0, lines)
    }

    /// `cursor` with its scroll position as the screen of this size shows it (no scrolling past the end).
    public func clamped(_ cursor: Cursor, width: Int, height: Int) -> Cursor {
        var c = cursor
        if let part = c.reveal, let step = steps.indices.contains(c.step) ? steps[c.step] : nil {
            // The part just switched on comes into view with as much of it as the window holds; what
            // is above it (the explanation, the bytes) stays in view in the rows it leaves free.
            let sections = paneSections(c, step: step, width: max(width, 40))
            let visible = layout(c, width: width, height: height).paneRows
            let start = (part == .knowledge ? sections.knowledgeStart : sections.bytesStart) ?? 0
            let end = part == .bytes ? (sections.knowledgeStart ?? sections.lines.count) : sections.lines.count
            c.scroll = max(0, min(start, start + min(end - start, visible) - visible))
            c.reveal = nil
        }
        let painted = layout(c, width: width, height: height)
        c.scroll = min(c.scroll, painted.maximumScroll)
        c.paneRows = painted.paneRows
        return c
    }
}
