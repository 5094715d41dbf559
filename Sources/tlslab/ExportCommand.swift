import ArgumentParser
import Foundation
import HTTP2
import Rendering
import Scenarios
import Simulation
import Trace
import UserFiles

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
            switch OutputFile.existing(pki) {
            case .nothing, .directory, .symbolicLink: break
            default: throw CLIError.badInput("--pki \(TerminalText.escaped(pki)) is a file, not a directory")
            }
        }
        // Each output path is checked before any work: a directory or a link given as a file is
        // refused and nothing is touched.
        do {
            for path in [pcap, keylog, html].compactMap({ $0 }) { try OutputFile.check(path) }
        } catch { throw CLIError.file(error, explanations) }
        let (trace, page) = resolved.play(explanations: explanations)
        // All or nothing: every file is written beside its target first, then all are renamed into place.
        let batch = OutputBatch()
        var report: [String] = []
        var written: [String] = []
        do {
            if let pcap {
                let packets = PcapWriter.packets(from: trace)
                guard !packets.isEmpty else {
                    throw CLIError.badInput(say("cli.export.nothingOnTheWire", ["name": scenario, "kind": resolved.scenario?.kind ?? "this"]))
                }
                try batch.stage(PcapWriter(linkType: link == .ethernet ? .ethernet : .rawIPv4).file(packets), to: pcap, access: .ordinary)
                written.append(pcap)
                report.append(say("cli.export.wrotePcap", ["file": TerminalText.escaped(pcap), "count": "\(packets.count)"]))
            }
            if let keylog {
                // The key log decrypts every connection of the capture: its owner's only.
                let log = KeyLogWriter.keyLog(for: trace)
                try batch.stage(Array(log.text.utf8), to: keylog, access: .ownerOnly)
                written.append(keylog)
                report.append(say("cli.export.wroteKeylog", ["file": TerminalText.escaped(keylog), "count": "\(log.sessions)"]))
            }
            if let pki, let material {
                try OutputFile.makeDirectory(pki, followingLink: true)
                for file in material.pemFiles {
                    let path = pki + "/" + file.name
                    try batch.stage(Array(file.text.utf8), to: path, access: file.secret ? .ownerOnly : .ordinary)
                    written.append(path)
                }
                report.append(say("cli.export.wrotePKI", ["files": material.pemFiles.map(\.name).joined(separator: ", "),
                                                          "directory": TerminalText.escaped(pki)]))
            }
            if let html {
                let document = HTMLRenderer(explanations: explanations, slides: slides)
                    .page(name: resolved.name, trace: trace, summary: page == nil ? resolved.summary(in: explanations) : nil, lesson: page)
                try batch.stage(Array(document.utf8), to: html, access: .ordinary)
                written.append(html)
                report.append(say("cli.export.wroteHTML", ["file": TerminalText.escaped(html), "kib": "\(document.utf8.count / 1024)"]))
            }
            let outcomes = try batch.commit()
            let replaced = zip(written, outcomes).map { explanations.replacedNote($1, $0) }.joined()
            print(report.joined(separator: "\n") + replaced)
        } catch let error as OutputFileError {
            throw CLIError.file(error, explanations)
        }
    }

    /// Every built-in run and every lesson as a page, in `directory` (lessons under their topic's
    /// folder), and `index.html` linking them all by topic in course order.
    func exportAll(into directory: String, seed: SeedChoice, explanations: Explanations) throws {
        guard let library = LessonLibrary.locate() else {
            throw CLIError.badInput("--all needs the lesson library: \(LessonLibrary.searchDescription)")
        }
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        // The directory itself may be reached through a link (the user named it); the folders and
        // pages inside it never are: a link there would send a page outside it.
        func create(_ dir: URL, root: Bool = false) throws {
            do { try OutputFile.makeDirectory(dir.path, followingLink: root) } catch { throw CLIError.file(error, explanations) }
        }
        try create(root, root: true)
        let batch = OutputBatch()
        func write(_ text: String, to path: String) throws {
            do { try batch.stage(Array(text.utf8), to: path, access: .ordinary) } catch { throw CLIError.file(error, explanations) }
        }
        let renderer = HTMLRenderer(explanations: explanations, slides: slides)
        let lessonLanguage = explanations.language
        var runs: [HTMLIndexPage.Link] = [], lessons: [HTMLIndexPage.Link] = []
        for run in BuiltInRun.allCases {
            let resolved = try ResolvedRun.builtIn(run, seed: seed)
            let file = "\(run.rawValue).html"
            let summary = resolved.summary(in: explanations)
            let document = renderer.page(name: resolved.name, trace: resolved.play(explanations: explanations).trace, summary: summary)
            try write(document, to: root.appendingPathComponent(file).path)
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
            try write(document, to: url.path)
            lessons.append(HTMLIndexPage.Link(name: entry.name, title: entry.title(for: lessonLanguage), file: file, topic: entry.topic, kind: entry.kind))
        }
        let index = HTMLIndexPage(explanations: explanations).render(runs: runs, lessons: lessons)
        try write(index, to: root.appendingPathComponent("index.html").path)
        do { _ = try batch.commit() } catch { throw CLIError.file(error, explanations) }
        print(explanations("cli.export.wroteAll", ["count": "\(runs.count + lessons.count)", "directory": directory]) ?? directory)
    }
}
