import Foundation
import HTTP2
@testable import Rendering
import Simulation
import Testing
import Trace
import Trust

/// The HTML page (`tlslab export --html`) as a document: its structure, that it steps through the
/// walkthrough's steps with an arrow per message, that nothing on it is fetched, that hostile text
/// stays text, and its size.
@Suite("HTML page: structure, steps, escaping, size")
struct HTMLRendererTests {
    static func trace(_ run: BuiltInRun, seed: UInt64 = 1) throws -> Trace {
        Simulation(try run.setup(seed: seed)).run()
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The document's text between the first `open` and the `close` after it.
    static func between(_ text: String, _ open: String, _ close: String) -> String? {
        guard let a = text.range(of: open), let b = text.range(of: close, range: a.upperBound..<text.endIndex) else { return nil }
        return String(text[a.lowerBound..<b.upperBound])
    }

    @Test func theDefaultRunIsOneSelfContainedDocument() throws {
        let trace = try Self.trace(.rsa)
        let html = HTMLRenderer().page(name: "rsa", trace: trace, summary: Explanations.english("run.summary.rsa"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\""))
        #expect(html.hasSuffix("</body>\n</html>\n"))
        for tag in ["html", "head", "body", "main", "svg", "style", "nav", "footer"] {
            let opened = Self.count("<\(tag)>", in: html) + Self.count("<\(tag) ", in: html)
            if tag != "svg" { #expect(opened == 1, "one <\(tag)>") }
            #expect(opened == Self.count("</\(tag)>", in: html), "<\(tag)> opened and closed alike")
        }
        #expect(Self.count("<section", in: html) == Self.count("</section>", in: html))
        #expect(Self.count("<details", in: html) == Self.count("</details>", in: html))
        // No id twice (the script and the fragment links rely on them).
        let ids = html.matches(of: /\sid="([^"]+)"/).map { String($0.output.1) }
        #expect(Set(ids).count == ids.count, "duplicate ids: \(Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted())")
        // Every catalogue key the page asks for exists: a missing one would show as its key.
        #expect(html.firstMatch(of: /[>"]html\.[a-z]+\.[a-zA-Z.]+[<"]/) == nil, "a key without catalogue text")
    }

    @Test func nothingIsFetched() throws {
        for run in [BuiltInRun.rsa, .h2, .mitm, .lossy] {
            let html = HTMLRenderer().page(name: run.rawValue, trace: try Self.trace(run))
            #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"))
            #expect(!html.contains("src="), "\(run): no src attribute at all")
            let hrefs = html.matches(of: /href="([^"]*)"/).map { String($0.output.1) }
            #expect(hrefs.allSatisfy { $0.hasPrefix("#") }, "\(run): only in-page links: \(hrefs.filter { !$0.hasPrefix("#") })")
            let urls = html.matches(of: /url\(([^)]*)\)/).map { String($0.output.1) }
            #expect(urls.allSatisfy { $0.hasPrefix("#") }, "\(run): only in-page url() references: \(urls)")
            for forbidden in ["@import", "@font-face", "<link", "<iframe", "<img", "fetch(", "XMLHttpRequest", "WebSocket", "localStorage"] {
                #expect(!html.contains(forbidden), "\(run): \(forbidden)")
            }
            // The only http: or https: in markup is the SVG namespace name (an identifier, never fetched).
            let markup = html.replacing("xmlns=\"http://www.w3.org/2000/svg\"", with: "")
            let attributes = markup.matches(of: /=\"(https?:[^"]*)\"/).map { String($0.output.1) }
            #expect(attributes.isEmpty, "\(run): URL attributes \(attributes)")
        }
    }

    @Test(arguments: [BuiltInRun.rsa, .ecdhe, .lossy, .mitm, .h2, .untrusted, .resumption])
    func everyStepHasItsSectionItsRowAndItsWords(run: BuiltInRun) throws {
        let trace = try Self.trace(run)
        let walk = Walkthrough(title: run.rawValue, trace: trace, width: 100_000)
        let html = HTMLRenderer().page(name: run.rawValue, trace: trace)
        #expect(Self.count("<section class=\"step", in: html) == walk.steps.count)
        #expect(Self.count("<g class=\"row", in: html) == walk.steps.count)
        for n in 1...walk.steps.count {
            let section = try #require(Self.between(html, "id=\"step-\(n)\"", "</section>"), "step \(n) has a section")
            // An explanation: prose, values, a heading, a chain or a lesson's checks — never empty.
            #expect(["<p class=\"why\"", "<ul class=\"facts\">", "<h3>", "<ul class=\"checks\">"].contains { section.contains($0) }
                    || section.contains("<p class=\"none\">") && walk.steps[n - 1].detail.allSatisfy { $0.allSatisfy { $0 == " " } },
                    "step \(n) says something: \(section.prefix(300))")
            #expect(html.contains("id=\"row-\(n)\" data-step=\"\(n)\""), "step \(n) has a ladder row")
        }
        // Every TLS handshake message the run sent has an arrow that opens its bytes.
        let messages = trace.events.filter { if case .tls(.handshakeSent) = $0.kind { true } else { false } }.count
        // Every row whose step sends bytes opens them: a message's, a segment's TCP header, a record's.
        #expect(Self.count("has-bytes", in: html) == walk.steps.filter { $0.message != nil || $0.segment != nil || !$0.records.isEmpty }.count)
        #expect(Self.count("has-bytes", in: html) >= messages)
        #expect(Self.count("<details class=\"bytes\" id=\"bytes-", in: html) == messages)
        // Every TCP segment sent (or lost) has an arrow: the renderer drew an arrow for each step the walkthrough marked as one.
        let segments = trace.events.filter {
            switch $0.kind {
            case .tcp(.sent), .tcp(.dropped): true
            default: false
            }
        }.count
        let arrows = Self.count("<line class=\"arrow", in: Self.between(html, "id=\"ladder\"", "</svg>") ?? "")
        #expect(arrows == walk.steps.filter { $0.mark?.isArrow == true }.count)
        #expect(arrows >= segments + messages, "\(arrows) arrows for \(segments) segments and \(messages) messages")
        if run == .lossy {
            #expect(html.contains("<line class=\"arrow lost\""), "a lost segment is drawn as lost")
        }
    }

    /// The step model's geometry is the text ladder's: an arrow's direction and a lost segment's ✗
    /// agree with the rails the terminal draws for the same headline.
    @Test(arguments: BuiltInRun.allCases)
    func theLadderMarksAgreeWithTheTextLadder(run: BuiltInRun) throws {
        let walk = Walkthrough(title: run.rawValue, trace: try Self.trace(run), width: 120)
        var arrows = 0
        for step in walk.steps {
            let rails = String(step.headline.prefix(walk.ladderPrefixWidth))
            guard let mark = step.mark else {
                #expect(!rails.contains("▶") && !rails.contains("◀") && !rails.contains("✗"), "\(run): an arrow without a mark: \(step.headline)")
                continue
            }
            if mark.lost {
                #expect(rails.contains("✗"), "\(run): \(step.headline)")
            } else if mark.isArrow, let from = mark.from, let to = mark.to {
                let rightward = [Actor.client, .attacker, .server].firstIndex(of: from) ?? 0 < [Actor.client, .attacker, .server].firstIndex(of: to) ?? 0
                #expect(rails.contains(rightward ? "▶" : "◀"), "\(run): \(step.headline)")
                arrows += 1
            } else if mark.from != nil {
                #expect(rails.contains("●") || !rails.contains("▶") && !rails.contains("◀"), "\(run): \(step.headline)")
            }
        }
        #expect(arrows > 0, "\(run) has arrows")
    }

    @Test func hostileTextStaysText() throws {
        let evil = "</script><img src=x onerror=alert(1)><script>alert('x')</script>\"'&"
        var trace = try Self.trace(.httpPlain)
        trace.events.append(TraceEvent(time: trace.events.last?.time ?? 0, actor: .client, kind: .http(.requestSent("GET /\(evil) HTTP/1.1\r\nHost: a\r\n\r\n"))))
        trace.events.append(TraceEvent(time: trace.events.last?.time ?? 0, actor: .client, kind: .http(.failed(.http2PeerGoAway(.server, code: 0, lastStream: 1, debug: evil)))))
        let page = LessonPage(name: "x/\(evil)", kind: "tls", title: "T \(evil)", description: "D \(evil)",
                              checks: [LessonPage.Check(key: "k\(evil)", expected: "e\(evil)", actual: "a\(evil)")],
                              problems: [(key: "p\(evil)", actual: "q\(evil)")], tryNext: ["try \(evil)"], isDemo: false)
        let html = HTMLRenderer().page(name: evil, trace: trace, summary: evil, lesson: page)
        #expect(!html.contains("<img"), "no element from the text")
        #expect(!html.contains("<script>alert"))
        // Outside the JSON data block (where `>` is inert and `<` is written \u003c) no markup comes from the text.
        let markup = html.replacing(/<script type="application\/x-ndjson"[\s\S]*?<\/script>/, with: "")
        #expect(!markup.contains("onerror=alert(1)>"), "no attribute from the text")
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(Self.count("</script", in: html) == 2, "only the data block and the script end a script")
        #expect(Self.count("<script", in: html) == 2)
        // The data block is still the JSON Lines contract: every line parses, the hostile text intact.
        let block = try #require(Self.between(html, "<script type=\"application/x-ndjson\" id=\"tlslab-trace\"", "</script>"))
        let body = block.drop { $0 != "\n" }.dropFirst().dropLast("</script>".count)
        let lines = body.split(separator: "\n")
        #expect(lines.count >= trace.events.count / 2)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            #expect(object is [String: Any])
        }
        #expect(body.contains("\\u003c/script>\\u003cimg"))
        // Control characters never reach the document.
        #expect(HTMLText.escaped("a\u{1B}[31mb\u{0}c") == "a\u{FFFD}[31mb\u{FFFD}c")
    }

    @Test func theDefaultRunsPageIsSmall() throws {
        let html = HTMLRenderer().page(name: "rsa", trace: try Self.trace(.rsa), summary: Explanations.english("run.summary.rsa"))
        #expect(html.utf8.count < 300 * 1024, "the default run's page is \(html.utf8.count / 1024) KiB, over 300 KiB")
        // And it is not small because it is empty: the walk, its bytes and its data are there.
        #expect(html.utf8.count > 40 * 1024)
    }

    /// The opening step tells the run's story; the terminal's "press n to begin" and its key table
    /// (q quits, "restoring the terminal") do not apply on a page, whose keys are in its control bar.
    @Test(arguments: ["en", "zh"])
    func theOpeningHasNoTerminalKeys(language: String) throws {
        let explanations = language == "zh" ? Explanations.chinese : .english
        let html = HTMLRenderer(explanations: explanations).page(name: "rsa", trace: try Self.trace(.rsa))
        let opening = try #require(Self.between(html, "<section class=\"step part-", "</section>"))
        #expect(opening.contains("id=\"step-1\""))
        for key in ["walk.opening.begin", "walk.help.heading", "walk.help.quit", "walk.help.autoplay"] {
            let text = try #require(explanations(key))
            #expect(!opening.contains(HTMLText.escaped(text)), "\(key) on the page's opening step")
        }
        // The story stays, told of the page: its ladder is beside the step (not "above"), its table is
        // under the step (no `k` key), and it is stepped with buttons and arrow keys.
        let story = try #require(explanations("html.story.ladder"))
        #expect(opening.contains(HTMLText.escaped(story)), "the story stays")
        #expect(opening.contains(HTMLText.escaped(try #require(explanations("html.story.eavesdropper")))))
        for key in ["walk.story.ladder", "walk.story.eavesdropper"] {
            #expect(!opening.contains(HTMLText.escaped(try #require(explanations(key)))), "\(key): the terminal's words on the page")
        }
        #expect(html.contains(HTMLText.escaped(try #require(explanations("html.nav.keys")))), "the page's own keys are shown")
    }

    /// In Chinese the page says so (`lang="zh-Hans"`, which selects the CJK font stack), and every
    /// word the page itself adds is the Chinese catalogue's: navigation, ladder heads, legend, tables.
    @Test func theChinesePageIsChinese() throws {
        let zh = Explanations.chinese
        let html = HTMLRenderer(explanations: zh).page(name: "rsa", trace: try Self.trace(.rsa), summary: zh("run.summary.rsa"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"zh-Hans\""))
        #expect(html.contains("html:lang(zh-Hans){font-family:\"Noto Sans CJK SC\""), "a CJK font stack for the Chinese page")
        for key in ["html.nav.back", "html.nav.next", "html.legend.heading", "html.knowledge.heading", "html.ladder.time", "party.client", "party.server"] {
            let text = try #require(zh(key))
            #expect(html.contains(HTMLText.escaped(text)), "\(key): \(text)")
            let english = try #require(Explanations.english(key))
            #expect(!html.contains(">\(HTMLText.escaped(english))<"), "\(key): the English \(english) is gone")
        }
        #expect(html.contains("第 1 步，共 "))
        // The arrows' labels drop the text ladder's own "客户端 ──▶ 服务器" (the drawing shows the direction).
        #expect(!(Self.between(html, "<svg xmlns", "</svg>") ?? "").contains("──▶"))
    }

    /// A step's words are the document's, never the wrapped ladder joined again: at 44 columns many
    /// Chinese labels wrap onto several ladder lines (the test first shows that), and each step's
    /// label is the same as at a width no line reaches, with no space put between two wide characters.
    @Test func chineseStepWordsAreNotSplitBySpaces() throws {
        var wideBreaks = 0
        for run in [BuiltInRun.rsa, .dhe, .mitm, .resumption] {
            let trace = try Self.trace(run)
            let narrow = Walkthrough(title: run.rawValue, trace: trace, width: 44, explanations: .chinese)
            let wide = Walkthrough(title: run.rawValue, trace: trace, width: 100_000, explanations: .chinese)
            #expect(narrow.steps.count == wide.steps.count)
            for (step, unwrapped) in zip(narrow.steps, wide.steps) {
                if step.ladder.count > 1, step.label.contains(where: { DisplayWidth.columns($0) == 2 }) { wideBreaks += 1 }
                #expect(step.label == unwrapped.label, "\(run): \(step.label) | \(unwrapped.label)")
                let words = Array(step.label)
                for i in words.indices.dropFirst().dropLast() where words[i] == " " {
                    let pair = (DisplayWidth.columns(words[i - 1]), DisplayWidth.columns(words[i + 1]))
                    #expect(pair != (2, 2), "\(run): a space between two wide characters in \(step.label)")
                }
            }
        }
        #expect(wideBreaks > 0, "no Chinese label wrapped: the test shows nothing")
    }

    /// A label too long for its room on the ladder wraps where a line could break (a space, between
    /// Chinese characters), never inside a message name or a value: every line fits, the lines give
    /// the label back whole, and no Chinese line starts with closing punctuation.
    @Test func labelsWrapBetweenWordsNotInsideThem() throws {
        var wrapped = 0
        for (run, explanations) in [(BuiltInRun.mitm, Explanations.english), (.strip, .english), (.rsa, .english), (.mitm, .chinese)] {
            let walk = Walkthrough(title: run.rawValue, trace: try Self.trace(run), width: 100_000, explanations: explanations)
            for step in walk.steps {
                // The widest piece no line may break inside (a value, a word, a Chinese character with its punctuation).
                let longest = step.label.split(separator: " ").flatMap { DisplayWidth.breakablePieces($0) }.map { DisplayWidth.columns($0) }.max() ?? 0
                for room in [24, 30, 42, 60] {
                    guard let lines = HTMLRenderer.labelLines(step.label, columns: room) else {
                        // Only a label with a value wider than the room has no lines there (it goes to the notes column).
                        #expect(longest > room, "\(step.label) in \(room)")
                        continue
                    }
                    #expect(lines.allSatisfy { DisplayWidth.columns($0) <= room }, "\(lines)")
                    #expect(HTMLRenderer.joinsBack(lines, into: step.label), "\(step.label) → \(lines)")
                    #expect(!lines.dropFirst().contains { $0.first.map(DisplayWidth.closingPunctuation.contains) ?? false }, "\(lines)")
                    if lines.count > 1 { wrapped += 1 }
                }
            }
        }
        #expect(wrapped > 50, "few labels were wrapped (\(wrapped)): the test shows little")
    }

    /// Data is not repeated per step: a message sent again byte for byte (each HTTP/1.0 connection's
    /// certificate chain) points at the first step's table, which the script copies in when opened.
    @Test func aRepeatedMessageSharesItsBytesTable() throws {
        let trace = try Self.trace(.http10)
        let html = HTMLRenderer().page(name: "http10", trace: trace)
        var distinct = Set<[UInt8]>(), sent = 0
        for event in trace.events {
            if case .tls(.handshakeSent(_, let wire)) = event.kind { distinct.insert(wire); sent += 1 }
        }
        #expect(sent > distinct.count, "the run sends some message twice")
        #expect(html.matches(of: /<details class="bytes" id="bytes-\d+" data-hex=/).count == distinct.count, "one table per distinct message")
        let shared = html.matches(of: /<details class="bytes" id="bytes-(\d+)" data-same="bytes-(\d+)">/)
        #expect(shared.count == sent - distinct.count)
        // A long explanation is in the page once; its repeats point at it.
        let held = html.matches(of: /<p class="why" id="(w\d+)">([^<]*)<\/p>/).map { (String($0.output.1), String($0.output.2)) }
        #expect(Set(held.map(\.1)).count == held.count, "each held explanation once")
        let repeats = html.matches(of: /<p class="why" data-same="(w\d+)"><\/p>/).map { String($0.output.1) }
        #expect(!repeats.isEmpty, "the walkthrough repeats explanations on every connection")
        #expect(Set(repeats).isSubset(of: Set(held.map(\.0))))
        for match in shared {
            let (step, first) = (Int(match.output.1) ?? 0, Int(match.output.2) ?? 0)
            #expect(first < step && html.contains("<details class=\"bytes\" id=\"bytes-\(first)\" data-hex="), "step \(step) points at step \(first)'s table")
        }
    }

    @Test func theChainIsShownLinkByLinkWithBothHashes() throws {
        let html = HTMLRenderer().page(name: "rsa", trace: try Self.trace(.rsa))
        let chain = try #require(Self.between(html, "<figure class=\"chain\">", "</figure>"))
        #expect(chain.contains("link 0 (leaf)"))
        #expect(chain.contains("its signature is checked with the public key of link 1"))
        #expect(chain.contains("Hash1 = ") && chain.contains("Hash2 = "))
        // Hash1 and Hash2 are the values the check recorded, and they agree on a valid chain.
        let hashes = chain.matches(of: /<dd><code>([0-9a-f]+)<\/code><\/dd>/).map { String($0.output.1) }
        #expect(hashes.count >= 2 && hashes[0] == hashes[1])
        #expect(chain.contains("Hash1 = Hash2"))
    }

    @Test func theKnowledgePanelGrowsWithTheSteps() throws {
        let html = HTMLRenderer().page(name: "rsa", trace: try Self.trace(.rsa))
        let tables = html.matches(of: /<table class="knowledge" id="(k\d+)">/).map { String($0.output.1) }
        #expect(tables.count >= 3, "the panel changes as the run goes: \(tables)")
        // Every step that names a table names one the page holds.
        let named = Set(html.matches(of: /data-knowledge="(k\d+)"/).map { String($0.output.1) })
        #expect(named.isSubset(of: Set(tables)))
        let last = try #require(tables.last.flatMap { Self.between(html, "id=\"\($0)\"", "</table>") })
        #expect(last.contains("master secret"))
    }

    @Test func slidesAndTheLessonFrame() throws {
        let page = LessonPage(name: "tls/demo", kind: "tls", title: "A title", description: "A description.",
                              checks: [LessonPage.Check(key: "handshake", expected: "success", actual: nil),
                                       LessonPage.Check(key: "alert", expected: "none", actual: "bad_certificate")],
                              tryNext: ["Change the host."], isDemo: false)
        let html = HTMLRenderer(slides: true).page(name: "tls/demo", trace: try Self.trace(.rsa), lesson: page)
        #expect(html.contains("<body class=\"slides\">"))
        #expect(html.contains("<h1>A title</h1>") && html.contains("A description."))
        // What the lesson showed, as sentences (issue #33); the file's `key: value` after each.
        #expect(html.contains("<li class=\"pass\">✓ The TLS handshake completed: both sides sent and verified Finished. (handshake: success)</li>"))
        #expect(html.contains("<li class=\"fail\">FAIL  alert: expected none, got bad_certificate<br>the lesson expected: No alert ended the connection.</li>"))
        #expect(html.contains("<li>Change the host.</li>"))
        #expect(html.contains("\"event\":\"lesson\""), "the lesson frame is in the embedded JSON Lines")
    }

    @Test func theIndexLinksEveryPageByTopic() {
        let index = HTMLIndexPage().render(
            runs: [.init(name: "rsa", title: "RSA", file: "rsa.html")],
            lessons: [.init(name: "tcp/a b", title: "<A>", file: "tcp/a b.html", topic: "tcp", kind: "tcp"),
                      .init(name: "tls/c", title: "C", file: "tls/c.html", topic: "tls", kind: "dh")])
        #expect(index.contains("<a href=\"rsa.html\">RSA</a>"))
        #expect(index.contains("<a href=\"tcp/a%20b.html\">&lt;A&gt;</a>"))
        #expect(index.range(of: "<h3>TCP</h3>")!.lowerBound < index.range(of: "<h3>The TLS handshake</h3>")!.lowerBound)
        #expect(!index.contains("<script"))
    }
}
