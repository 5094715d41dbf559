import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// Runs a program found on PATH; nil when it is not installed.
enum Tool {
    static func path(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a tool and returns its status and combined output. The output goes to a file, not a pipe:
    /// a daemon the tool starts (the tmux server) may keep a pipe's write end open forever, and a test
    /// reading to end-of-file would hang. A tool still running after `timeout` seconds is killed.
    @discardableResult
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: Double = 120) throws -> (status: Int32, output: String) {
        guard let tool = path(name) else { throw ToolError.missing(name) }
        let r = try runExecutable(tool, arguments, environment: environment, timeout: timeout)
        if r.timedOut { throw ToolError.timedOut(name, arguments) }
        return (r.status, r.output)
    }

    /// Runs the program at `executable` with its output in a file; after `timeout` seconds it is sent
    /// SIGTERM (a script may close what it started), and SIGKILL 10 s later: nothing can hang.
    static func runExecutable(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                              timeout: Double) throws -> (status: Int32, output: String, timedOut: Bool) {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let r = try ExternalTool.run(executable, arguments, environment: env, mergingErrorIntoOutput: true, timeout: timeout, grace: 10)
        return (r.status, r.stdoutText, r.timedOut)
    }

    enum ToolError: Error { case missing(String), output(String), timedOut(String, [String]) }
}

func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

@Suite("tlslab export: pcap, key log and PEM files")
struct ExportCommandTests {
    /// tshark reads the capture with checksum validation on, finds no malformed packets or warnings,
    /// and with our key log decrypts the Finished messages and the HTTP request.
    @Test(.enabled(if: Tool.path("tshark") != nil, "tshark is not installed (CI installs it)"),
          arguments: ["rsa", "ecdhe", "lossy"])
    func tsharkDecryptsTheExport(run: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcap = dir.appendingPathComponent("run.pcap").path, keys = dir.appendingPathComponent("run.keys").path
        let result = try CLI.run(["export", run, "--pcap", pcap, "--keylog", keys])
        #expect(result.status == 0, "\(result.stderr)")
        let keylog = try String(contentsOfFile: keys, encoding: .utf8)
        #expect(keylog.split(separator: "\n").filter { $0.hasPrefix("CLIENT_RANDOM ") }.count == 1)
        let checks = ["-o", "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE", "-o", "tls.keylog_file:\(keys)"]
        let experts = try Tool.run("tshark", ["-r", pcap, "-q", "-z", "expert,warn"] + checks)
        #expect(experts.status == 0)
        #expect(!experts.output.contains("Malformed"), "\(experts.output)")
        #expect(!experts.output.contains("Warnings ("), "no warning expert items: \(experts.output)")
        let fields = try Tool.run("tshark", ["-r", pcap, "-Y", "tls.handshake.type == 20 || http.request",
                                             "-T", "fields", "-e", "tls.handshake.type", "-e", "http.request.uri",
                                             "-e", "http.cookie"] + checks)
        #expect(fields.output.components(separatedBy: "20").count - 1 >= 2, "both Finished decrypted: \(fields.output)")
        #expect(fields.output.contains("/profile") && fields.output.contains("session=42"), "\(fields.output)")
    }

