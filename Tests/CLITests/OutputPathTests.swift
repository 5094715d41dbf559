import Foundation
import TestSupport
import Testing

/// Issue #38 defects 6, 13, 14, 16 through the command line: every output flag given a directory,
/// `.` or a link leaves everything as it was and says why in one sentence naming the path; secrets
/// are written 0600 whatever the umask; a failing export writes none of its files.
@Suite(.serialized) struct OutputPathTests {
    /// A folder holding a file the user cares about, a file outside reached by a link, and nothing else.
    func sandbox() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-cli-out-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/keep", withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: dir + "/keep/precious.txt"))
        try Data("outside".utf8).write(to: URL(fileURLWithPath: dir + "/outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/outside.txt")
        return dir
    }

    func untouched(_ dir: String, besides extra: [String] = []) -> Bool {
        let fm = FileManager.default
        return (try? fm.contentsOfDirectory(atPath: dir + "/keep")) == ["precious.txt"]
            && fm.contents(atPath: dir + "/keep/precious.txt") == Data("precious".utf8)
            && fm.contents(atPath: dir + "/outside.txt") == Data("outside".utf8)
            && (try? fm.contentsOfDirectory(atPath: dir).sorted()) == (["keep", "link", "outside.txt"] + extra).sorted()
    }

    /// Every flag that writes a file, with the arguments it needs around it (connect and serve are
    /// refused before they touch the network: nothing listens on port 9).
    static let flags: [(name: String, arguments: @Sendable (String) -> [String])] = [
        ("export --pcap", { ["export", "rsa", "--pcap", $0] }),
        ("export --keylog", { ["export", "rsa", "--pcap", "PLACEHOLDER.pcap", "--keylog", $0] }),
        ("export --html", { ["export", "rsa", "--html", $0] }),
        ("connect --session-out", { ["connect", "127.0.0.1:9", "--session-out", $0] }),
        ("connect --keylog", { ["connect", "127.0.0.1:9", "--keylog", $0] }),
        ("serve --keylog", { ["serve", "--port", "0", "--cert", "/nonexistent.pem", "--key", "/nonexistent.pem", "--keylog", $0] }),
    ]

