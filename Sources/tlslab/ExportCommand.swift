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
        abstract: CLIWords.text("cli.exportCommand.abstract"),
        discussion: CLIWords.text("cli.exportCommand.discussion")
    )

    enum Link: String, ExpressibleByArgument, CaseIterable { case ethernet, raw }

    @Argument(help: CLIWords.help("cli.exportCommand.scenario"))
    var scenario: String?

    @Option(help: CLIWords.help("cli.exportCommand.pcap"))
    var pcap: String?

    @Option(help: CLIWords.help("cli.exportCommand.keylog"))
    var keylog: String?

    @Option(help: CLIWords.help("cli.exportCommand.pki"))
    var pki: String?

    @Option(help: CLIWords.help("cli.exportCommand.html"))
    var html: String?

    @Flag(help: CLIWords.help("cli.exportCommand.slides"))
    var slides = false

    @Flag(help: CLIWords.help("cli.exportCommand.all"))
    var all = false

    @Option(help: CLIWords.help("cli.exportCommand.link"))
    var link: Link = .ethernet

    @Option(help: CLIWords.help("cli.exportCommand.seed"))
    var seed: String?

    @OptionGroup var language: LanguageOption

    func validate() throws {
        if all {
            guard html != nil else { throw OptionProblem.exportAllNeedsHTML.validationError }
            guard scenario == nil, pcap == nil, keylog == nil, pki == nil else {
                throw OptionProblem.exportAllTakesNothingElse.validationError
            }
        } else {
            guard scenario != nil else { throw OptionProblem.exportNeedsName.validationError }
            guard pcap != nil || html != nil else { throw OptionProblem.exportNeedsOutput.validationError }
            guard pcap != nil || (keylog == nil && pki == nil) else { throw OptionProblem.exportKeylogNeedsPcap.validationError }
        }
        if slides, html == nil { throw OptionProblem.exportSlidesNeedHTML.validationError }
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
                throw CLIError.input(.noCertificatesToExport(name: scenario, pki: pki))
            }
            material = m
            switch OutputFile.existing(pki) {
            case .nothing, .directory, .symbolicLink: break
            default: throw CLIError.input(.pkiIsAFile(path: pki))
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
                    .pageBytes(name: resolved.name, trace: trace, summary: page == nil ? resolved.summary(in: explanations) : nil, lesson: page)
                try batch.stage(document, to: html, access: .ordinary)
                written.append(html)
                report.append(say("cli.export.wroteHTML", ["file": TerminalText.escaped(html), "kib": "\(document.count / 1024)"]))
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
            throw CLIError.input(.exportAllNeedsLibrary)
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
        let path = library.catalogue.path
        // A page's address relative to a lesson's page (lessons sit one folder deep per `/` in their name).
        func href(_ target: String, from name: String) -> String {
            String(repeating: "../", count: name.filter { $0 == "/" }.count) + target + ".html"
        }
        for (position, entry) in path.enumerated() {
            let resolved = try ResolvedRun.resolve(entry.file, seed: seed == .random ? .unspecified : seed)
            let (trace, page) = resolved.play(explanations: explanations)
            let file = entry.name + ".html"
            let url = root.appendingPathComponent(file)
            try create(url.deletingLastPathComponent())
            let lessonPage = page.map { p -> LessonPage in
                var named = p
                named.name = entry.name
                if position > 0 {
                    let before = path[position - 1]
                    named.previous = .init(name: before.name, title: before.title(for: lessonLanguage), href: href(before.name, from: entry.name))
                }
                if position + 1 < path.count {
                    let after = path[position + 1]
                    named.next = .init(name: after.name, title: after.title(for: lessonLanguage), href: href(after.name, from: entry.name))
                }
                named.pages = Dictionary(path.map { ($0.name, href($0.name, from: entry.name)) }, uniquingKeysWith: { a, _ in a })
                return named
            }
            let document = renderer.page(name: entry.name, trace: trace, lesson: lessonPage)
            try write(document, to: url.path)
            lessons.append(HTMLIndexPage.Link(name: entry.name, title: entry.title(for: lessonLanguage), file: file, topic: entry.topic, kind: entry.kind,
                                              summary: HTMLIndexPage.firstSentence(entry.description(for: lessonLanguage))))
        }
        let index = HTMLIndexPage(explanations: explanations).render(runs: runs, lessons: lessons)
        try write(index, to: root.appendingPathComponent("index.html").path)
        do { _ = try batch.commit() } catch { throw CLIError.file(error, explanations) }
        print(explanations("cli.export.wroteAll", ["count": "\(runs.count + lessons.count)", "directory": directory]) ?? directory)
    }
}
