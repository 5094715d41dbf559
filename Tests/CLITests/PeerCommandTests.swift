import Foundation
import HTTP2
import RealPeer
import Rendering
import TestSupport
import Testing
import Trace
import Trust
#if canImport(Glibc)
import Glibc
#endif

/// `tlslab serve` and `tlslab connect` as a user runs them, against each other on loopback, with the
/// engine fixture PKI (a CA and a leaf for localhost). Every process gets a time limit.
@Suite("CLI: tlslab serve and tlslab connect", .serialized)
struct PeerCommandTests {
    static let pki = Fixtures.directory.appendingPathComponent("engine")
    static func file(_ name: String) -> String { pki.appendingPathComponent(name).path }

    /// A running `tlslab serve`, its standard error collected in a file; killed on release.
    final class Server {
        private let background: ExternalTool.Background
        var process: Process { background.process }
        let port: UInt16

        init(_ extra: [String]) throws {
            let binary = try #require(CLI.binary)
            background = try ExternalTool.Background(binary.path, ["serve", "--port", "0", "--cert", PeerCommandTests.file("server.cert.pem"),
                                                                   "--key", PeerCommandTests.file("server.key.pem"), "--log-only",
                                                                   "--timeout", "3"] + extra)
            // The first line names the port; wait for it at most 10 s.
            _ = background.waitForOutput(containing: "\n", timeout: 10)
            let text = background.stdoutText
            guard text.hasPrefix("listening on "),
                  let port = text.split(separator: "\n").first?.split(separator: ":").last.flatMap({ UInt16($0) }) else {
                background.stop(grace: 0)
                throw PeerTestFailure("serve did not start: '\(text)'")
            }
            self.port = port
        }

        deinit { _ = reap(seconds: 0) }

        var log: String { background.stderrText }

        /// Waits at most `seconds` for the server to end by itself, then kills it; true when it ended by itself.
        @discardableResult
        func reap(seconds: Double = 5) -> Bool {
            let ended = background.waitForExit(seconds: seconds)
            background.stop(grace: 0)
            return ended
        }
    }

