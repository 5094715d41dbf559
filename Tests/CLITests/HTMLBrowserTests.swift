import Foundation
@testable import Rendering
import Simulation
import Testing
import TestSupport
@testable import tlslab
import Trace

/// `tlslab export --html` pages in a real browser: headless Chromium driven through the DevTools
/// protocol by scripts/html-browser-check.py (loads without console errors or any network request,
/// the right arrow pressed 5 times highlights the 6th step, clicking ClientHello opens its bytes,
/// pointing at a field lights up its bytes, the screenshot is not blank; printed, every step is drawn
/// without the controls and the PDF has several pages; a slides page draws one step per screen in
/// large type; a Chinese page is drawn with a CJK font). Skipped without Chromium or python3 locally;
/// failing in CI (`CI` set). A check that does not finish in time is killed and fails: the suite
/// cannot hang.
@Suite("HTML page in headless Chromium", .serialized,
       CrossCheckRequirement.trait(BrowserTools.chromium != nil && BrowserTools.python != nil,
                                   missing: "chromium (Debian package chromium) or python3 is not on the PATH"))
struct HTMLBrowserTests {
    static let chromium = BrowserTools.chromium
    static let python = BrowserTools.python
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/html-browser-check.py")

    /// Seconds the script may take for one page before it gives up (it kills the browser itself);
    /// the test kills the script a little later if even that fails, so nothing can hang.
    static let timeout = 90.0

