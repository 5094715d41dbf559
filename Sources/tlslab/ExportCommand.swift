import ArgumentParser
import Foundation
import HTTP2
import Rendering
import Simulation
import Trace
import Trust

/// `tlslab export SCENARIO --pcap FILE --keylog FILE [--pki DIR]`: the run as Wireshark sees it.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a run as a pcap capture and an NSS key log (and its PKI as PEM files).",
        discussion: """
        Open the capture in Wireshark with the key log set under Protocols › TLS › (Pre)-Master-Secret \
        log filename, or: tshark -r FILE.pcap -o tls.keylog_file:FILE.keys -Y http
        """
    )

    enum Link: String, ExpressibleByArgument, CaseIterable { case ethernet, raw }

    @Argument(help: "A built-in run (`tlslab list`), a lesson name (`tlslab lessons`) or a scenario file (.yaml) with wire traffic (TLS and TCP lessons).")
    var scenario: String

    @Option(help: "The libpcap capture to write.")
    var pcap: String

    @Option(help: "The NSS key log to write (CLIENT_RANDOM lines).")
    var keylog: String?

    @Option(help: "A directory to write server-chain.pem, server-key.pem, roots.pem (and the client identity) into.")
    var pki: String?

    @Option(help: "Link type: ethernet or raw (raw IPv4).")
    var link: Link = .ethernet

    @Option(help: "Seed for every random value; 'random' uses the system CSPRNG.")
    var seed: String?

    @OptionGroup var language: LanguageOption

    func run() throws {
        let seedValue = try SeedChoice(seed)
        let explanations = language.explanations
        func say(_ key: String, _ values: [String: String]) -> String { explanations(key, values) ?? key }
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
        let trace = resolved.play().trace
        let packets = PcapWriter.packets(from: trace)
        guard !packets.isEmpty else {
            throw CLIError.badInput(say("cli.export.nothingOnTheWire", ["name": scenario, "kind": resolved.scenario?.kind ?? "this"]))
        }
        try write(Data(PcapWriter(linkType: link == .ethernet ? .ethernet : .rawIPv4).file(packets)), to: pcap)
        var report = [say("cli.export.wrotePcap", ["file": pcap, "count": "\(packets.count)"])]
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
        print(report.joined(separator: "\n"))
    }

    func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError.badInput("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