    @Test("a directory, '.' or a link given to any output flag survives untouched, exit 2 with the path named",
          arguments: 0 ..< 6)
    func directoriesAndLinksSurvive(_ index: Int) throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flag = Self.flags[index]
        for (target, cwd, says) in [(dir + "/keep", dir, "is a directory"), (".", dir + "/keep", "is a directory"),
                                    (dir + "/link", dir, "is a symbolic link")] {
            let arguments = flag.arguments(target).map { $0 == "PLACEHOLDER.pcap" ? dir + "/keep/new.pcap" : $0 }
            let result = try CLI.run(arguments, currentDirectory: cwd)
            #expect(result.status == 2, "\(flag.name) \(target): \(result.stderr)")
            #expect(result.stderr.contains(target) && result.stderr.contains(says), "\(flag.name) \(target): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
            #expect(untouched(dir), "\(flag.name) \(target) changed the folder")
        }
    }

    @Test("export --all --html DIR refuses a topic folder that is a link out of DIR, and writes nothing")
    func exportAllRefusesALinkInside() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pages = dir + "/pages"
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        // Lessons are written under their topic's folder: make one topic a link to the sandbox's keep/.
        try FileManager.default.createSymbolicLink(atPath: pages + "/tcp", withDestinationPath: dir + "/keep")
        let result = try CLI.run(["export", "--all", "--html", pages])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("is a symbolic link"), "\(result.stderr)")
        #expect(untouched(dir, besides: ["pages"]))
        #expect((try FileManager.default.contentsOfDirectory(atPath: pages)) == ["tcp"], "no page was left behind")
    }

    @Test("export --keylog and --pki's private keys are 0600 with umask 000; certificates and captures follow the umask")
    func secretsAreTheOwners() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["export", "rsa", "--pcap", dir + "/a.pcap", "--keylog", dir + "/a.keys", "--pki", dir + "/pki"])
        #expect(result.status == 0, "\(result.stderr)")
        // Run again under umask 000 through a shell, replacing the files.
        guard let binary = CLI.binary else { throw CLI.CLIRunnerError.binaryNotFound }
        let shell = try ExternalTool.run("/bin/sh", ["-c", "umask 000 && exec \"$0\" export rsa --pcap \"$1/b.pcap\" --keylog \"$1/b.keys\" --pki \"$1/pki\"",
                                                    binary.path, dir])
        #expect(shell.succeeded, "\(shell.stderrText)")
        func mode(_ name: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: dir + "/" + name)[.posixPermissions] as? Int) ?? -1 }
        #expect(try mode("b.keys") == 0o600)
        #expect(try mode("pki/server-key.pem") == 0o600)
        #expect(try mode("b.pcap") == 0o666)
        #expect(try mode("pki/roots.pem") == 0o666)
        #expect(try mode("a.keys") == 0o600)
    }

    @Test("export says which file it replaced, and a failing export leaves the earlier outputs as they were")
    func replacingIsSaidAndAllOrNothing() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try CLI.run(["export", "rsa", "--pcap", dir + "/a.pcap"])
        #expect(first.status == 0 && !first.stdout.contains("replaced"), "\(first.stdout)")
        let earlier = FileManager.default.contents(atPath: dir + "/a.pcap")
        let again = try CLI.run(["export", "ecdhe", "--pcap", dir + "/a.pcap"])
        #expect(again.stdout.contains("(replaced the earlier \(dir)/a.pcap)"), "\(again.stdout)")
        let replaced = FileManager.default.contents(atPath: dir + "/a.pcap")
        #expect(replaced != earlier)
        // The HTML target is a directory: refused before anything is written, the pcap included.
        let failing = try CLI.run(["export", "rsa", "--pcap", dir + "/a.pcap", "--html", dir + "/keep"])
        #expect(failing.status == 2)
        #expect(FileManager.default.contents(atPath: dir + "/a.pcap") == replaced)
        #expect((try FileManager.default.contentsOfDirectory(atPath: dir).sorted()) == ["a.pcap", "keep", "link", "outside.txt"])
    }

    @Test("--session-in with a directory, /dev/null or /dev/zero says so in one sentence (exit 2, no hang)")
    func sessionInputsAreClear() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (path, says) in [(dir, "it is a directory"), ("/dev/null", "not a regular file"), ("/dev/zero", "not a regular file"),
                             (dir + "/none", "no such file")] {
            let result = try CLI.run(["connect", "127.0.0.1:9", "--session-in", path])
            #expect(result.status == 2, "\(path): \(result.stderr)")
            #expect(result.stderr.contains("cannot read \(path): \(says)"), "\(path): \(result.stderr)")
        }
    }
}

/// Issue #38 defect 9 through the command line: a lesson file's name and text reach `check` and
/// `lessons` escaped; the HTML page shows a bidi override as its code point.
@Suite(.serialized) struct TerminalEscapeTests {
    func library() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-esc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/Scenarios/tls", withIntermediateDirectories: true)
        try Data("# lessons\n".utf8).write(to: URL(fileURLWithPath: dir + "/Scenarios/README.md"))
        let good = "title: a good lesson\ndescription: a description long enough to teach something\nexpect:\n  handshake: success\n"
        try Data(good.utf8).write(to: URL(fileURLWithPath: dir + "/Scenarios/tls/name\u{1B}]0;owned\u{07}.yaml"))
        let bad = "title: \"evil \\e]52;c;aGVsbG8=\\a\"\ndescription: a description long enough to teach something\nexpect:\n  handshake: success\n"
        try Data(bad.utf8).write(to: URL(fileURLWithPath: dir + "/Scenarios/tls/bad.yaml"))
        return dir
    }

    static func raw(_ text: String) -> Bool { text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || (0x80 ... 0x9F).contains($0.value) } }

    @Test("check and lessons print no control byte from a file name or a lesson's text")
    func checkAndLessons() throws {
        let dir = try library()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let check = try CLI.run(["check", "Scenarios"], currentDirectory: dir)
        #expect(!Self.raw(check.stdout) && !Self.raw(check.stderr), "\(check.stdout.debugDescription)")
        #expect(check.stdout.contains("name\\x1B]0;owned\\x07"), "\(check.stdout)")
        #expect(check.stdout.contains("INVALID") && check.stdout.contains("control character U+001B"), "\(check.stdout)")
        let lessons = try CLI.run(["lessons"], currentDirectory: dir)
        #expect(!Self.raw(lessons.stdout) && !Self.raw(lessons.stderr), "\(lessons.stdout.debugDescription) \(lessons.stderr.debugDescription)")
        #expect(lessons.stdout.contains("name\\x1B]0;owned\\x07"), "\(lessons.stdout)")
    }
}