    static func check(_ page: URL, extra: [String] = []) throws -> (status: Int32, output: String) {
        // The script gets `timeout` itself; it is stopped 20 s later if even that fails.
        let r = try Tool.runExecutable(try #require(python), [script.path, page.path, "--chromium", try #require(chromium),
                                                              "--timeout", "\(Int(timeout))"] + extra,
                                       timeout: timeout + 20)
        return (r.timedOut ? -1 : r.status, r.output + (r.timedOut ? "\nFAIL  the check did not finish in \(Int(timeout + 20)) s" : ""))
    }

    @Test func theDefaultRunsPageWorksInTheBrowser() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("rsa.html")
        let export = try CLI.run(["export", "rsa", "--html", page.path])
        #expect(export.status == 0, "\(export.stderr)")
        let shot = dir.appendingPathComponent("rsa.png")
        let result = try Self.check(page, extra: ["--screenshot", shot.path, "--print-check"])
        #expect(result.status == 0, "\(result.output)")
        for check in ["after 5 right-arrow presses step 6 is highlighted", "clicking the ClientHello arrow opens its bytes",
                      "pointing at a field lights up its bytes", "pointing at a byte of the dump lights up the field it belongs to",
                      "Tab reaches the ClientHello arrow",
                      "Enter on the ClientHello arrow opens its bytes", "repeated explanations are filled in", "is not blank", "no console error", "no network request",
                      "printToPDF gives a PDF of", "print: no button or navigation is drawn",
                      "print: every step is drawn with its heading, explanations and bytes", "print: the whole ladder drawing is visible"] {
            let passed = result.output.split(separator: "\n").contains { $0.hasPrefix("ok    ") && $0.contains(check) }
            #expect(passed, "\(check): \(result.output)")
        }
        #expect((try? Data(contentsOf: shot))?.count ?? 0 > 10_000)
    }

    /// The calculations' copy buttons (#33): every value on the `ecdhe` page (the key exchange,
    /// master secret, key block, verify_data, the signed input, each protected record's values) and on
    /// the `tls13` page (the key share, every key-schedule step, the traffic keys, each Finished and
    /// CertificateVerify) has one, shown by the script, and what it copies is the value the page shows,
    /// whole; a real click copies and says so; a calculation's own button copies its formula and every value.
    @Test(arguments: ["ecdhe", "tls13"])
    func theCopyButtonsCopyEveryCalculationValueWhole(_ run: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("\(run).html")
        let export = try CLI.run(["export", run, "--html", page.path])
        #expect(export.status == 0, "\(export.stderr)")
        let result = try Self.check(page, extra: ["--copy-check"])
        #expect(result.status == 0, "\(result.output)")
        for check in ["calculation values", "every calculation value has its copy button", "every copy button copies its value whole",
                      "a click on the copy button copies the value and says so", "a calculation's copy button copies its formula and every value",
                      "no console error"] {
            let passed = result.output.split(separator: "\n").contains { $0.hasPrefix("ok    ") && $0.contains(check) }
            #expect(passed, "\(check): \(result.output)")
        }
    }

    /// `--slides`: one step per screen (the right arrow draws exactly the next step and no other) in
    /// large type (the explanation at least 1.4 times the root font size).
    @Test func theSlidesPageShowsOneStepPerScreenInLargeType() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("rsa-slides.html")
        let export = try CLI.run(["export", "rsa", "--html", page.path, "--slides"])
        #expect(export.status == 0, "\(export.stderr)")
        let result = try Self.check(page, extra: ["--slides-check"])
        #expect(result.status == 0, "\(result.output)")
        for check in ["the page is in slides mode", "slides: only step 1 is drawn on load",
                      "slides: after the right arrow exactly one step is drawn, step 2", "slides: the explanation is in large type",
                      "slides: the left arrow comes back to step 1"] {
            let passed = result.output.split(separator: "\n").contains { $0.hasPrefix("ok    ") && $0.contains(check) }
            #expect(passed, "\(check): \(result.output)")
        }
    }

    /// `--lang zh`: the page says it is Chinese (zh-Hans), and Chromium draws it with a CJK font.
    @Test(CrossCheckRequirement.trait(BrowserTools.hasCJKFont, missing: "no Noto Sans CJK font (Debian package fonts-noto-cjk)"))
    func theChinesePageIsDrawnWithACJKFont() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("rsa-zh.html")
        let export = try CLI.run(["export", "rsa", "--html", page.path, "--lang", "zh"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("已写入"), "\(export.stdout)")
        let result = try Self.check(page, extra: ["--expect-lang", "zh-Hans", "--expect-font", "Noto Sans CJK"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("ok    the title is drawn with Noto Sans CJK"), "\(result.output)")
    }

    /// The parties of each event's JSON `direction` (the JSON renderer reads them off the event, not
    /// off the ladder), by event index — a ladder row's `data-event`. An attacker's injected segment
    /// and its changed copy of a segment are sent by the attacker, a segment it kept ends at the
    /// attacker (as `ArrowPartiesTests.direction` reads them); a message dropped unread is a mark on
    /// its receiver, not an arrow.
    static func directions(_ name: String) throws -> [String: [String]] {
        let trace = try ResolvedRun.resolve(name, seed: .unspecified).play().trace
        var out: [String: [String]] = [:]
        let replaced = PacketIndex(trace).replaced
        for (index, event) in trace.events.enumerated() {
            if case .dropped = event.kind { continue }
            guard let fields = JSONLinesRenderer().fields(event, participants: trace.participants, replaced: replaced) else { continue }
            func string(_ key: String) -> String? {
                guard let value = fields.first(where: { $0.0 == key })?.1, case .string(let s) = value else { return nil }
                return s
            }
            guard let direction = string("direction") else { continue }
            var ends = direction.components(separatedBy: "->")
            guard ends.count == 2, ends.allSatisfy({ Actor(rawValue: $0) != nil }) else { continue }
            if string("injected_by") == Actor.attacker.rawValue { ends[0] = Actor.attacker.rawValue }
            // The on-path attacker's changed copy is its own send; the segment it kept ends at the attacker.
            if string("rewritten_by") == Actor.attacker.rawValue { ends[0] = Actor.attacker.rawValue }
            if string("intercepted_by") == Actor.attacker.rawValue { ends[1] = Actor.attacker.rawValue }
            out["\(index)"] = ends
        }
        return out
    }

    /// What a reader sees on a laptop (1366×900) and a phone (390×844), for every built-in run and
    /// a lesson of each kind: nothing wider than the screen, no text below 12 px, the ClientHello's
    /// field values and hex on screen without sideways scrolling, `#step-14` landing with the
    /// step's heading, the ladder's column heads and the step's row in view (not under the controls),
    /// every arrow's ends on the rails of the parties its JSON direction names, as the browser lays them out,
    /// and no ladder label across a rail or ending in "…". On the phone, for a run with an attacker and
    /// plain ones, stepping through every step keeps the current row's label in the ladder's view.
    @Test(arguments: BuiltInRun.allCases.map(\.rawValue) + ["tcp/lost-syn", "tls/ecdhe", "tls13/one-round-trip", "ats/default-blocks-http",
                                                          "tls/toy-dh-search"])
    func aReaderSeesEveryPartOnALaptopAndAPhone(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        let export = try CLI.run(["export", name, "--html", page.path])
        #expect(export.status == 0, "\(name): \(export.stderr)")
        let directions = dir.appendingPathComponent("directions.json")
        let expected = try Self.directions(name)
        try JSONSerialization.data(withJSONObject: expected).write(to: directions)
        let follow = Self.followed.contains(name)
        let result = try Self.check(page, extra: ["--layout-sizes", "1366x900,390x844", "--directions", directions.path]
                                                  + (follow ? ["--follow-check"] : []))
        #expect(result.status == 0, "\(name): \(result.output)")
        if follow {
            #expect(outputLines(result).contains { $0.hasPrefix("ok    390x844: stepping keeps the current row's label in the ladder's view") }, "\(name): \(result.output)")
        }
        let lines = outputLines(result)
        // A page with a ClientHello whose bytes open must pass the field-table check, not skip it.
        let html = try String(contentsOf: page, encoding: .utf8)
        let hasClientHello = html.contains(/class="row[^"]*has-bytes"[^>]*>\n<title>[^<]*ClientHello/)
        for size in ["1366x900", "390x844"] {
            var checks = ["nothing is wider than the", "no text below 12 px", "#step-", "every arrow's ends are on its parties' rails",
                          "no ladder label crosses a rail"]
            if hasClientHello { checks.append("the ClientHello's field names, values and hex are on screen") }
            // On the laptop the ladder stands beside the step without scrolling sideways in its box (#33).
            if size == "1366x900" { checks.append("the ladder fits its box beside the step") }
            for check in checks {
                #expect(lines.contains { $0.hasPrefix("ok    \(size): \(check)") }, "\(name) \(size): \(check)")
            }
            // A run whose JSON has directions draws arrows for them, and the check read them.
            let arrows = lines.first { $0.hasPrefix("ok    \(size): every arrow's ends") }
                .flatMap { $0.firstMatch(of: /\((\d+) arrows checked/).flatMap { Int($0.output.1) } } ?? 0
            if BuiltInRun(rawValue: name) != nil || name.hasPrefix("tcp/") { #expect(arrows > 0, "\(name) \(size): no arrow checked") }
        }
    }

    /// Issue #33: the pages whose labels hold a piece wider than a standard lane — `strip` in Chinese (a
    /// cipher suite's name with its Chinese comma), the three 0-RTT attack runs (an HKDF call with its
    /// first argument) — on a laptop (1366×900): nothing wider than the screen, and the ladder's own box
    /// does not scroll sideways either, every label whole, in its lane, at 12 px or more; on a phone
    /// (390×844) the page still fits (the ladder may scroll sideways inside its box).
    @Test(arguments: [("strip", "zh"), ("tls13-0rtt-replay", "en"), ("tls13-0rtt-single-use", "en"), ("tls13-0rtt-recorded", "en")])
    func theLadderDoesNotScrollSidewaysOnALaptop(name: String, language: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        let export = try CLI.run(["export", name, "--lang", language, "--html", page.path])
        #expect(export.status == 0, "\(name): \(export.stderr)")
        let result = try Self.check(page, extra: ["--layout-sizes", "1366x900,390x844"])
        #expect(result.status == 0, "\(name) \(language): \(result.output)")
        let lines = outputLines(result)
        for check in ["1366x900: the ladder fits its box beside the step, no sideways scrolling", "1366x900: nothing is wider than the",
                      "1366x900: no text below 12 px", "1366x900: no ladder label crosses a rail", "390x844: nothing is wider than the",
                      "390x844: no text below 12 px", "390x844: no ladder label crosses a rail"] {
            #expect(lines.contains { $0.hasPrefix("ok    \(check)") }, "\(name) \(language): \(check)")
        }
    }

    /// The runs stepped through on the phone: an attack with three columns (TLS 1.2 and 1.3) and a plain run.
    static let followed: Set<String> = ["mitm", "tls13-mitm", "rsa"]

    func outputLines(_ result: (status: Int32, output: String)) -> [Substring] { result.output.split(separator: "\n") }

    /// The stepping check can fail: the same `mitm` page with the script's sideways scrolling taken
    /// out leaves the attacker's and the server's labels off the phone's screen, and is caught.
    @Test func theSteppingCheckCatchesALabelOffScreen() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("mitm.html")
        let export = try CLI.run(["export", "mitm", "--html", page.path])
        #expect(export.status == 0, "\(export.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("scroller.scrollLeft = "))
        try html.replacingOccurrences(of: "scroller.scrollLeft = ", with: "void ").write(to: page, atomically: true, encoding: .utf8)
        let result = try Self.check(page, extra: ["--layout-sizes", "390x844", "--follow-check"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("FAIL  390x844: stepping keeps the current row's label in the ladder's view"), "\(result.output)")
    }

    /// The arrow check can fail: a page whose client→server arrows are redrawn from the server's
    /// rail is caught, with the step named.
    @Test func theArrowCheckCatchesAnArrowBetweenTheWrongRails() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("mitm.html")
        let export = try CLI.run(["export", "mitm", "--html", page.path])
        #expect(export.status == 0, "\(export.stderr)")
        let directions = dir.appendingPathComponent("directions.json")
        var expected = try Self.directions("mitm")
        // Claim that the client's first message went to the server: what the newcomer saw drawn.
        let first = try #require(expected.filter { $0.value == ["client", "attacker"] }.keys.compactMap(Int.init).min())
        expected["\(first)"] = ["client", "server"]
        try JSONSerialization.data(withJSONObject: expected).write(to: directions)
        let result = try Self.check(page, extra: ["--layout-sizes", "1366x900", "--directions", directions.path])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("FAIL  1366x900: every arrow's ends are on its parties' rails") && result.output.contains("(client->server): drawn client->attacker"),
                "\(result.output)")
    }

    /// `tlslab compare A B --html FILE` on a laptop (1366×900) and a phone (390×844), in English and
    /// Chinese: nothing wider than the screen (a ladder's column scrolls sideways inside itself), no
    /// text below 12 px, every cell of the table on screen and uncut (a suite name breaks to fit),
    /// both runs' knowledge and every phase of both ladders drawn; no console error or request.
    @Test(arguments: [("rsa", "ecdhe", "en"), ("rsa", "ecdhe", "zh"), ("ecdhe", "tls13", "en"), ("ecdhe", "tls13", "zh")])
    func theComparisonPageFitsALaptopAndAPhone(first: String, second: String, language: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("compare.html")
        let compare = try CLI.run(["compare", first, second, "--html", page.path, "--lang", language])
        #expect(compare.status == 0, "\(compare.stderr)")
        let result = try Self.check(page, extra: ["--compare-check", "--layout-sizes", "1366x900,390x844"])
        #expect(result.status == 0, "\(first) \(second) \(language): \(result.output)")
        for size in ["1366x900", "390x844"] {
            for check in ["nothing is wider than the", "no text below 12 px", "the table's", "both runs' knowledge"] {
                #expect(result.output.split(separator: "\n").contains { $0.hasPrefix("ok    \(size): \(check)") },
                        "\(first) \(second) \(language) \(size): \(check)")
            }
        }
        #expect(result.output.contains("ok    no console error"), "\(result.output)")
    }

    /// A lesson of every kind, an attack with three columns and a lossy run load and step too.
    @Test(arguments: ["tcp/lost-syn", "tls/ecdhe", "ats/default-blocks-http", "tls/toy-dh-search", "mitm", "lossy"])
    func lessonsAndRunsOfEveryKindWorkInTheBrowser(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        let export = try CLI.run(["export", name, "--html", page.path])
        #expect(export.status == 0, "\(name): \(export.stderr)")
        let result = try Self.check(page)
        #expect(result.status == 0, "\(name): \(result.output)")
    }
}

/// The programs the browser test needs, found on the PATH.
enum BrowserTools {
    static let chromium = which(["chromium", "chromium-browser"])
    static let python = which(["python3"])
    /// Noto Sans CJK is installed, as fontconfig (which Chromium asks) lists the fonts.
    static let hasCJKFont: Bool = {
        guard let fcList = which(["fc-list"]), let listed = try? ExternalTool.run(fcList, [":lang=zh", "family"], timeout: 60) else { return false }
        return listed.stdoutText.contains("Noto Sans CJK")
    }()

    static func which(_ names: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            for name in names {
                let candidate = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }
}
