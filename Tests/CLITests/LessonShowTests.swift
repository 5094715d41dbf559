import Foundation
import Rendering
import Scenarios
import Simulation
import Testing
import Trace
@testable import tlslab

/// Every lesson and every built-in run can be watched: `run` (text and JSON), `walkthrough` (piped,
/// and its interactive steps) and, where there is wire traffic, `export`.
@Suite("Every lesson is something you can watch")
struct LessonShowTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let library = root.appendingPathComponent("Scenarios").path
    static let lessonFiles = ScenarioCheck.files(under: [library]).files
    static let builtIns = BuiltInRun.allCases.map(\.rawValue)

    static func options(_ arguments: [String]) throws -> RenderOptions { try RenderOptions.parse(arguments) }

    @Test func theLibraryIsThere() {
        #expect(Self.lessonFiles.count >= 120, "\(Self.lessonFiles.count) lesson files")
    }

    /// A lesson's text starts with its title and description and ends with its expectations, all
    /// PASS; each kind shows its own material.
    @Test(arguments: lessonFiles)
    func runShowsTheLesson(file: String) throws {
        let scenario = try ScenarioParser.parse(contentsOf: file)
        let text = try Self.options([]).lines(for: file, width: 100).joined(separator: "\n")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == scenario.title || text.hasPrefix(String(scenario.title.prefix(60))), "\(file): starts with its title")
        let firstWords = scenario.description.split(separator: " ").prefix(4).joined(separator: " ")
        #expect(text.contains(firstWords), "\(file): the description is shown")
        #expect(text.contains("What this lesson showed"), "\(file): ends with what it showed")
        let showed = text.components(separatedBy: "What this lesson showed").last ?? ""
        #expect(!showed.split(separator: "\n").contains { $0.hasPrefix("FAIL") }, "\(file): every expectation holds")
        // Issue #33: what the lesson showed is sentences, not a PASS list.
        #expect(!showed.split(separator: "\n").contains { $0.hasPrefix("PASS") }, "\(file): an expectation without a sentence:\n\(showed)")
        // A file comparing handlers shows each handler's run with its own expectations, in file order.
        for count in scenario.handlers.isEmpty ? [scenario.expectations.count] : scenario.handlers.map(\.expectations.count) {
            #expect(text.contains("\(count) of \(count) expectations hold"), "\(file)")
        }
        for line in lines { #expect(DisplayWidth.columns(line) <= 100, "\(file): too wide: \(line)") }
        switch scenario.kind {
        case "tcp":
            #expect(text.contains("TCP [S] seq="), "\(file): the segments")
            #expect(text.contains("CLOSED → "), "\(file): state changes")
            #expect(text.contains("How the connection ended"))
        case "ats":
            #expect(text.contains("ATS checks its rules in order"), "\(file): the rules")
            #expect(text.contains("ATS allows the load") || text.contains("ATS blocks the load"))
        case "dh":
            #expect(text.contains("computes A = g^a mod p") && text.contains("computes B = g^b mod p"), "\(file): the numbers")
            #expect(text.contains("eavesdropper tries"), "\(file): the search")
        default:
            #expect(text.contains("TLS ClientHello") || text.contains("HTTP request"), "\(file): the ladder")
        }
        if !scenario.tryNext.isEmpty {
            #expect(text.contains("Try next"))
            for line in scenario.tryNext { #expect(text.replacingOccurrences(of: "\n", with: " ").contains(String(line.prefix(30)))) }
        }
    }

    /// JSON: every line an object with t, actor and event; the lesson first, the expectations (all
    /// passed) before the summary, the summary last.
    @Test(arguments: lessonFiles)
    func jsonShowsTheLesson(file: String) throws {
        let lines = try Self.options(["--format", "json"]).lines(for: file)
        let objects = try lines.map { line -> [String: Any] in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(file): \(line.prefix(80))")
        }
        for o in objects { #expect(o["t"] != nil && o["actor"] != nil && o["event"] != nil) }
        // A file comparing handlers prints one whole stream per handler, each opening with its lesson object.
        let starts = objects.indices.filter { objects[$0]["event"] as? String == "lesson" }
        for (i, start) in starts.enumerated() where starts.count > 1 {
            try Self.checkJSONStream(Array(objects[start ..< (i + 1 < starts.count ? starts[i + 1] : objects.count)]), file: file)
        }
        if starts.count == 1 { try Self.checkJSONStream(objects, file: file) }
        #expect(starts.count == max(1, try ScenarioParser.parse(contentsOf: file).handlers.count), "\(file): one lesson object per run")
    }

    static func checkJSONStream(_ objects: [[String: Any]], file: String) throws {
        #expect(objects.first?["event"] as? String == "lesson")
        #expect(objects.last?["event"] as? String == "summary")
        let checks = objects.filter { $0["event"] as? String == "expectation" }
        #expect(!checks.isEmpty && checks.allSatisfy { $0["passed"] as? Bool == true }, "\(file)")
        // The expectations are one block right before the summary: no event of the run after them.
        let events = objects.map { $0["event"] as? String ?? "" }
        let block = Array(events.dropLast().suffix(checks.count))
        #expect(block.allSatisfy { $0 == "expectation" } && events.filter { $0 == "expectation" }.count == checks.count,
                "\(file): the expectations are not right before the summary: \(events.suffix(checks.count + 3))")
        let kinds = Set(objects.compactMap { $0["event"] as? String })
        let scenario = try ScenarioParser.parse(contentsOf: file)
        switch scenario.kind {
        case "tcp": #expect(kinds.isSuperset(of: ["tcp_segment", "tcp_state", "tcp_end"]), "\(file): \(kinds)")
        case "ats": #expect(kinds.isSuperset(of: ["ats_plan", "ats_rule", "ats_verdict"]), "\(file): \(kinds)")
        case "dh": #expect(kinds.contains("dh_step"), "\(file): \(kinds)")
        default: #expect(kinds.contains("tls_message") || kinds.contains("http"), "\(file): \(kinds)")
        }
    }

    /// The interactive walkthrough's steps: the lesson opens and closes the walk, every screen fits.
    @Test(arguments: lessonFiles)
    func walkthroughStepsThroughTheLesson(file: String) throws {
        let resolved = try ResolvedRun.resolve(file, seed: .unspecified)
        let (trace, page) = resolved.play()
        let page1 = try #require(page)
        let walk = Walkthrough(title: resolved.name, trace: trace, width: 90, page: page1)
        #expect(walk.steps.count >= 3, "\(file)")
        #expect(walk.steps.first?.headline.contains(String(page1.title.prefix(40))) == true, "\(file): opens with the title")
        #expect(walk.steps.last?.headline.contains("What this lesson showed") == true, "\(file): closes with the expectations")
        for index in [0, walk.steps.count / 2, walk.steps.count - 1] {
            var cursor = Walkthrough.Cursor()
            cursor.step = index
            let screen = walk.screen(cursor, width: 90, height: 30)
            #expect(screen.count == 30 && screen.allSatisfy { $0.count <= 90 }, "\(file) step \(index)")
        }
    }

    /// Every step of every lesson's walk says something below the ladder (no empty pane).
    @Test(arguments: lessonFiles)
    func everyLessonStepTeaches(file: String) throws {
        let resolved = try ResolvedRun.resolve(file, seed: .unspecified)
        let (trace, page) = resolved.play()
        let walk = Walkthrough(title: resolved.name, trace: trace, width: 100, page: page)
        let silent = walk.steps.enumerated().filter { _, step in
            !step.detail.contains { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").count >= 4 }
        }
        #expect(silent.isEmpty, "\(file): \(silent.prefix(4).map { "\($0.offset + 1): \($0.element.headline)" })")
    }

    /// Export: every lesson and built-in run with wire traffic gives packets; ATS and DH lessons,
    /// which send nothing, are refused with a reason.
    @Test(arguments: lessonFiles + builtIns)
    func exportWhereThereIsWireTraffic(name: String) throws {
        let resolved = try ResolvedRun.resolve(name, seed: .unspecified)
        let packets = PcapWriter.packets(from: resolved.play().trace)
        switch resolved.scenario?.kind {
        case "ats"?, "dh"?:
            #expect(packets.isEmpty, "\(name)")
        default:
            #expect(!packets.isEmpty, "\(name): packets to export")
            #expect(PcapWriter(linkType: .ethernet).file(packets).count > 24)
        }
    }

    /// The built-in runs keep their own heading (no lesson frame) and run in text and JSON.
    @Test(arguments: builtIns)
    func builtInRunsStillRun(name: String) throws {
        let text = try Self.options([]).lines(for: name).joined(separator: "\n")
        #expect(text.hasPrefix("TLSLab — \(name):"))
        let json = try Self.options(["--format", "json"]).lines(for: name)
        #expect(json.last?.contains("\"event\":\"summary\"") == true)
    }

    // MARK: - Through the binary

    @Test func runWalkthroughAndExportByNameForEveryKind() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-lessons-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["TLSLAB_SCENARIOS": Self.library]
        for name in ["tcp/old-duplicate-syn", "ats/pinned-leaf-mismatch", "tls/toy-dh-search", "tls/ecdhe.yaml", "rsa"] {
            let run = try CLI.run(["run", name], environment: env)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let walk = try CLI.run(["walkthrough", name], environment: env)
            #expect(walk.status == 0 && walk.stdout == run.stdout, "\(name): piped walkthrough prints the run")
        }
        let tcp = try CLI.run(["export", "tcp/old-duplicate-syn", "--pcap", dir.appendingPathComponent("a.pcap").path], environment: env)
        #expect(tcp.status == 0 && tcp.stdout.contains("packets"), "\(tcp.stderr)")
        let ats = try CLI.run(["export", "ats/pinned-leaf-mismatch", "--pcap", dir.appendingPathComponent("b.pcap").path], environment: env)
        #expect(ats.status == 2 && ats.stderr.contains("nothing to export"), "\(ats.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b.pcap").path))
    }

    @Test func unknownNamesSuggestTheClosest() throws {
        let env = ["TLSLAB_SCENARIOS": Self.library]
        let leaf = try CLI.run(["run", "old-duplicate-syn"], environment: env)
        #expect(leaf.status == 2 && leaf.stderr.contains("did you mean 'tcp/old-duplicate-syn'"), "\(leaf.stderr)")
        let typo = try CLI.run(["run", "tcp/old-duplicat-syn"], environment: env)
        #expect(typo.status == 2 && typo.stderr.contains("'tcp/old-duplicate-syn'"), "\(typo.stderr)")
        let nothing = try CLI.run(["run", "nope"], environment: env)
        #expect(nothing.status == 2 && !nothing.stderr.contains("did you mean"), "\(nothing.stderr)")
        let builtIn = try CLI.run(["run", "ecdh"], environment: env)
        #expect(builtIn.status == 2 && builtIn.stderr.contains("'ecdhe'"), "\(builtIn.stderr)")
    }

    /// The library is found from the current directory upward, or next to the executable.
    @Test func theLibraryIsFoundFromTheCheckoutAndNextToTheBinary() throws {
        let sub = Self.root.appendingPathComponent("Sources/tlslab").path
        #expect(LessonLibrary.find(environment: [:], currentDirectory: sub, executable: "/nonexistent/tlslab") != nil)
        let binary = Self.root.appendingPathComponent(".build/debug/tlslab").path
        let found = LessonLibrary.find(environment: [:], currentDirectory: "/", executable: binary)
        #expect(found.map { URL(fileURLWithPath: $0).standardizedFileURL.path } == URL(fileURLWithPath: Self.library).standardizedFileURL.path)
        #expect(LessonLibrary.find(environment: ["TLSLAB_SCENARIOS": "/nonexistent"], currentDirectory: sub, executable: binary) == nil)
        // From a directory outside the checkout, the binary still finds its lessons.
        let run = try CLI.run(["run", "tcp/three-way-handshake"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func lessonsListsFiltersAndOrdersTheCourse() throws {
        let env = ["TLSLAB_SCENARIOS": Self.library]
        let all = try CLI.run(["lessons"], environment: env)
        #expect(all.status == 0)
        for file in Self.lessonFiles {
            let name = ScenarioCheck.name(of: String(file.dropFirst(Self.library.count + 1)))
            #expect(all.stdout.contains(name), "\(name) listed")
        }
        #expect(all.stdout.contains("tcp/old-duplicate-syn") && all.stdout.contains("Built-in runs"))
        let tcp = try CLI.run(["lessons", "tcp"], environment: env)
        let tcpLessons = Self.lessonFiles.filter { $0.contains("/Scenarios/tcp/") }
        #expect(tcpLessons.count >= 14)
        for file in tcpLessons {
            let name = ScenarioCheck.name(of: String(file.dropFirst(Self.library.count + 1)))
            #expect(tcp.stdout.contains(name), "\(name) matches 'tcp'")
        }
        #expect(!tcp.stdout.contains("ats/pinned-leaf"), "a lesson without the word is left out")
        let pinning = try CLI.run(["lessons", "pinning", "afnetworking"], environment: env)
        #expect(pinning.status == 0 && pinning.stdout.contains("afnetworking/certificate-pinning"))
        let none = try CLI.run(["lessons", "zzzz-no-such-word"], environment: env)
        #expect(none.status == 2)
        let path = try CLI.run(["lessons", "--path"], environment: env)
        // One numbered line per lesson, name first (a long title continues on indented lines).
        let numbered = path.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        let topics = numbered.compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map { String($0.prefix { $0 != "/" }) }
        }
        var order: [String] = []
        for t in topics where order.last != t { order.append(t) }
        #expect(order == LessonCatalogue.topicOrder, "\(order)")
        #expect(path.stdout.split(separator: "\n").first?.contains("tcp/three-way-handshake") == true)
        #expect(numbered.count == Self.lessonFiles.count)
    }

    @Test func fullPrintsSecretsUnshortened() throws {
        let short = try Self.options([]).lines(for: "rsa").joined(separator: "\n")
        let full = try Self.options(["--full"]).lines(for: "rsa", width: 300).joined(separator: "\n")
        let trace = try ResolvedRun.resolve("rsa", seed: .unspecified).play().trace
        let master = try #require(trace.summary.masterSecret).map { String(format: "%02x", $0) }.joined()
        let premaster = try #require(trace.summary.preMasterSecret).map { String(format: "%02x", $0) }.joined()
        #expect(!short.contains(master) && short.contains(String(master.prefix(16)) + "…"))
        #expect(full.contains(master) && full.contains(premaster))
        #expect(!full.contains(String(master.prefix(16)) + "…"))
    }

    @Test func aDemoIsShownButNotChecked() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("demo.yaml").path
        try """
        title: A Diffie-Hellman demo without expectations
        description: Both sides agree on a value that never crossed the wire.
        kind: dh
        dh: { p: 23, g: 5, client_private: 6, server_private: 15 }
        try_next: ["Set client_private to 22: A becomes 1 and the server's range check rejects it."]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", file])
        #expect(run.status == 0 && run.stdout.contains("A demo") && run.stdout.contains("Try next"), "\(run.stderr)")
        let check = try CLI.run(["check", file])
        #expect(check.status == 2 && check.stdout.contains("INVALID") && check.stdout.contains("expect"), "\(check.stdout)")
    }
}
