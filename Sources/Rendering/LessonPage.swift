import Trace

/// What a lesson file says around its run: title and description before it; after it, what it
/// showed (each expectation checked) and what to try next. Values only; the renderer words them.
public struct LessonPage: Sendable {
    /// One expectation as checked: the fact, the value the file expects, the run's value when it
    /// differs (nil when it holds).
    public struct Check: Sendable, Hashable {
        public var key: String
        public var expected: String
        public var actual: String?
        /// What the expected value stands for in the page's language (a `reason_includes` names a
        /// policy step by its identifier: this is the step worded).
        public var meaning: String?
        public var holds: Bool { actual == nil }
        public init(key: String, expected: String, actual: String?, meaning: String? = nil) {
            self.key = key
            self.expected = expected
            self.actual = actual
            self.meaning = meaning
        }
    }

    public var name: String
    /// `tls`, `tcp`, `ats` or `dh`.
    public var kind: String
    public var title: String
    public var description: String
    public var checks: [Check]
    /// The run's own problems (a script step or an attack that never applied): key and what happened.
    public var problems: [(key: String, actual: String)]
    public var tryNext: [String]
    /// True when the file states no expectations.
    public var isDemo: Bool

    public init(name: String, kind: String, title: String, description: String, checks: [Check],
                problems: [(key: String, actual: String)] = [], tryNext: [String], isDemo: Bool) {
        self.name = name
        self.kind = kind
        self.title = title
        self.description = description
        self.checks = checks
        self.problems = problems
        self.tryNext = tryNext
        self.isDemo = isDemo
    }

    /// A lesson beside this one in the course (its page's address relative to this page).
    public struct Neighbour: Sendable, Hashable {
        public var name: String
        public var title: String
        public var href: String
        public init(name: String, title: String, href: String) {
            self.name = name
            self.title = title
            self.href = href
        }
    }

    /// The lessons before and after this one in the course, when its page is one of a course folder.
    public var previous: Neighbour? = nil
    public var next: Neighbour? = nil
    /// Every lesson's page by name (`tls/ecdhe` → `../tls/ecdhe.html`), so a name in `try_next` links to it.
    public var pages: [String: String] = [:]

    /// True when every expectation holds and the run had no problem.
    public var passed: Bool { problems.isEmpty && checks.allSatisfy(\.holds) }
}

extension LadderPrinter {
    /// The lesson's opening: its title as the heading, the kind and name, the description.
    func lessonHeader(_ page: LessonPage) -> [String] {
        let kind = CatalogueKey.lessonKind(page.kind).flatMap { explanations($0) } ?? page.kind
        var out = title(page.title)
        out.append(say("lesson.header", ["name": page.name, "kind": kind]))
        out += wrapped(page.description.trimmingTrailingWhitespace(), indent: 0)
        return out.flatMap(fitToWidth)
    }

    /// The lesson's close: each expectation checked (PASS/FAIL), then the "try next" lines.
    func lessonFooter(_ page: LessonPage) -> [String] {
        var out = ["", style(rule(say("lesson.showed")), .heading)]
        if page.isDemo {
            out += wrapped(say("lesson.demo"), indent: 0)
        } else {
            for p in page.problems {
                out.append(style(say("lesson.problem", ["key": p.key, "actual": p.actual.visibleControls]), .alert))
            }
            for c in page.checks {
                let result = say(c.holds ? "lesson.pass" : "lesson.fail")
                // What the run showed, as a sentence; the lesson file's `key: value` after it.
                let sentence = explanations.checkSentence(key: c.key, value: c.expected.visibleControls)
                if let actual = c.actual {
                    out += wrapped(say("lesson.expectationGot", ["result": result, "key": c.key, "expected": c.expected.visibleControls, "actual": actual.visibleControls]), indent: 6)
                        .map { style($0, .alert) }
                    if let sentence {
                        out += HexdumpRenderer(width: max(20, width - 6)).wrap(say("lesson.checkExpected", ["sentence": sentence]), continuationIndent: 0)
                            .map { "      " + $0 }
                    }
                } else if let sentence {
                    // An empty expected value is shown as "" (not as nothing before the closing parenthesis).
                    let expected = c.expected.isEmpty ? "\"\"" : c.expected.visibleControls
                    out += wrapped(say("lesson.checkHolds", ["sentence": sentence, "key": c.key, "expected": expected]), indent: 2)
                } else {
                    out += wrapped(say("lesson.expectation", ["result": result, "key": c.key, "expected": c.expected.visibleControls]), indent: 6)
                }
                if let meaning = c.meaning {
                    out += HexdumpRenderer(width: max(20, width - 6)).wrap(say("lesson.expectationMeans", ["meaning": meaning]), continuationIndent: 0)
                        .map { "      " + $0 }
                }
            }
            out.append(say("lesson.tally", ["passed": "\(page.checks.filter(\.holds).count)", "total": "\(page.checks.count)"]))
        }
        if !page.tryNext.isEmpty {
            out += ["", style(rule(say("lesson.tryNext")), .heading)]
            for line in page.tryNext { out += wrapped("→ " + line, indent: 2) }
        }
        return out.flatMap(fitToWidth)
    }

    func wrapped(_ text: String, indent: Int) -> [String] {
        HexdumpRenderer(width: width).wrap(text, continuationIndent: indent)
    }
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var s = self
        while s.last?.isWhitespace == true { s.removeLast() }
        return s
    }
}
