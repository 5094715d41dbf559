import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Issue #38, defect 1: a resumed connection has its own client_random and reuses the session's
/// master secret, so the key log needs one `CLIENT_RANDOM` line per connection, resumed ones
/// included — by ticket (RFC 5077 §3.4) and by session ID (RFC 5246 §7.3). Checked with tshark on a
/// loopback capture: every connection's Finished decrypts with the key log written by serve and by
/// connect.
@Suite("RealPeer: key logs of resumed connections decrypt in tshark", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ResumedKeyLogTests {
    static func lines(_ file: URL) -> [Substring] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("CLIENT_RANDOM ") }
    }

    /// The TCP streams of `capture` (tshark's numbers), and those whose Finished tshark decrypted with `keylog`.
    static func streams(_ capture: URL, port: UInt16, keylog: URL?, pki: TestPKI) throws -> (all: Set<String>, finished: Set<String>) {
        let tshark = try #require(Tools.tshark)
        let keys = keylog.map { ["-o", "tls.keylog_file:\($0.path)"] } ?? []
        func field(_ filter: String) throws -> Set<String> {
            let r = try runTool(tshark, ["-r", capture.path] + keys + ["-d", "tcp.port==\(port),tls", "-Y", filter,
                                                                       "-T", "fields", "-e", "tcp.stream"], in: pki.dir)
            return Set(r.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
        }
        return (try field("tcp.flags.syn == 1 && tcp.flags.ack == 0"), try field("tls.handshake.type == 20"))
    }

    /// Waits (up to 10 s) until `file` holds `count` key log lines.
    static func waitForLines(_ file: URL, _ count: Int) -> [Substring] {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, lines(file).count < count { usleep(50_000) }
        return lines(file)
    }

    @Test("serve --keylog with s_client -reconnect: six lines for six connections (five resumed), every Finished decrypts",
          arguments: [false, true])
    func serveKeyLog(byTicket: Bool) throws {
        let pki = try TestPKI.require()
        let keylog = pki.dir.appendingPathComponent("serve-resumed-\(UUID().uuidString).txt")
        let (serve, port) = try startServe(["--keylog", keylog.path, "--suite", "ECDHE-RSA-AES128-GCM-SHA256"], pki: pki)
        defer { serve.stop() }
        var out = ""
        let capture = try KeyLogCaptureTests.capture(port: port, pki: pki) {
            out = try ResumptionInteropTests.sClient(port, pki: pki, ["-reconnect"] + (byTicket ? [] : ["-no_ticket"]))
        }
        #expect(ResumptionInteropTests.count(out, "Reused, TLSv1.2") == 5, "\(out.suffix(2000))")
        let written = Self.waitForLines(keylog, 6)
        #expect(written.count == 6, "one line per connection: \(written.count)\n\(serve.output.suffix(1500))")
        #expect(Set(written.map { $0.split(separator: " ")[1] }).count == 6, "each its own client_random")
        #expect(Set(written.map { $0.split(separator: " ")[2] }).count == 1, "one session: one master secret")
        let seen = try Self.streams(capture, port: port, keylog: keylog, pki: pki)
        #expect(seen.all.count == 6, "six connections captured: \(seen.all)")
        #expect(seen.finished == seen.all, "Finished decrypted in every connection: \(seen.finished) of \(seen.all)")
        // Without the key log no Finished decrypts: the check can fail.
        #expect(try Self.streams(capture, port: port, keylog: nil, pki: pki).finished.isEmpty)
    }

    @Test("connect --keylog --reconnect 2: three lines for three connections, every request decrypts",
          arguments: [false, true])
    func connectKeyLog(byTicket: Bool) throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let (serve, port) = try startServe([], pki: pki)
        defer { serve.stop() }
        let keylog = pki.dir.appendingPathComponent("connect-resumed-\(UUID().uuidString).txt")
        var status: Int32 = -1, output = ""
        let capture = try KeyLogCaptureTests.capture(port: port, pki: pki) {
            let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                         "--reconnect", "2", "--keylog", keylog.path, "--format", "json", "--timeout", "5", "--tls", "1.2"]
                                        + (byTicket ? [] : ["--no-tickets"]), in: pki.dir, timeout: 30)
            (status, output) = (r.status, r.output)
        }
        #expect(status == 0, "\(output.suffix(1500))")
        #expect(output.contains("connection 3 of 3: resumed the offered session"), "\(output.suffix(1500))")
        let written = Self.lines(keylog)
        #expect(written.count == 3, "one line per connection: \(written)")
        #expect(Set(written.map { $0.split(separator: " ")[2] }).count == 1, "one session: one master secret")
        let seen = try Self.streams(capture, port: port, keylog: keylog, pki: pki)
        #expect(seen.all.count == 3 && seen.finished == seen.all, "Finished decrypted: \(seen.finished) of \(seen.all)")
        let http = try KeyLogCaptureTests.decrypted(capture, port: port, keylog: keylog, pki: pki)
        #expect(http.filter { $0 == "GET" }.count == 3 && http.filter { $0 == "200" }.count == 3, "tshark: \(http)")
    }

    @Test("RealClient: a resumed connection's key log entry is its own client_random with the session's master secret")
    func resumedEntry() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe([], pki: pki)
        defer { serve.stop() }
        var client = try ClientRoleTests.client(port: port, pki: pki)
        let first = client.run()
        client.configuration.session = first.session
        let second = client.run()
        #expect(second.resumed, "\(second.failureText ?? "")")
        let a = try #require(first.keyLog), b = try #require(second.keyLog, "the resumed connection has an entry")
        #expect(a.masterSecret != nil && a.masterSecret == b.masterSecret && a.clientRandom != b.clientRandom)
    }
}
