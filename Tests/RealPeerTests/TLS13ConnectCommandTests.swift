import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Issue #37, `tlslab connect` itself with TLS 1.3 servers: `--tls`, the key log tshark decrypts with,
/// `--session-out`/`--session-in` with a TLS 1.3 ticket, `--reconnect`, `--early-data`.
@Suite("CLI: connect with TLS 1.3", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct TLS13ConnectCommandTests {
    static func connect(_ port: UInt16, _ more: [String], pki: TestPKI) throws -> (status: Int32, output: String) {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        return try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                    "--format", "json", "--timeout", "5"] + more, in: pki.dir, timeout: 30)
    }

    @Test("--tls 1.3, 1.2, 1.2,1.3 against a default s_server: the version asked for; a bad value is refused")
    func tlsOption() throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-www"], pki: pki)
        defer { server.stop() }
        for (option, page) in [("1.3", "TLSv1.3"), ("1.2", "TLSv1.2"), ("1.2,1.3", "TLSv1.3"), (nil, "TLSv1.3")] as [(String?, String)] {
            let r = try Self.connect(port, option.map { ["--tls", $0] } ?? [], pki: pki)
            #expect(r.status == 0, "\(option ?? "default"): \(r.output.suffix(1000))")
            #expect(r.output.contains("New, \(page)"), "\(option ?? "default"): \(r.output.suffix(1500))")
        }
        let bad = try Self.connect(port, ["--tls", "1.1"], pki: pki)
        #expect(bad.status != 0 && bad.output.contains("--tls takes 1.2 | 1.3 | 1.2,1.3"), "\(bad.output)")
    }

    @Test("--keylog: tshark decrypts the TLS 1.3 capture with the five labelled secrets, and nothing without them")
    func keyLogDecrypts() throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-www"], pki: pki)
        defer { server.stop() }
        try Self.expectKeyLogDecrypts(port: port, pki: pki, name: "connect13")
    }

    /// `tlslab connect --keylog` against the server on `port`: the key log has the five TLS 1.3 labels
    /// (RFC 8446 §7.1, NSS key log format), and tshark decrypts the capture with it and sees nothing without it.
    static func expectKeyLogDecrypts(port: UInt16, pki: TestPKI, name: String) throws {
        let keylog = pki.dir.appendingPathComponent("\(name)-keylog-\(UUID().uuidString).txt")
        let capture = try KeyLogCaptureTests.capture(port: port, pki: pki) {
            let r = try Self.connect(port, ["--keylog", keylog.path], pki: pki)
            #expect(r.status == 0, "\(r.output.suffix(1000))")
        }
        let text = try String(contentsOf: keylog, encoding: .utf8)
        for label in ["CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0",
                      "SERVER_TRAFFIC_SECRET_0", "EXPORTER_SECRET"] {
            #expect(text.contains(label + " "), "\(label) in \(text)")
        }
        let seen = try KeyLogCaptureTests.decrypted(capture, port: port, keylog: keylog, pki: pki)
        #expect(seen.contains("GET") && seen.contains("200"), "tshark: \(seen)")
        #expect(try KeyLogCaptureTests.decrypted(capture, port: port, keylog: nil, pki: pki).isEmpty)
    }

    @Test("--session-out writes the TLS 1.3 ticket; --session-in offers it and s_server resumes (psk accepted)")
    func sessionFile() throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-www"], pki: pki)
        defer { server.stop() }
        let file = pki.dir.appendingPathComponent("ticket13-\(UUID().uuidString).txt")
        let first = try Self.connect(port, ["--session-out", file.path], pki: pki)
        #expect(first.status == 0, "\(first.output.suffix(1000))")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix(TLS13TicketFile.header), "\(text)")
        let ticket = try TLS13TicketFile.ticket(from: text)
        #expect(TLS13TicketFile.text(ticket) == text)
        let second = try Self.connect(port, ["--session-in", file.path], pki: pki)
        #expect(second.status == 0, "\(second.output.suffix(1000))")
        #expect(second.output.contains("\"tls13_psk_offered\""), "\(second.output.suffix(1500))")
        #expect(second.output.contains("\"tls13_psk_accepted\""), "\(second.output.suffix(1500))")
        #expect(second.output.contains("Reused, TLSv1.3"), "\(second.output.suffix(1500))")
    }

    @Test("--reconnect 2 against s_server -tls1_3: each reconnection resumes with the newest ticket")
    func reconnect() throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-www"], pki: pki)
        defer { server.stop() }
        let r = try Self.connect(port, ["--reconnect", "2"], pki: pki)
        #expect(r.status == 0, "\(r.output.suffix(1000))")
        #expect(r.output.contains("connection 2 of 3: resumed the offered session"), "\(r.output.suffix(800))")
        #expect(r.output.contains("connection 3 of 3: resumed the offered session"), "\(r.output.suffix(800))")
    }

    @Test("--session-in with a ticket that allows early data, --early-data FILE: s_server -early_data accepts the 0-RTT request")
    func earlyData() throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-early_data"], pki: pki)
        defer { server.stop() }
        // The ticket from a first connection (s_server without -www answers nothing: it ends at the response deadline).
        var first = try TLS13ConnectInteropTests.client(port: port, pki: pki)
        first.responseTimeoutMilliseconds = 1_000
        let ticket = try #require(first.run().tls13Tickets.last)
        let file = pki.dir.appendingPathComponent("ticket13-early-\(UUID().uuidString).txt")
        try TLS13TicketFile.write(ticket, to: file.path)
        let request = pki.dir.appendingPathComponent("early-\(UUID().uuidString).txt")
        try "ZERO-RTT-REQUEST\n".write(to: request, atomically: true, encoding: .utf8)
        let r = try Self.connect(port, ["--session-in", file.path, "--early-data", request.path, "--response-timeout", "1"], pki: pki)
        #expect(r.output.contains("connection 1: the server accepted the 0-RTT data"), "\(r.output.suffix(1500))")
        #expect(r.output.contains("\"tls13_early_data\""), "\(r.output.suffix(1500))")
        #expect(server.wait(for: "Early data received"), "\(server.output.suffix(800))")
        #expect(server.wait(for: "ZERO-RTT-REQUEST"), "\(server.output.suffix(800))")
        let refused = try Self.connect(port, ["--early-data", request.path], pki: pki)
        #expect(refused.status != 0 && refused.output.contains("--early-data goes with --reconnect or --session-in"), "\(refused.output)")
    }

    @Test("ALPN over TLS 1.3: s_server -tls1_3 -alpn http/1.1 answers in EncryptedExtensions; nghttpd serves h2 over 1.3")
    func alpn() throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-alpn", "http/1.1", "-www"], pki: pki)
        defer { server.stop() }
        let r = try Self.connect(port, ["--alpn", "h2,http/1.1", "--tls", "1.3"], pki: pki)
        #expect(r.status == 0, "\(r.output.suffix(1000))")
        #expect(r.output.contains("\"event\":\"tls13_alpn\",\"alpn\":\"http/1.1\""), "\(r.output.suffix(3000))")
        #expect(r.output.contains("New, TLSv1.3"), "\(r.output.suffix(1500))")

        let nghttpd = try Tools.need(Tools.nghttpd, "nghttpd (Debian package nghttp2-server) is not installed")
        let docroot = pki.dir.appendingPathComponent("docroot13-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: docroot, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: docroot) }
        try Data("served by nghttpd over 1.3\n".utf8).write(to: docroot.appendingPathComponent("hello.txt"))
        var output: (status: Int32, output: String)?
        for _ in 0..<5 {
            guard let port = freePort() else { continue }
            let h2 = try Child(nghttpd, ["--htdocs", docroot.path, "--address", "127.0.0.1", "\(port)", "leaf.key", "chain.pem"], in: pki.dir)
            defer { h2.stop() }
            usleep(300_000)
            guard h2.process.isRunning else { continue }
            output = try Self.connect(port, ["--alpn", "h2", "--tls", "1.3", "--request", "GET /hello.txt HTTP/1.1\r\nHost: localhost\r\n\r\n"], pki: pki)
            break
        }
        let h2 = try #require(output, "nghttpd did not start")
        #expect(h2.status == 0, "\(h2.output.suffix(1500))")
        #expect(h2.output.contains("\"event\":\"tls13_alpn\",\"alpn\":\"h2\""), "\(h2.output.suffix(3000))")
        #expect(h2.output.contains(":status: 200"), "\(h2.output.suffix(1500))")
    }
}
