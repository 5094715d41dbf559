import Foundation
import HTTP2
import RealPeer
import Rendering
import TLSEngine
import Testing
import Trace
import Trust
import TestSupport

/// The key log we write lets tshark decrypt a real loopback capture of the session, in both roles.
@Suite("RealPeer: key log decrypts a loopback capture", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct KeyLogCaptureTests {
    enum CaptureTool: String, CaseIterable, Sendable { case tshark, tcpdump }

    /// Captures `port` on the loopback interface while `session` runs and returns the capture file.
    /// Tries `tools` in order (tshark, then tcpdump when tshark may not capture here); when none can
    /// capture, the test is skipped with the reasons (failed under CI).
    static func capture(port: UInt16, pki: TestPKI, using tools: [CaptureTool] = CaptureTool.allCases,
                        _ session: () throws -> Void) throws -> URL {
        var reasons: [String] = []
        for tool in tools {
            switch tool {
            case .tshark:
                guard let tshark = Tools.tshark else { reasons.append("tshark is not on the PATH"); continue }
                let file = pki.dir.appendingPathComponent("cap-\(port)-tshark.pcapng")
                // The capture stops by itself (-a duration), so that no signal can cut the file short.
                let capturing = try Child(tshark, ["-i", "lo", "-a", "duration:2", "-w", file.path, "-f", "tcp port \(port)"], in: pki.dir)
                defer { capturing.stop() }
                guard capturing.wait(for: "Capture started", seconds: 10) || capturing.wait(for: "Capturing on", seconds: 1) else {
                    reasons.append("tshark cannot capture on lo: \(capturing.output.prefix(300))")
                    continue
                }
                usleep(300_000)
                try session()
                let ended = Date().addingTimeInterval(8)
                while capturing.process.isRunning && Date() < ended { usleep(50_000) }
                capturing.stop()
                return file
            case .tcpdump:
                guard let tcpdump = Tools.tcpdump else { reasons.append("tcpdump is not on the PATH"); continue }
                let file = pki.dir.appendingPathComponent("cap-\(port)-tcpdump.pcap")
                // -U writes each packet as it comes, so stopping tcpdump by a signal loses nothing.
                let capturing = try Child(tcpdump, ["-i", "lo", "-U", "-n", "-w", file.path, "tcp port \(port)"], in: pki.dir)
                defer { capturing.stop() }
                guard capturing.wait(for: "listening on", seconds: 10) else {
                    reasons.append("tcpdump cannot capture on lo: \(capturing.output.prefix(300))")
                    continue
                }
                usleep(200_000)
                try session()
                usleep(500_000)
                capturing.stop()
                return file
            }
        }
        try Tools.unavailable("no loopback capture possible: \(reasons.joined(separator: "; "))")
    }

    /// What tshark decrypts of `capture` with `keylog` (nil: without a key log): the HTTP request methods and response codes.
    static func decrypted(_ capture: URL, port: UInt16, keylog: URL?, pki: TestPKI) throws -> [String] {
        let tshark = try #require(Tools.tshark)
        let keys = keylog.map { ["-o", "tls.keylog_file:\($0.path)"] } ?? []
        // A body without Content-Length (s_server -www) ends only at the close: do not wait for it.
        let read = try runTool(tshark, ["-r", capture.path] + keys + ["-o", "http.desegment_body:FALSE", "-d", "tcp.port==\(port),tls", "-Y", "http",
                                                                      "-T", "fields", "-e", "http.request.method", "-e", "http.response.code"],
                               in: pki.dir)
        return read.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("Running as user") }  // tshark's warning when run as root
    }

    static func write(_ entry: KeyLogEntry, to url: URL) throws {
        try KeyLogWriter.text([KeyLogWriter.Session(clientRandom: entry.clientRandom, masterSecret: try #require(entry.masterSecret))])
            .write(to: url, atomically: true, encoding: .utf8)
    }

    @Test("client role: tshark decrypts our session with s_server using our key log", arguments: [
        CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_CBC_SHA])
    func clientRole(_ suite: CipherSuite) throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        var entry: KeyLogEntry?
        let capture = try Self.capture(port: port, pki: pki) {
            let result = try ClientRoleTests.client(port: port, pki: pki, suites: [suite]).run()
            #expect(result.failureText == nil, "\(result.failureText ?? "")")
            entry = result.keyLog
        }
        let keylog = pki.dir.appendingPathComponent("keylog-\(port).txt")
        try Self.write(try #require(entry), to: keylog)
        let seen = try Self.decrypted(capture, port: port, keylog: keylog, pki: pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")
        // Without the key log nothing decrypts: the test can fail.
        let blind = try Self.decrypted(capture, port: port, keylog: nil, pki: pki)
        #expect(blind.isEmpty, "\(blind)")
    }

    /// tshark's own capture when it may capture here, else tcpdump's; and tcpdump's explicitly, so the
    /// fallback is known to work.
    @Test("server role: tshark decrypts s_client's session with our server using our key log",
          arguments: [[CaptureTool.tshark, .tcpdump], [.tcpdump]])
    func serverRole(_ tools: [CaptureTool]) throws {
        let pki = try TestPKI.require()
        let thread = try ServerRoleTests.server(pki: pki, suites: [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256])
        defer { thread.stop() }
        let capture = try Self.capture(port: thread.port, pki: pki, using: tools) {
            let r = try ServerRoleTests.sClient(thread.port, pki: pki, [])
            #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
        }
        #expect(thread.waitFor(1))
        let entry = try #require(thread.connections.first?.keyLog)
        let keylog = pki.dir.appendingPathComponent("keylog-server-\(thread.port).txt")
        try Self.write(entry, to: keylog)
        let seen = try Self.decrypted(capture, port: thread.port, keylog: keylog, pki: pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")
        #expect(try Self.decrypted(capture, port: thread.port, keylog: nil, pki: pki).isEmpty)
    }

    @Test("tlslab serve --keylog: the file it writes lets tshark decrypt s_client's session")
    func serveCommandKeyLog() throws {
        let pki = try TestPKI.require()
        let keylog = pki.dir.appendingPathComponent("serve-keylog-\(UUID().uuidString).txt")
        let (serve, port) = try startServe(["--keylog", keylog.path, "--suite", "ECDHE-RSA-AES128-GCM-SHA256"], pki: pki)
        defer { serve.stop() }
        let capture = try Self.capture(port: port, pki: pki) {
            let r = try ServerRoleTests.sClient(port, pki: pki, [])
            #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
        }
        #expect(serve.wait(for: "→ 200"), "\(serve.output)")
        let text = try String(contentsOf: keylog, encoding: .utf8)
        #expect(text.hasPrefix("CLIENT_RANDOM "), "\(text)")
        let seen = try Self.decrypted(capture, port: port, keylog: keylog, pki: pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")
        #expect(try Self.decrypted(capture, port: port, keylog: nil, pki: pki).isEmpty)
    }

    @Test("tlslab connect --keylog: the file it writes lets tshark decrypt our session with s_server")
    func connectCommandKeyLog() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let (server, port) = try startSServer(["-cert", "leaf.pem", "-cert_chain", "root.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        let keylog = pki.dir.appendingPathComponent("connect-keylog-\(UUID().uuidString).txt")
        let capture = try Self.capture(port: port, pki: pki) {
            let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                         "--keylog", keylog.path, "--format", "json", "--timeout", "5"], in: pki.dir)
            #expect(r.status == 0, "\(r.output.suffix(1000))")
        }
        let seen = try Self.decrypted(capture, port: port, keylog: keylog, pki: pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")
        #expect(try Self.decrypted(capture, port: port, keylog: nil, pki: pki).isEmpty)
    }
}