    /// The replayed segment is in the capture: tshark sees every segment the server acknowledges.
    @Test(.enabled(if: Tool.path("tshark") != nil, "tshark is not installed (CI installs it)"))
    func replayCaptureHoldsTheInjectedSegment() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcap = dir.appendingPathComponent("replay.pcap").path, keys = dir.appendingPathComponent("replay.keys").path
        let result = try CLI.run(["export", "replay", "--pcap", pcap, "--keylog", keys])
        #expect(result.status == 0, "\(result.stderr)")
        let checks = ["-o", "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE", "-o", "tls.keylog_file:\(keys)"]
        let experts = try Tool.run("tshark", ["-r", pcap, "-q", "-z", "expert,note"] + checks)
        #expect(experts.status == 0)
        #expect(!experts.output.contains("wasn't captured") && !experts.output.contains("unseen segment"), "\(experts.output)")
        #expect(!experts.output.contains("Spurious"), "\(experts.output)")
        #expect(!experts.output.contains("Malformed"), "\(experts.output)")
        // The replayed application-data record appears twice from the client: the original and the copy.
        let appData = try Tool.run("tshark", ["-r", pcap, "-Y", "tls.record.content_type == 23 && ip.src == 192.0.2.10",
                                              "-T", "fields", "-e", "frame.number"] + checks)
        let frames = appData.output.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(frames.count == 2, "\(appData.output)")
    }

    @Test(.enabled(if: Tool.path("openssl") != nil, "openssl is not installed"))
    func pkiFilesVerifyWithOpenSSL() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["export", "rsa", "--pcap", dir.appendingPathComponent("x.pcap").path,
                                  "--pki", dir.appendingPathComponent("pki").path])
        #expect(result.status == 0, "\(result.stderr)")
        let pki = dir.appendingPathComponent("pki")
        func file(_ name: String) -> String { pki.appendingPathComponent(name).path }
        let verify = try Tool.run("openssl", ["verify", "-CAfile", file("roots.pem"), "-purpose", "sslserver",
                                              "-verify_hostname", "example.com", "-attime", "1900000000", file("server-chain.pem")])
        #expect(verify.output.contains(": OK"), "\(verify.output)")
        let keyModulus = try Tool.run("openssl", ["rsa", "-in", file("server-key.pem"), "-noout", "-modulus"])
        let certModulus = try Tool.run("openssl", ["x509", "-in", file("server-chain.pem"), "-noout", "-modulus"])
        #expect(keyModulus.output.hasPrefix("Modulus=") && keyModulus.output == certModulus.output, "the key belongs to the leaf")
    }

    /// A scenario file's PKI: the server chain and key, its CAs, and the client identity of mutual TLS.
    @Test(.enabled(if: Tool.path("openssl") != nil, "openssl is not installed"))
    func scenarioFilePKIVerifiesWithOpenSSL() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/mtls/success.yaml").path
        let pki = dir.appendingPathComponent("pki")
        let result = try CLI.run(["export", scenario, "--pcap", dir.appendingPathComponent("x.pcap").path, "--pki", pki.path])
        #expect(result.status == 0, "\(result.stderr)")
        func file(_ name: String) -> String { pki.appendingPathComponent(name).path }
        for name in ["server-chain.pem", "server-key.pem", "roots.pem", "client-chain.pem", "client-key.pem"] {
            #expect(FileManager.default.fileExists(atPath: file(name)), "missing \(name)")
        }
        // The chains may hold intermediates after the leaf: split them off as -untrusted.
        func verify(_ chain: String, purpose: String, extra: [String]) throws -> String {
            let text = try String(contentsOfFile: file(chain), encoding: .utf8)
            let blocks = text.components(separatedBy: "-----END CERTIFICATE-----").dropLast()
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) + "\n-----END CERTIFICATE-----\n" }
            let leaf = dir.appendingPathComponent("\(chain).leaf.pem"), rest = dir.appendingPathComponent("\(chain).rest.pem")
            try (blocks.first ?? "").write(to: leaf, atomically: true, encoding: .utf8)
            var args = ["verify", "-no_check_time", "-check_ss_sig", "-CAfile", file("roots.pem"), "-purpose", purpose] + extra
            if blocks.count > 1 {
                try blocks.dropFirst().joined().write(to: rest, atomically: true, encoding: .utf8)
                args += ["-untrusted", rest.path]
            }
            return try Tool.run("openssl", args + [leaf.path]).output
        }
        let server = try verify("server-chain.pem", purpose: "sslserver", extra: ["-verify_hostname", "api.example.com"])
        #expect(server.contains(": OK"), "\(server)")
        let client = try verify("client-chain.pem", purpose: "sslclient", extra: [])
        #expect(client.contains(": OK"), "\(client)")
        for (key, chain) in [("server-key.pem", "server-chain.pem"), ("client-key.pem", "client-chain.pem")] {
            let keyModulus = try Tool.run("openssl", ["rsa", "-in", file(key), "-noout", "-modulus"])
            let certModulus = try Tool.run("openssl", ["x509", "-in", file(chain), "-noout", "-modulus"])
            #expect(keyModulus.output.hasPrefix("Modulus=") && keyModulus.output == certModulus.output, "\(key) belongs to the leaf")
        }
    }

    @Test func badPKIDirectoryWritesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notADirectory = dir.appendingPathComponent("file")
        try Data("x".utf8).write(to: notADirectory)
        let pcap = dir.appendingPathComponent("x.pcap").path
        let result = try CLI.run(["export", "rsa", "--pcap", pcap, "--pki", notADirectory.path])
        #expect(result.status == 2 && result.stderr.contains(notADirectory.path), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pcap), "nothing is written when an argument is bad")
        let plain = try CLI.run(["export", "http-plain", "--pcap", pcap, "--pki", dir.appendingPathComponent("pki").path])
        #expect(plain.status == 2 && !FileManager.default.fileExists(atPath: pcap))
    }

    @Test func badInput() throws {
        #expect(try CLI.run(["export", "nope", "--pcap", "/dev/null"]).status == 2)
        let unwritable = try CLI.run(["export", "rsa", "--pcap", "/nonexistent-dir/x.pcap"])
        #expect(unwritable.status == 2 && unwritable.stderr.contains("/nonexistent-dir/x.pcap"))
        #expect(try CLI.run(["export", "rsa"]).status == 2, "--pcap is required")
    }
}