    /// `tlslab ARGS` with a time limit (killed after `seconds`).
    static func tlslab(_ arguments: [String], seconds: Double = 20, environment: [String: String] = [:]) throws -> CLI.Result {
        let binary = try #require(CLI.binary)
        let result = try ExternalTool.run(binary.path, arguments,
                                          environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"].merging(environment) { $1 }) { $1 },
                                          timeout: seconds, grace: 0)
        return CLI.Result(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
    }

    static func connect(_ port: UInt16, _ extra: [String], environment: [String: String] = [:]) throws -> CLI.Result {
        try tlslab(["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--timeout", "5"] + extra, environment: environment)
    }

    /// The HTTP response's heading is drawn as the trace's own section headings are: the shared rule,
    /// 65 columns or the width if narrower (the text renderer's width is at least 60), measured in
    /// display columns (a Chinese character takes two), in English and Chinese.
    @Test("connect: the HTTP response heading follows the width like the trace's headings, in en and zh")
    func responseHeadingFollowsTheWidth() throws {
        let server = try Server(["--max-connections", "4"])
        for (columns, language) in [("50", "en"), ("62", "en"), ("120", "en"), ("62", "zh")] {
            let r = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem")], environment: ["COLUMNS": columns, "TLSLAB_LANG": language])
            #expect(r.status == 0, "\(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            let title = language == "zh" ? "── HTTP 响应 " : "── HTTP response "
            let heading = try #require(lines.first { $0.hasPrefix(title) }, "\(r.stdout.suffix(600))")
            let width = min(65, max(60, Int(columns)!))
            #expect(DisplayWidth.columns(heading) == width && heading.hasSuffix("───"), "\(columns) \(language): \(DisplayWidth.columns(heading)): \(heading)")
            // As wide as every other section heading of the same output.
            for other in lines where other.hasPrefix("── ") && other.reversed().prefix(while: { $0 == "─" }).count > 3 {
                #expect(DisplayWidth.columns(other) == width, "\(columns) \(language): \(other)")
            }
        }
        #expect(server.reap())
    }

    @Test("connect ↔ serve: JSON trace with socket-level and TLS events, key log written, trust failure exits 1 with one line")
    func connectServe() throws {
        let server = try Server(["--max-connections", "2"])
        let keylog = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-keylog-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: keylog) }
        let ok = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--format", "json", "--keylog", keylog.path])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("socket-level (what the kernel lets us see)"))
        // JSON Lines, not text (the root command's own --format once took the value).
        #expect(!ok.stdout.isEmpty && ok.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"") }, "\(ok.stdout.prefix(300))")
        #expect(ok.stdout.contains("TLSLab serve: this connection"), "the page is in the JSON trace's HTTP event")
        let log = (try? String(contentsOf: keylog, encoding: .utf8)) ?? ""
        // Both ends speak TLS 1.3 by default: the key log has its labelled secrets (RFC 8446 §7.1), each
        // keyed by the one client_random; no CLIENT_RANDOM line (that is TLS 1.2's master secret).
        let lines = log.split(separator: "\n").filter { !$0.hasPrefix("#") }
        let labels = Set(lines.compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(labels.isSuperset(of: ["CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET",
                                       "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0", "EXPORTER_SECRET"]) && !labels.contains("CLIENT_RANDOM"), "\(log)")
        #expect(lines.allSatisfy { $0.split(separator: " ").count == 3 } && Set(lines.map { $0.split(separator: " ")[1] }).count == 1, "\(log)")

        let refused = try Self.connect(server.port, ["--format", "json"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("tlslab: connect 127.0.0.1:\(server.port): refused: unknown_ca"), "\(refused.stderr)")
        #expect(refused.stderr.contains("ServerTrust challenge answered by system default handling"), "the simulation's policy reasons: \(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)

        #expect(server.reap(), "serve stops by itself after --max-connections")
        #expect(server.process.terminationStatus == 0)
        #expect(server.log.contains("→ 200"), "\(server.log)")
        #expect(server.log.contains("the client sent a fatal alert: unknown_ca"), "\(server.log)")
    }

    /// With h2 chosen both ends speak HTTP/2; serve's last frames (GOAWAY) and its close_notify often
    /// arrive in one read, which must not count as a failure.
    @Test("connect --alpn h2 ↔ serve --alpn h2,http/1.1: every exchange is HTTP/2 and succeeds, exit 0")
    func alpnH2AgainstServe() throws {
        let server = try Server(["--max-connections", "8", "--alpn", "h2,http/1.1"])
        for _ in 0 ..< 8 {
            let r = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--alpn", "h2"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("ALPN chose: h2") || r.stdout.contains("protocol \"h2\""), "\(r.stdout.suffix(800))")
            #expect(r.stdout.contains("application protocol (ALPN): h2"), "the page, over HTTP/2: \(r.stdout.suffix(800))")
        }
        #expect(server.reap())
        #expect(server.log.components(separatedBy: "HTTP/2\" → 200").count == 9, "\(server.log)")
    }

    @Test("connect --policy: AFSecurityPolicy pinning and ATS, as in simulations")
    func policies() throws {
        let server = try Server(["--max-connections", "6", "--concurrent", "2"])
        // The bundled-anchor delegate with the CA bundled (and no --ca): accepted; with another certificate bundled: cancelled.
        let bundled = try Self.connect(server.port, ["--policy", "bundled-anchor", "--bundle", Self.file("ca.cert.pem"), "--request", ""])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        let otherBundle = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--policy", "bundled-anchor",
                                                        "--bundle", Self.file("client.cert.pem")])
        #expect(otherBundle.status == 1)
        #expect(otherBundle.stderr.contains("refused: unknown_ca") && otherBundle.stderr.contains("cancelAuthenticationChallenge"), "\(otherBundle.stderr)")
        // SecTrustSetAnchorCertificatesOnly(NO): the --ca anchor counts beside the bundled certificate.
        let kept = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--policy", "bundled-anchor",
                                                 "--bundle", Self.file("client.cert.pem"), "--keep-system-anchors", "--request", ""])
        #expect(kept.status == 0, "\(kept.stderr)")
        let noBundle = try Self.connect(server.port, ["--policy", "bundled-anchor"])
        #expect(noBundle.status == 2 && noBundle.stderr.contains("needs at least one --bundle"), "\(noBundle.stderr)")
        // Certificate pinning of the CA: accepted.
        let pinned = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--policy", "af-certificate",
                                                   "--pin", Self.file("ca.cert.pem"), "--request", ""])
        #expect(pinned.status == 0, "\(pinned.stderr)")
        // Public-key pinning of a certificate whose key is not in the chain: refused.
        let mismatch = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--policy", "af-public-key",
                                                     "--pin", Self.file("client.cert.pem")])
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("refused: bad_certificate") && mismatch.stderr.contains("step 6"), "\(mismatch.stderr)")
        // ATS: an RSA-key-transport-only offer is refused before any connection is made.
        let ats = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--ats", "--suite", "AES128-GCM-SHA256"])
        #expect(ats.status == 1)
        #expect(ats.stderr.contains("refused before connecting: ATS requires forward-secret suites"), "\(ats.stderr)")
        #expect(ats.stderr.split(separator: "\n").count == 1)
        // ATS with a forward-secret suite: accepted.
        let atsOK = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--ats", "--request", ""])
        #expect(atsOK.status == 0, "\(atsOK.stderr)")
        // Flags that do not fit the policy are bad input.
        let bad = try Self.connect(server.port, ["--policy", "af-certificate"])
        #expect(bad.status == 2, "\(bad.status) \(bad.stderr)")
        #expect(bad.stderr.contains("needs at least one --pin"), "\(bad.stderr)")
        #expect(server.reap(), "six connections were made: \(server.log)")
    }

    @Test("connect: a server's alert, an early close and a non-TLS answer each give one line and exit 1")
    func serverFailures() throws {
        // The server requires a client certificate: in TLS 1.3 (the default) certificate_required
        // (RFC 8446 §4.4.2.4); in TLS 1.2 handshake_failure (RFC 5246 §7.4.6).
        let server = try Server(["--max-connections", "2", "--client-auth", "require", "--client-ca", Self.file("ca.cert.pem")])
        let alert = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem")])
        #expect(alert.status == 1)
        #expect(alert.stderr == "tlslab: connect 127.0.0.1:\(server.port): the server sent a fatal alert: certificate_required\n", "\(alert.stderr)")
        let alert12 = try Self.connect(server.port, ["--ca", Self.file("ca.cert.pem"), "--tls", "1.2"])
        #expect(alert12.status == 1)
        #expect(alert12.stderr == "tlslab: connect 127.0.0.1:\(server.port): the server sent a fatal alert: handshake_failure\n", "\(alert12.stderr)")
        #expect(server.reap())

        // A listener that closes at once, one that answers in plain HTTP, and one that answers the
        // ClientHello with a well-formed ServerHelloDone record (a message out of order).
        let cases: [([UInt8]?, String)] = [
            (nil, "the server closed the connection during the handshake"),
            (Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8), "refused: unexpected_message"),
            ([22, 3, 3, 0, 4, 14, 0, 0, 0], "refused: unexpected_message"),
        ]
        for (answer, expected) in cases {
            let listener = try TCPListener(port: 0)
            let thread = Thread {
                guard let s = try? listener.accept(timeoutMilliseconds: 5_000) else { return }
                _ = try? s.read(timeoutMilliseconds: 2_000)
                if let answer { try? s.write(answer); _ = try? s.read(timeoutMilliseconds: 2_000) }
                s.close()
            }
            thread.start()
            let r = try Self.connect(listener.port, ["--policy", "none"])
            #expect(r.status == 1)
            #expect(r.stderr.hasPrefix("tlslab: connect 127.0.0.1:\(listener.port): \(expected)"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
    }

    @Test("connect/serve --help: no --seed offered (it is refused), the phase deadlines are")
    func helpAndSeed() throws {
        for (command, deadlines) in [("connect", ["--handshake-timeout"]), ("serve", ["--handshake-timeout", "--request-timeout"])] {
            let help = try Self.tlslab([command, "--help"])
            #expect(help.status == 0, "\(help.stderr)")
            #expect(help.stdout.contains("--format") && help.stdout.contains("--verbosity"), "\(help.stdout)")
            #expect(!help.stdout.contains("--seed"), "\(command) --help offers --seed: \(help.stdout)")
            for option in deadlines { #expect(help.stdout.contains(option), "\(command) --help lacks \(option)") }
        }
        let connect = try Self.tlslab(["connect", "127.0.0.1:1", "--seed", "5"])
        #expect(connect.status == 2 && connect.stderr.contains("--seed does not apply"), "\(connect.stderr)")
        let serve = try Self.tlslab(["serve", "--port", "0", "--cert", Self.file("server.cert.pem"),
                                     "--key", Self.file("server.key.pem"), "--seed", "5"])
        #expect(serve.status == 2 && serve.stderr.contains("--seed does not apply"), "\(serve.stderr)")
        let badDeadline = try Self.tlslab(["serve", "--port", "0", "--cert", Self.file("server.cert.pem"),
                                           "--key", Self.file("server.key.pem"), "--handshake-timeout", "0"])
        #expect(badDeadline.status == 2, "\(badDeadline.stderr)")
    }

    @Test("serve stops cleanly on SIGTERM; connect to a closed port fails with one line")
    func stops() throws {
        let server = try Server([])
        usleep(100_000)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.reap(), "serve ends on SIGTERM")
        #expect(server.process.terminationStatus == 0)
        #expect(server.log.contains("stopped"))
        let closed = try Self.tlslab(["connect", "127.0.0.1:\(server.port)", "--policy", "none", "--timeout", "2"])
        #expect(closed.status == 1)
        #expect(closed.stderr.contains("cannot connect"), "\(closed.stderr)")
    }
}
