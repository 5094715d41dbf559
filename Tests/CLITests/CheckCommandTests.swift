import Foundation
import Testing

@Suite("tlslab check: one line per scenario, the summary line, exit codes 0/1/2")
struct CheckCommandTests {
    static func write(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    static let pass = "title: ok\ndescription: the default RSA walkthrough succeeds\nexpect:\n  handshake: success\n"
    static let fail = "title: wrong\ndescription: expects the wrong alert on purpose\nclient: { host: mail.example.com }\nexpect:\n  handshake: failure\n  alert: unknown_ca\n"
    static let invalid = "title: bad\ndescription: a typo in a key must be reported\nexpect:\n  handshak: success\n"

    @Test func passAndFailLinesAndExitCode() throws {
        let dir = try Self.write(["a.yaml": Self.pass, "b.yaml": Self.fail])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["check", dir.path])
        #expect(r.status == 1)
        #expect(r.stdout == "PASS \(dir.path)/a\nFAIL \(dir.path)/b: alert: expected unknown_ca, got bad_certificate\n1 passed, 1 failed\n")
    }

    @Test func allPassExitsZero() throws {
        let dir = try Self.write(["a.yaml": Self.pass])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["check", dir.appendingPathComponent("a.yaml").path])
        #expect(r.status == 0 && r.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func invalidFileExitsTwoWithLocatedError() throws {
        let dir = try Self.write(["a.yaml": Self.pass, "c.yaml": Self.invalid])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["check", dir.path])
        #expect(r.status == 2)
        #expect(r.stdout.contains("INVALID \(dir.path)/c.yaml:4:3: expect.handshak: unknown key 'handshak';"))
        #expect(r.stdout.contains("did you mean 'handshake'?"))
        #expect(r.stdout.hasSuffix("\n1 passed, 1 failed\n"))
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines.first == "PASS \(dir.path)/a")
    }

    /// The repository's lesson library, through the command exactly as CI and a teacher run it.
    @Test func theLibraryPasses() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { root.deleteLastPathComponent() }
        let library = root.appendingPathComponent("Scenarios").path
        let files = (FileManager.default.enumerator(atPath: library)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 30)
        let r = try CLI.run(["check", library])
        #expect(r.status == 0, "\(r.stdout.split(separator: "\n").filter { !$0.hasPrefix("PASS") }.joined(separator: "\n"))")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == files.count + 1)
        #expect(lines.last.map(String.init) == "\(files.count) passed, 0 failed")
    }

    @Test func missingPathExitsTwo() throws {
        let r = try CLI.run(["check", "/nonexistent-tlslab-scenarios"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("no such file or directory: /nonexistent-tlslab-scenarios"))
        #expect(r.stdout == "INVALID /nonexistent-tlslab-scenarios: no such file or directory\n0 passed, 1 failed\n")
    }

    /// In Chinese both the report line and the note on standard error are the catalogue's; so is the
    /// error for paths without scenario files.
    @Test func missingPathIsReportedInChinese() throws {
        let r = try CLI.run(["check", "--lang", "zh", "/nonexistent-tlslab-scenarios"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("没有这个文件或目录：/nonexistent-tlslab-scenarios"), "\(r.stderr)")
        #expect(!r.stderr.contains("no such file"), "\(r.stderr)")
        #expect(r.stdout == "INVALID /nonexistent-tlslab-scenarios：没有这个文件或目录\n0 个通过，1 个未通过\n")
        let dir = try Self.write([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for (lang, words) in [("zh", "下没有场景文件（*.yaml）"), ("en", "no scenario files (*.yaml) under")] {
            let empty = try CLI.run(["check", "--lang", lang, dir.path])
            #expect(empty.status != 0)
            #expect(empty.stderr.contains(words) && empty.stderr.contains(dir.path), "\(lang): \(empty.stderr)")
            // The summary line, a sentence a person reads, is in the chosen language too (issue #34).
            #expect(empty.stdout == (lang == "zh" ? "0 个通过，0 个未通过\n" : "0 passed, 0 failed\n"), "\(lang): \(empty.stdout)")
        }
    }

    /// A missing path among good ones loses nothing: the others are checked, the summary counts it.
    @Test func missingPathAmongFilesKeepsTheReport() throws {
        let dir = try Self.write(["a.yaml": Self.pass])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["check", "/nonexistent.yaml", dir.path])
        #expect(r.status == 2)
        #expect(r.stdout.contains("PASS \(dir.path)/a\n"))
        #expect(r.stdout.hasSuffix("\n1 passed, 1 failed\n"), "\(r.stdout)")
    }

    /// A duplicated key in a CRLF file used to trap the whole process (exit 132) and lose the
    /// report for every other file in the directory.
    @Test func crlfDuplicateKeyIsOneInvalidLine() throws {
        let dir = try Self.write(["a.yaml": Self.pass, "x.yaml": "a: 1\r\nb: 2\r\nc:\r\nc:\r\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["check", dir.path])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.contains("INVALID \(dir.path)/x.yaml:4:1: c: duplicate key 'c' (first written at line 3, column 1)"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("\n1 passed, 1 failed\n"))
    }

    @Test func runAcceptsAScenarioFile() throws {
        let dir = try Self.write(["a.yaml": Self.pass])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["run", dir.appendingPathComponent("a.yaml").path, "--format", "json"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").last?.contains("\"outcome\":\"success\"") == true)
    }

    /// The same file walks through (no terminal: the whole trace) and exports for Wireshark, from its
    /// own seed unless --seed is given; a file that does not parse names itself and exits 2.
    @Test func walkthroughAndExportAcceptAScenarioFile() throws {
        let dir = try Self.write(["a.yaml": Self.pass, "bad.yaml": "title: x\nseed: [\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.yaml").path
        let walk = try CLI.run(["walkthrough", file])
        #expect(walk.status == 0, "\(walk.stderr)")
        #expect(walk.stdout.contains("TLS ClientHello") && walk.stdout.contains("Outcome"))
        let pcap = dir.appendingPathComponent("a.pcap").path, keys = dir.appendingPathComponent("a.keys").path
        let export = try CLI.run(["export", file, "--pcap", pcap, "--keylog", keys])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try String(contentsOfFile: keys, encoding: .utf8).contains("\nCLIENT_RANDOM "))
        let own = try CLI.run(["run", file, "--format", "json"]).stdout
        #expect(try CLI.run(["run", file, "--format", "json"]).stdout == own, "a file's own seed reproduces the run")
        #expect(try CLI.run(["run", file, "--format", "json", "--seed", "99"]).stdout != own, "--seed overrides it")
        let random = try CLI.run(["run", file, "--seed", "random"])
        #expect(random.status == 2 && random.stderr.contains("--seed random"))
        let bad = try CLI.run(["walkthrough", dir.appendingPathComponent("bad.yaml").path])
        #expect(bad.status == 2 && bad.stderr.contains("bad.yaml"), "\(bad.stderr)")
    }
}
