import Foundation
import RealPeer
import Rendering
import TLSEngine
import Testing

/// The key log we write lets tshark decrypt a real loopback capture of the session, in both roles.
@Suite("RealPeer: key log decrypts a loopback capture", .serialized, .enabled(if: Tools.haveOpenSSL, "needs openssl on the PATH"))
struct KeyLogCaptureTests {
    /// Captures `port` on the loopback interface while `session` runs; returns the capture file, or
    /// nil (after printing why) when tshark is missing or cannot capture here.
    static func capture(port: UInt16, pki: TestPKI, _ session: () throws -> Void) throws -> URL? {
        guard let tshark = Tools.tshark else {
            print("skipped: tshark is not on the PATH, no capture possible")
            return nil
        }
        let file = pki.dir.appendingPathComponent("cap-\(port).pcapng")
        // The capture stops by itself (-a duration), so that no signal can cut the file short.
        let capturing = try Child(tshark, ["-i", "lo", "-a", "duration:2", "-w", file.path, "-f", "tcp port \(port)"], in: pki.dir)
        defer { capturing.stop() }
        guard capturing.wait(for: "Capture started", seconds: 10) || capturing.wait(for: "Capturing on", seconds: 1) else {
            print("skipped: cannot capture on the loopback interface here: \(capturing.output.prefix(300))")
            return nil
        }
        usleep(300_000)
        try session()
        let ended = Date().addingTimeInterval(8)
        while capturing.process.isRunning && Date() < ended { usleep(50_000) }
        capturing.stop()
        return file
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
        try KeyLogWriter.text([KeyLogWriter.Session(clientRandom: entry.clientRandom, masterSecret: entry.masterSecret)])
            .write(to: url, atomically: true, encoding: .utf8)
    }

    @Test("client role: tshark decrypts our session with s_server using our key log", arguments: [
        CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_CBC_SHA])
    func clientRole(_ suite: CipherSuite) throws {
        let pki = try #require(TestPKI.shared)
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        var entry: KeyLogEntry?
        guard let capture = try Self.capture(port: port, pki: pki, {
            let result = try ClientRoleTests.client(port: port, pki: pki, suites: [suite]).run()
            #expect(result.failure == nil, "\(result.failure ?? "")")
            entry = result.keyLog
        }) else { return }
        let keylog = pki.dir.appendingPathComponent("keylog-\(port).txt")
        try Self.write(try #require(entry), to: keylog)
        let seen = try Self.decrypted(capture, port: port, keylog: keylog, pki: pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")
        // Without the key log nothing decrypts: the test can fail.
        let blind = try Self.decrypted(capture, port: port, keylog: nil, pki: pki)
        #expect(blind.isEmpty, "\(blind)")
    }

    @Test("server role: tshark decrypts s_client's session with our server using our key log")
    func serverRole() throws {
        let pki = try #require(TestPKI.shared)
        let thread = try ServerRoleTests.server(pki: pki, suites: [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256])
        defer { thread.stop() }
        guard let capture = try Self.capture(port: thread.port, pki: pki, {
            let r = try ServerRoleTests.sClient(thread.port, pki: pki, [])
            #expect(r.output.contains("TLSLab serve: this connection"), "\(r.output)")
        }) else { return }
        #expect(thread.waitFor(1))
        let entry = try #require(thread.connections.first?.keyLog)
        let keylog = pki.dir.appendingPathComponent("keylog-server-\(thread.port).txt")
        try Self.write(entry, to: keylog)
        let seen = try Self.decrypted(capture, port: thread.port, keylog: keylog, pki: pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")
        #expect(try Self.decrypted(capture, port: thread.port, keylog: nil, pki: pki).isEmpty)
    }
}
