import Foundation
import HTTP2
import RealPeer
import Rendering
import Simulation
import Testing
import TestSupport
import Trace
import Trust
#if canImport(Glibc)
import Glibc
#endif

/// Locates the tools the interop tests drive. Without one, a test is skipped with the reason on a
/// developer's machine, and fails under CI (TestSupport's ``CrossCheckRequirement``), where `.ci/run`
/// installs every one of them.
enum Tools {
    static func find(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let openssl = find("openssl")
    static let curl = find("curl")
    static let tshark = find("tshark")
    static let tcpdump = find("tcpdump")
    /// nghttp2's HTTP/2 server (Debian's nghttp2-server installs it in /usr/sbin).
    static let nghttpd = find("nghttpd") ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nghttpd") ? "/usr/sbin/nghttpd" : nil)
    // Suites that need OpenSSL take `CrossCheckRequirement.trait(Tools.openssl != nil, …)`: skipped with
    // the reason locally, failed under CI. A failure to build the test PKI is not a reason to skip:
    // ``TestPKI/require()`` reports it.
    static var heavy: Bool { ProcessInfo.processInfo.environment["TLSLAB_HEAVY"] == "1" }

    /// The `tlslab` executable SwiftPM built next to the test bundle.
    static var tlslab: String? {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tlslab"),
            Bundle.main.bundleURL.appendingPathComponent("tlslab"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tlslab"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
    }

    /// `path`, or (when nil) a skip with `reason` — a failure under CI.
    static func need(_ path: String?, _ reason: String) throws -> String {
        if let path { return path }
        try unavailable(reason)
    }

    /// Ends the running test: skipped with `reason` locally, failed under CI.
    static func unavailable(_ reason: String) throws -> Never {
        if CrossCheckRequirement.isCI { throw PeerTestFailure("required under CI, but: \(reason)") }
        try Test.cancel(Comment(rawValue: "skipped: \(reason)"))
    }
}

/// A child process that is always ended: `stop()` in a `defer`, and again on release (TestSupport's
/// ``ExternalTool/Background``, its output and error in one file).
final class Child {
    private let background: ExternalTool.Background
    var process: Process { background.process }

    init(_ executable: String, _ arguments: [String], in dir: URL, environment: [String: String]? = nil) throws {
        background = try ExternalTool.Background(executable, arguments,
                                                  environment: environment.map { ProcessInfo.processInfo.environment.merging($0) { $1 } },
                                                  currentDirectory: dir.path, mergingErrorIntoOutput: true)
    }

    deinit { stop() }

    var output: String { background.stdoutText }

    /// Writes `text` to the child's standard input (kept open until `stop()`).
    func send(_ text: String) { background.send(text) }

    /// Waits until the log contains `text` (true) or the process ends or time runs out (false).
    func wait(for text: String, seconds: Double = 5) -> Bool { background.waitForOutput(containing: text, timeout: seconds) }

    /// SIGTERM first; children of a test runner may inherit an ignored SIGTERM/SIGINT, so SIGKILL
    /// follows quickly (the processes here keep nothing worth flushing).
    func stop() { background.stop(grace: 0.3) }
}

/// Runs a program to its end (at most `timeout` seconds, then it is killed); stdout and stderr together.
@discardableResult
func runTool(_ executable: String, _ arguments: [String], in dir: URL, stdin: String? = nil,
             environment: [String: String]? = nil, timeout: Double = 20) throws -> (status: Int32, output: String) {
    let result = try ExternalTool.run(executable, arguments, stdin: Data((stdin ?? "").utf8),
                                      environment: environment.map { ProcessInfo.processInfo.environment.merging($0) { $1 } },
                                      currentDirectory: dir.path, mergingErrorIntoOutput: true, timeout: timeout, grace: 0)
    // Decoded leniently: a peer's binary bytes (HTTP/2 frames s_client prints) must not blank the text.
    return (result.status, result.stdoutText)
}

/// Writing to a child that has exited fails with EPIPE instead of killing this process (SIGPIPE).
let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// A port that was free a moment ago (bound to port 0, read back, released).
func freePort() -> UInt16? {
    (try? TCPListener(port: 0)).map(\.port)
}

/// The test PKI, made by OpenSSL in a temporary directory once per test run: an RSA-2048 root, a leaf
/// for localhost and 127.0.0.1, a client certificate (PKCS#1 key), a self-signed leaf and a leaf for
/// the wrong host (both with the leaf's key), and the ffdhe2048 parameters.
final class TestPKI: Sendable {
    let dir: URL

    /// Built once; nil without openssl, else the PKI or why OpenSSL could not make it.
    private static let built: Result<TestPKI, PeerTestFailure>? = {
        guard let openssl = Tools.openssl else { return nil }
        do { return .success(try TestPKI(openssl: openssl)) } catch {
            return .failure(PeerTestFailure("building the test PKI with openssl failed: \(error)"))
        }
    }()

    /// The PKI when it was built (for static test arguments; tests call ``require()``, which says why not).
    static var shared: TestPKI? { try? built?.get() }

    /// The PKI; a test without openssl is skipped (failed under CI); a PKI that could not be built
    /// fails the test with OpenSSL's error.
    static func require() throws -> TestPKI {
        guard let built else { try Tools.unavailable("openssl is not on the PATH") }
        return try built.get()
    }

    private init(openssl: String) throws {
        let temporary = FileManager.default.temporaryDirectory
        // Earlier runs' directories, whose processes are gone, are removed.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix("tlslab-realpeer-") {
            if let pid = Int32(name.dropFirst("tlslab-realpeer-".count)), pid != getpid(), kill(pid, 0) != 0 {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
        dir = temporary.appendingPathComponent("tlslab-realpeer-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let files: [(String, String)] = [
            ("root.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n"),
            ("leaf.ext", "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n"),
            ("wrong.ext", "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:wrong.example\n"),
            ("ecleaf.ext", "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n"),
            ("client.ext", "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n"),
            ("noems.cnf", "openssl_conf = openssl_init\n[openssl_init]\nssl_conf = ssl_sect\n[ssl_sect]\nsystem_default = system_default_sect\n[system_default_sect]\nOptions = -ExtendedMasterSecret\n"),
        ]
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "root.key", "-out", "root.pem", "-days", "3",
             "-subj", "/CN=TLSLab Test Root", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", "leaf.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "2", "-days", "3",
             "-extfile", "leaf.ext", "-out", "leaf.pem"],
            ["req", "-new", "-key", "leaf.key", "-out", "wrong.csr", "-subj", "/CN=wrong.example"],
            ["x509", "-req", "-in", "wrong.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "3", "-days", "3",
             "-extfile", "wrong.ext", "-out", "wrong.pem"],
            ["req", "-x509", "-key", "leaf.key", "-out", "selfsigned.pem", "-days", "3", "-subj", "/CN=localhost",
             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:FALSE"],
            // `openssl req -x509` with its defaults: the configuration's v3_ca section, so CA:TRUE.
            ["req", "-x509", "-key", "leaf.key", "-out", "selfsigned-ca.pem", "-days", "3", "-subj", "/CN=localhost",
             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "client8.key", "-out", "client.csr", "-subj", "/CN=TLSLab Test Client"],
            ["rsa", "-in", "client8.key", "-traditional", "-out", "client.key"],
            ["x509", "-req", "-in", "client.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "4", "-days", "3",
             "-extfile", "client.ext", "-out", "client.pem"],
            ["genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048", "-out", "ffdhe2048.pem"],
            // The same group as PKCS#3 DER, where OpenSSL writes the prime out (its text output names only the group).
            ["dhparam", "-in", "ffdhe2048.pem", "-outform", "DER", "-out", "ffdhe2048.der"],
            // ECDSA: a P-384 root, a P-256 leaf with a SEC 1 key and a P-384 leaf with a PKCS#8 key, both
            // signed ecdsa-with-SHA384 by the root.
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384", "-nodes", "-keyout", "ecroot.key",
             "-out", "ecroot.pem", "-days", "3", "-sha384", "-subj", "/CN=TLSLab Test EC Root",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ec256.key"],
            ["req", "-new", "-key", "ec256.key", "-out", "ec256.csr", "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", "ec256.csr", "-CA", "ecroot.pem", "-CAkey", "ecroot.key", "-set_serial", "5", "-days", "3",
             "-sha384", "-extfile", "ecleaf.ext", "-out", "ec256.pem"],
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "ec384.key"],
            ["req", "-new", "-key", "ec384.key", "-out", "ec384.csr", "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", "ec384.csr", "-CA", "ecroot.pem", "-CAkey", "ecroot.key", "-set_serial", "6", "-days", "3",
             "-sha384", "-extfile", "ecleaf.ext", "-out", "ec384.pem"],
            // An EC P-256 client certificate (SEC 1 key) issued by the RSA test root, for mutual TLS with ECDSA.
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ecclient.key"],
            ["req", "-new", "-key", "ecclient.key", "-out", "ecclient.csr", "-subj", "/CN=TLSLab Test EC Client"],
            ["x509", "-req", "-in", "ecclient.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "7", "-days", "3",
             "-extfile", "client.ext", "-out", "ecclient.pem"],
            // P-521 (issue #39): a leaf (PKCS#8 key) under the EC root, and a client certificate (SEC 1 key)
            // under the RSA root.
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-521", "-out", "ec521.key"],
            ["req", "-new", "-key", "ec521.key", "-out", "ec521.csr", "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", "ec521.csr", "-CA", "ecroot.pem", "-CAkey", "ecroot.key", "-set_serial", "8", "-days", "3",
             "-sha384", "-extfile", "ecleaf.ext", "-out", "ec521.pem"],
            ["ecparam", "-name", "secp521r1", "-genkey", "-noout", "-out", "ecclient521.key"],
            ["req", "-new", "-key", "ecclient521.key", "-out", "ecclient521.csr", "-subj", "/CN=TLSLab Test P-521 Client"],
            ["x509", "-req", "-in", "ecclient521.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "9", "-days", "3",
             "-extfile", "client.ext", "-out", "ecclient521.pem"],
            // Ed25519 (RFC 8410, RFC 8422 §5.1.3): a leaf under the EC root and a client certificate under the RSA root.
            ["genpkey", "-algorithm", "ed25519", "-out", "ed25519.key"],
            ["req", "-new", "-key", "ed25519.key", "-out", "ed25519.csr", "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", "ed25519.csr", "-CA", "ecroot.pem", "-CAkey", "ecroot.key", "-set_serial", "10", "-days", "3",
             "-sha384", "-extfile", "ecleaf.ext", "-out", "ed25519.pem"],
            ["genpkey", "-algorithm", "ed25519", "-out", "edclient.key"],
            ["req", "-new", "-key", "edclient.key", "-out", "edclient.csr", "-subj", "/CN=TLSLab Test Ed25519 Client"],
            ["x509", "-req", "-in", "edclient.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "11", "-days", "3",
             "-extfile", "client.ext", "-out", "edclient.pem"],
        ]
        for step in steps {
            let r = try runTool(openssl, step, in: dir, timeout: 60)
            guard r.status == 0 else { throw PeerTestFailure("openssl \(step.joined(separator: " ")): \(r.output)") }
        }
        // The chain file a server presents: leaf then root.
        let chain = try String(contentsOf: dir.appendingPathComponent("leaf.pem"), encoding: .utf8)
            + String(contentsOf: dir.appendingPathComponent("root.pem"), encoding: .utf8)
        try chain.write(to: dir.appendingPathComponent("chain.pem"), atomically: true, encoding: .utf8)
        let ecRoot = try String(contentsOf: dir.appendingPathComponent("ecroot.pem"), encoding: .utf8)
        for curve in ["256", "384", "521"] {
            let leaf = try String(contentsOf: dir.appendingPathComponent("ec\(curve).pem"), encoding: .utf8)
            try (leaf + ecRoot).write(to: dir.appendingPathComponent("ec\(curve)-chain.pem"), atomically: true, encoding: .utf8)
        }
        do {
            let leaf = try String(contentsOf: dir.appendingPathComponent("ed25519.pem"), encoding: .utf8)
            try (leaf + ecRoot).write(to: dir.appendingPathComponent("ed25519-chain.pem"), atomically: true, encoding: .utf8)
        }
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
}

/// `tlslab serve --log-only` as a child process on a port the kernel picks (read from its first line);
/// with `logOnly: false` it prints each connection's trace too (add `--format json` to read it).
func startServe(_ arguments: [String], pki: TestPKI, logOnly: Bool = true) throws -> (Child, UInt16) {
    let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
    let child = try Child(tlslab, ["serve", "--port", "0", "--cert", "chain.pem", "--key", "leaf.key"] + (logOnly ? ["--log-only"] : []) + arguments,
                          in: pki.dir, environment: ["NO_COLOR": "1"])
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline && child.process.isRunning {
        let text = child.output
        if let range = text.range(of: #"listening on [0-9.]+:[0-9]+\n"#, options: .regularExpression),
           let port = UInt16(text[range].dropLast().split(separator: ":").last ?? "") {
            return (child, port)
        }
        usleep(20_000)
    }
    child.stop()
    throw PeerTestFailure("tlslab serve did not start: \(child.output)")
}

/// VmRSS of process `pid` in kB (Linux /proc), nil elsewhere.
func residentKilobytes(pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
}

/// `openssl s_server` on a free port (retried when the port was taken meanwhile).
func startSServer(_ arguments: [String], pki: TestPKI, environment: [String: String]? = nil) throws -> (Child, UInt16) {
    guard let openssl = Tools.openssl else { throw PeerTestFailure("openssl missing") }
    var last = ""
    for _ in 0 ..< 5 {
        guard let port = freePort() else { continue }
        let child = try Child(openssl, ["s_server", "-accept", "\(port)", "-tls1_2", "-no_ticket"] + arguments,
                              in: pki.dir, environment: environment)
        if child.wait(for: "ACCEPT") { return (child, port) }
        last = child.output
        child.stop()
    }
    throw PeerTestFailure("s_server did not start: \(last)")
}

/// A ``RealServer`` on a thread; `stop()` ends it and waits.
final class ServerThread: @unchecked Sendable {
    let server: RealServer
    private let lock = NSLock()
    private var _connections: [ServedConnection] = []
    private var stopFlag = false
    private var finished = false

    /// `keepTraces: false` drops each connection's trace (a memory measurement must not count them).
    init(_ server: RealServer, maxConnections: Int? = nil, concurrency: Int = 1, keepTraces: Bool = true) {
        self.server = server
        let thread = Thread { [self] in
            _ = try? server.run(maxConnections: maxConnections, concurrency: concurrency, shouldStop: { self.lock.withLock { self.stopFlag } }) { c in
                var kept = c
                if !keepTraces { kept.trace = Trace(events: []) }
                self.lock.withLock { self._connections.append(kept) }
            }
            self.lock.withLock { self.finished = true }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    var port: UInt16 { server.port }
    var connections: [ServedConnection] { lock.withLock { _connections } }

    /// Waits until `count` connections were served (true) or `seconds` passed.
    func waitFor(_ count: Int, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if connections.count >= count { return true }
            usleep(10_000)
        }
        return false
    }

    func stop() {
        lock.withLock { stopFlag = true }
        let deadline = Date().addingTimeInterval(5)
        while !lock.withLock({ finished }) && Date() < deadline { usleep(10_000) }
    }
}

/// `tlslab connect --cert FILE --key FILE` against `openssl s_server -Verify 1 -verify_return_error -www`:
/// the connection succeeds only if s_server verifies our client certificate and its CertificateVerify.
/// Checks the page arrived, the CertificateVerify used `scheme`, and s_server named `subject`.
func connectWithClientCertificateAgainstSServer(certificate: String, key: String, scheme: String, subject: String) throws {
    let pki = try TestPKI.require()
    let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
    let (server, port) = try startSServer(["-cert", "leaf.pem", "-cert_chain", "root.pem", "-key", "leaf.key",
                                           "-Verify", "1", "-CAfile", "root.pem", "-verify_return_error", "-www"], pki: pki)
    defer { server.stop() }
    let ok = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--timeout", "5",
                                  "--cert", certificate, "--key", key], in: pki.dir, environment: ["NO_COLOR": "1"])
    #expect(ok.status == 0, "\(ok.output.suffix(1500))")
    #expect(ok.output.contains("HTTP/1.0 200 ok"), "s_server's page: \(ok.output.suffix(1500))")
    #expect(ok.output.contains(scheme), "the CertificateVerify scheme: \(ok.output.suffix(3000))")
    #expect(server.wait(for: "CN = \(subject)", seconds: 3), "s_server verified our client certificate: \(server.output)")
}

/// The page `serve` answers with, in English (what `tlslab serve --lang en` serves).
let englishPage: @Sendable (ServeLogEntry) -> String = { Explanations.english.servePage($0) }
