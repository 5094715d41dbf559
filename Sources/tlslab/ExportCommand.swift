import ArgumentParser
import Foundation
import HTTP2
import Rendering
import Scenarios
import Simulation
import Trace
import Trust

/// `tlslab export SCENARIO --pcap FILE --keylog FILE [--pki DIR] [--html FILE]`: the run as Wireshark
/// sees it, and as a self-contained page; `--all --html DIR`: every built-in run and lesson as pages.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a run as a pcap capture and an NSS key log (and its PKI as PEM files), or as a self-contained HTML page.",
        discussion: """
        Open the capture in Wireshark with the key log set under Protocols › TLS › (Pre)-Master-Secret \
        log filename, or: tshark -r FILE.pcap -o tls.keylog_file:FILE.keys -Y http

        --html FILE writes one page (inline style, drawing and script; no network request) that steps \
        through the run like `tlslab walkthrough`: open it in a browser, step with the arrow keys, click \
        an arrow for its bytes, print it. --all --html DIR writes every built-in run and every lesson, \
        with an index.html, into DIR.
        """
    )

    enum Link: String, ExpressibleByArgument, CaseIterable { case ethernet, raw }

    @Argument(help: "A built-in run (`tlslab list`), a lesson name (`tlslab lessons`) or a scenario file (.yaml); --pcap needs wire traffic (TLS and TCP lessons).")
    var scenario: String?

    @Option(help: "The libpcap capture to write.")
    var pcap: String?

    @Option(help: "The NSS key log to write (CLIENT_RANDOM lines).")
    var keylog: String?

    @Option(help: "A directory to write server-chain.pem, server-key.pem, roots.pem (and the client identity) into.")
    var pki: String?

    @Option(help: "The self-contained HTML page to write (with --all: the directory to write every page and index.html into).")
    var html: String?

    @Flag(help: "With --html: one step per screen in large type, for projection.")
    var slides = false

    @Flag(help: "With --html DIR: export every built-in run and every lesson of the library, and an index page.")
    var all = false

    @Option(help: "Link type: ethernet or raw (raw IPv4).")
    var link: Link = .ethernet

    @Option(help: "Seed for every random value; 'random' uses the system CSPRNG.")
    var seed: String?

    @OptionGroup var language: LanguageOption

    func validate() throws {
        if all {
            guard html != nil else { throw ValidationError("--all writes pages: give --html DIR") }
            guard scenario == nil, pcap == nil, keylog == nil, pki == nil else {
                throw ValidationError("--all exports every run and lesson as pages into --html DIR: give no NAME, --pcap, --keylog or --pki")
            }
        } else {
            guard scenario != nil else { throw ValidationError("give a run or lesson to export (or --all --html DIR)") }
            guard pcap != nil || html != nil else { throw ValidationError("say what to write: --pcap FILE, --html FILE, or both") }
            guard pcap != nil || (keylog == nil && pki == nil) else { throw ValidationError("--keylog and --pki go with --pcap") }
        }
        if slides, html == nil { throw ValidationError("--slides shapes the --html page: give --html FILE") }
    }

    func run() throws {
        let seedValue = try SeedChoice(seed)
        let explanations = language.explanations
        func say(_ key: String, _ values: [String: String]) -> String { explanations(key, values) ?? key }
        if all, let html {
            try exportAll(into: html, seed: seedValue, explanations: explanations)
            return
        }
        guard let scenario else { return }
        let resolved = try ResolvedRun.resolve(scenario, seed: seedValue)
        // Every argument is checked before any file is written.
        var material: PKIMaterial?
        if let pki {
            guard resolved.setup?.usesTLS == true, let m = resolved.pki, !m.pemFiles.isEmpty else {
                throw CLIError.badInput("'\(scenario)' uses no certificates to export with --pki \(pki)")
            }
            material = m
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: pki, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw CLIError.badInput("--pki \(pki) is a file, not a directory")
            }
        }
        let (trace, page) = resolved.play(explanations: explanations)
        var report: [String] = []
        if let pcap {
            let packets = PcapWriter.packets(from: trace)
            guard !packets.isEmpty else {
                throw CLIError.badInput(say("cli.export.nothingOnTheWire", ["name": scenario, "kind": resolved.scenario?.kind ?? "this"]))
            }
            try write(Data(PcapWriter(linkType: link == .ethernet ? .ethernet : .rawIPv4).file(packets)), to: pcap)
            report.append(say("cli.export.wrotePcap", ["file": pcap, "count": "\(packets.count)"]))
        }
        if let keylog {
            let sessions = KeyLogWriter.sessions(from: trace)
            try write(Data(KeyLogWriter.text(sessions).utf8), to: keylog)
            report.append(say("cli.export.wroteKeylog", ["file": keylog, "count": "\(sessions.count)"]))
        }
        if let pki, let material {
            let dir = URL(fileURLWithPath: pki, isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            } catch {
                throw CLIError.badInput("cannot create the directory \(pki): \(error.localizedDescription)")
            }
            for file in material.pemFiles {
                try write(Data(file.text.utf8), to: dir.appendingPathComponent(file.name).path)
            }
            report.append(say("cli.export.wrotePKI", ["files": material.pemFiles.map(\.name).joined(separator: ", "), "directory": pki]))
        }
        if let html {
            let document = HTMLRenderer(explanations: explanations, slides: slides)
                .page(name: resolved.name, trace: trace, summary: page == nil ? resolved.summary(in: explanations) : nil, lesson: page)
            try write(Data(document.utf8), to: html)
            report.append(say("cli.export.wroteHTML", ["file": html, "kib": "\(document.utf8.count / 1024)"]))
        }
        print(report.joined(separator: "\n"))
    }

    /// Every built-in run and every lesson as a page, in `directory` (lessons under their topic's
    /// folder), and `index.html` linking them all by topic in course order.
    func exportAll(into directory: String, seed: SeedChoice, explanations: Explanations) throws {
        guard let library = LessonLibrary.locate() else {
            throw CLIError.badInput("--all needs the lesson library: \(LessonLibrary.searchDescription)")
        }
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        func create(_ dir: URL) throws {
            do {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            } catch {
                throw CLIError.badInput("cannot create the directory \(dir.path): \(error.localizedDescription)")
            }
        }
        try create(root)
        let renderer = HTMLRenderer(explanations: explanations, slides: slides)
        let lessonLanguage = explanations.language
        var runs: [HTMLIndexPage.Link] = [], lessons: [HTMLIndexPage.Link] = []
        for run in BuiltInRun.allCases {
            let resolved = try ResolvedRun.builtIn(run, seed: seed)
            let file = "\(run.rawValue).html"
            let summary = resolved.summary(in: explanations)
            let document = renderer.page(name: resolved.name, trace: resolved.play(explanations: explanations).trace, summary: summary)
            try write(Data(document.utf8), to: root.appendingPathComponent(file).path)
            runs.append(HTMLIndexPage.Link(name: run.rawValue, title: summary, file: file))
        }
        for entry in library.catalogue.path {
            let resolved = try ResolvedRun.resolve(entry.file, seed: seed == .random ? .unspecified : seed)
            let (trace, page) = resolved.play(explanations: explanations)
            let file = entry.name + ".html"
            let url = root.appendingPathComponent(file)
            try create(url.deletingLastPathComponent())
            let lessonPage = page.map { p -> LessonPage in
                var named = p
                named.name = entry.name
                return named
            }
            let document = renderer.page(name: entry.name, trace: trace, lesson: lessonPage)
            try write(Data(document.utf8), to: url.path)
            lessons.append(HTMLIndexPage.Link(name: entry.name, title: entry.title(for: lessonLanguage), file: file, topic: entry.topic, kind: entry.kind))
        }
        let index = HTMLIndexPage(explanations: explanations).render(runs: runs, lessons: lessons)
        try write(Data(index.utf8), to: root.appendingPathComponent("index.html").path)
        print(explanations("cli.export.wroteAll", ["count": "\(runs.count + lessons.count)", "directory": directory]) ?? directory)
    }

    func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError.badInput("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