/// The walkthrough driven through tmux at 80×24: keys in, screen text out, the terminal restored.
@Suite("tlslab walkthrough in a terminal", .serialized)
struct WalkthroughTerminalTests {
    static let enabled = Tool.path("tmux") != nil

    struct Session {
        let socket = "tlslab-test-\(UUID().uuidString.prefix(8))"
        let name = "walk"
        var columns = 80
        var rows = 24
        /// tmux -u: the pane is UTF-8 whatever the test machine's locale (the Chinese screens).
        var utf8 = false

        func tmux(_ args: [String]) throws -> String { try Tool.run("tmux", ["-L", socket] + args).output }

        /// Starts the tmux server. Tests run in parallel, so this process may hold the write ends of
        /// other tests' pipes; a plain spawn would hand them to the long-lived tmux server, and those
        /// tests would wait forever for end-of-file. bash closes every descriptor above 2 first.
        func start(_ command: String) throws {
            let closeInherited = "for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done; "
            _ = try Tool.run("bash", ["-c", closeInherited + "exec tmux \"$@\"", "tmux"] + (utf8 ? ["-u"] : []) +
                                     ["-L", socket, "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command])
        }

        func keys(_ keys: String...) throws { _ = try tmux(["send-keys", "-t", name] + keys) }

        func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", name]) }

        /// Polls the screen until `predicate` holds (the program paints asynchronously).
        func wait(for what: String, timeout: Double = 20, interval: Double = 0.1, _ predicate: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            var last = ""
            while Date() < deadline {
                last = try screen()
                if predicate(last) { return last }
                Thread.sleep(forTimeInterval: interval)
            }
            Issue.record("timed out waiting for \(what); screen:\n\(last)")
            return last
        }

        func kill() { _ = try? tmux(["kill-server"]) }
    }

    /// `sh -c` wrapper: run the walkthrough, then record how the terminal was left and the exit status.
    /// Ctrl-C signals the whole foreground group; the trap keeps the wrapper alive to write the report
    /// (a caught signal is reset to the default in the child, so tlslab still gets a real SIGINT).
    static func command(_ binary: String, _ args: String, report: String) -> String {
        "sh -c 'trap true INT; \(binary) \(args); echo \"exit=$?\" > \(report); stty -a >> \(report); echo done >> \(report); sleep 30'"
    }

    static func report(_ path: String) throws -> String {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("done") { return text }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("the walkthrough did not exit")
        return ""
    }

    /// d scrolls the current step's detail at 80×24 (here the ClientHello's annotated bytes).
    @Test(.enabled(if: enabled, "tmux is not installed (CI installs it)"))
    func dScrollsTheCurrentStep() throws {
        let binary = try #require(CLI.binary).path
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report").path
        let session = Session()
        defer { session.kill() }
        try session.start(Self.command(binary, "walkthrough rsa", report: report))
        _ = try session.wait(for: "step 1") { $0.contains("step 1/") }
        // Forward to the ClientHello, then show its bytes.
        for _ in 0..<40 {
            if try session.screen().contains("▶") && session.screen().split(separator: "\n").contains(where: { $0.hasPrefix("▶") && $0.contains("TLS ClientHello") }) { break }
            try session.keys("n")
            Thread.sleep(forTimeInterval: 0.05)
        }
        // x stacks the bytes under the explanation and moves the window to them.
        try session.keys("x")
        let bytes = try session.wait(for: "the bytes, in a scrollable pane") { $0.contains("── lines ") }
        #expect(bytes.contains("d/u scroll"))
        #expect(bytes.contains("client_version"), "the ClientHello's fields are in view: \(bytes)")
        let first = try #require(bytes.firstMatch(of: /── lines (\d+)–(\d+)/))
        #expect(Int(first.output.1)! > 1, "the window moved past the explanation to the bytes")
        // u goes back up, half a window at a time, to the explanation's first line.
        var top = bytes
        for _ in 0..<20 where !top.contains("── lines 1–") {
            try session.keys("u")
            Thread.sleep(forTimeInterval: 0.1)
            top = try session.screen()
        }
        let window = try #require(top.firstMatch(of: /── lines 1–(\d+)/))
        let visible = Int(window.output.1)!
        // d moves half a window down.
        try session.keys("d")
        let down = try session.wait(for: "scrolled by half a window") { $0.contains("── lines \(1 + visible / 2)–") }
        #expect(down != top)
        try session.keys("q")
        let text = try Self.report(report)
        #expect(text.contains("exit=0"))
    }

    /// `x` then `k` on a 120×50 terminal: the bytes and the knowledge table are on the screen together,
    /// stacked under the explanation, and the footer says both are on.
    @Test(.enabled(if: enabled, "tmux is not installed (CI installs it)"))
    func bytesAndKnowledgeShowTogether() throws {
        let binary = try #require(CLI.binary).path
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report").path
        var session = Session()
        session.columns = 120
        session.rows = 50
        defer { session.kill() }
        try session.start(Self.command(binary, "walkthrough rsa", report: report))
        _ = try session.wait(for: "step 1") { $0.contains("step 1/") }
        for _ in 0..<40 {
            if try session.screen().split(separator: "\n").contains(where: { $0.hasPrefix("▶") && $0.contains("TLS ClientKeyExchange") }) { break }
            try session.keys("n")
            Thread.sleep(forTimeInterval: 0.05)
        }
        try session.keys("x")
        _ = try session.wait(for: "the bytes") { $0.contains("encrypted_pre_master_secret") }
        try session.keys("k")
        let both = try session.wait(for: "the knowledge table under the bytes") { $0.contains("Who knows what so far") }
        #expect(both.contains("encrypted_pre_master_secret"), "the bytes stay in view above the table: \(both)")
        #expect(both.contains("knowledge on") && both.contains("bytes on"), "\(both)")
        try session.keys("q")
        #expect(try Self.report(report).contains("exit=0"))
    }

    @Test(.enabled(if: enabled, "tmux is not installed (CI installs it)"))
    func keysStepTheRunAndQRestoresTheTerminal() throws {
        let binary = try #require(CLI.binary).path
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report").path
        let session = Session()
        defer { session.kill() }
        try session.start(Self.command(binary, "walkthrough rsa", report: report))
        let first = try session.wait(for: "step 1") { $0.contains("step 1/") }
        #expect(first.contains("TCP three-way handshake"))
        #expect(first.split(separator: "\n").allSatisfy { $0.count <= 80 })
        try session.keys("n")
        try session.keys("Space")
        try session.keys("Enter")
        _ = try session.wait(for: "step 4") { $0.contains("step 4/") }
        try session.keys("b")
        _ = try session.wait(for: "step 3") { $0.contains("step 3/") }
        try session.keys("g", "1", "5", "Enter")
        _ = try session.wait(for: "step 15") { $0.contains("step 15/") }
        try session.keys("k")
        let knowledge = try session.wait(for: "knowledge panel") { $0.contains("Who knows what") }
        #expect(knowledge.contains("eavesdropper"))
        try session.keys("k", "x")
        _ = try session.wait(for: "bytes on") { $0.contains("x bytes on") }
        try session.keys(">")
        let last = try session.wait(for: "the outcome") { $0.contains("▶── Outcome") && $0.contains("Success: TLS 1.2") }
        #expect(last.contains("TLS_RSA_WITH_AES_128_GCM_SHA256"))
        try session.keys("q")
        let text = try Self.report(report)
        #expect(text.contains("exit=0"), "\(text)")
        #expect(text.contains(" icanon") && text.contains(" echo"), "canonical mode and echo are back: \(text)")
        #expect(!text.contains("-icanon") && !text.contains("-echo "), "\(text)")
    }

    @Test(.enabled(if: enabled, "tmux is not installed (CI installs it)"))
    func ctrlCRestoresTheTerminal() throws {
        let binary = try #require(CLI.binary).path
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report").path
        let session = Session()
        defer { session.kill() }
        // No arguments on a terminal: the default walkthrough is interactive.
        try session.start(Self.command(binary, "", report: report))
        _ = try session.wait(for: "step 1") { $0.contains("step 1/") && $0.contains("· rsa ·") }
        try session.keys("n", "n")
        _ = try session.wait(for: "step 3") { $0.contains("step 3/") }
        try session.keys("C-c")
        let text = try Self.report(report)
        #expect(text.contains("exit=130"), "SIGINT ends it with 128 + 2: \(text)")
        #expect(text.contains(" icanon") && !text.contains("-icanon") && !text.contains("-echo "), "\(text)")
    }

    /// Colour on a terminal, none with NO_COLOR or when redirected (the pty comes from tmux).
    @Test(.enabled(if: enabled, "tmux is not installed (CI installs it)"))
    func colourFollowsTheTerminalAndNoColor() throws {
        let binary = try #require(CLI.binary).path
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session()
        defer { session.kill() }
        let colored = dir.appendingPathComponent("colored").path, plain = dir.appendingPathComponent("plain").path
        // `script` gives the run a terminal of its own and logs what it wrote, escapes included.
        try session.start("sh -c 'unset NO_COLOR; script -qec \"\(binary) run untrusted\" \(colored) >/dev/null; NO_COLOR=1 script -qec \"\(binary) run untrusted\" \(plain) >/dev/null; echo done > \(dir.path)/done; sleep 30'")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !FileManager.default.fileExists(atPath: dir.appendingPathComponent("done").path) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let c = try String(contentsOfFile: colored, encoding: .utf8), p = try String(contentsOfFile: plain, encoding: .utf8)
        #expect(c.contains("\u{1B}[31m"), "alerts in red on a terminal")
        #expect(p.contains("unknown_ca") && !p.contains("\u{1B}[3"), "NO_COLOR: no colour codes")
    }
}

@Suite("tlslab: help and shell completions")
struct HelpAndCompletionTests {
    @Test(arguments: ["run", "walkthrough", "export", "list", "check", "dissect", "pin", "bench"])
    func everySubcommandHasHelp(command: String) throws {
        let result = try CLI.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE:"), "\(command): \(result.stdout)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) throws {
        let result = try CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        #expect(result.stdout.contains("walkthrough") && result.stdout.contains("export"))
    }

    @Test func walkthroughWithoutATerminalPrintsTheWholeTrace() throws {
        let result = try CLI.run(["walkthrough", "dhe"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("TLS ServerKeyExchange") && result.stdout.contains("Who knows what"))
        #expect(try CLI.run(["walkthrough", "nope"]).status == 2)
    }
}
