import Foundation
@testable import Rendering
import Simulation
import TLSCrypto
import TLSEngine
import Testing
import TestSupport
import Trace

/// The built-in run `tls13` exported as `tlslab export tls13 --pcap --keylog` writes it: tshark reads
/// a clean capture, sees only the hellos without the key log, and with it decrypts every protected
/// record of both directions — the server's encrypted flight, the client's Finished, the HTTP
/// request and response, and both close_notify alerts.
@Suite("The tls13 run's pcap and key log, checked by tshark")
struct TLS13RunTsharkTests {
    @Test(CrossCheckRequirement.trait(TLS13TsharkTests.tshark != nil, missing: "tshark is not installed"))
    func tsharkDecryptsTheWholeRun() throws {
        let capture = try Capture(.tls13)
        let trace = capture.trace, log = capture.log
        #expect(log.sessions == 1)
        // The key log's secrets are the client's own, by their NSS labels.
        let client = trace.tls13Steps(of: .client)
        for (label, secret) in [("CLIENT_HANDSHAKE_TRAFFIC_SECRET", TLS13Secret.clientHandshakeTrafficSecret),
                                ("SERVER_TRAFFIC_SECRET_0", .serverApplicationTrafficSecret0)] {
            let value = try #require(client.first { $0.secret == secret }).value
            #expect(log.text.contains("\(label) \(Hex.string(trace.summary.clientRandom ?? [])) \(Hex.string(value))"))
        }

        let run = capture.tshark, fields = capture.fields
        #expect(try run(["-Y", "_ws.malformed || _ws.expert.severity>=warning"]).isEmpty)
        // Without keys: the hellos only; the certificate and everything after ServerHello are encrypted.
        #expect(try fields([], "tls.handshake.type", "tls.handshake.type") == [1, 2])
        let keyed = capture.keyed
        #expect(try fields(keyed, "tls.handshake.type", "tls.handshake.type") == [1, 2, 8, 11, 15, 20, 20])
        let http = try run(keyed + ["-Y", "http", "-T", "fields", "-e", "http.request.uri", "-e", "http.response.code"])
        #expect(http.contains("/profile") && http.contains("200"), "\(http)")
        // close_notify (0) both ways, readable only with the keys: its record says application_data outside.
        #expect(try fields(keyed, "tls.alert_message", "tls.alert_message.desc") == [0, 0])
        #expect(try fields([], "tls.alert_message", "tls.alert_message.desc").isEmpty)
    }

    /// tls13-resumption: two connections in one capture, the second resumed with a PSK; the key log
    /// has both sessions and tshark decrypts both — the ticket after each handshake, no Certificate
    /// on the second, both HTTP exchanges.
    @Test(CrossCheckRequirement.trait(TLS13TsharkTests.tshark != nil, missing: "tshark is not installed"))
    func tsharkDecryptsTheResumedConnection() throws {
        let capture = try Capture(.tls13Resumption)
        #expect(capture.log.sessions == 2)

        let run = capture.tshark, fields = capture.fields
        #expect(try run(["-Y", "_ws.malformed || _ws.expert.severity>=warning"]).isEmpty)
        #expect(try fields([], "tls.handshake.type", "tls.handshake.type") == [1, 2, 1, 2])
        let keyed = capture.keyed
        let types = try fields(keyed, "tls.handshake.type", "tls.handshake.type")
        // Certificate and CertificateVerify once (the full handshake), Finished four times, a ticket each.
        #expect(types.filter { $0 == 11 }.count == 1 && types.filter { $0 == 15 }.count == 1, "\(types)")
        #expect(types.filter { $0 == 20 }.count == 4 && types.filter { $0 == 4 }.count == 2 && types.filter { $0 == 8 }.count == 2, "\(types)")
        let uris = try run(keyed + ["-Y", "http.request", "-T", "fields", "-e", "http.request.uri"]).split(separator: "\n")
        #expect(uris == ["/", "/next"])
        #expect(try fields(keyed, "http.response", "http.response.code") == [200, 200])
        // pre_shared_key (41) in the second ClientHello (the offer) and its ServerHello (the selection), readable without keys.
        #expect(try fields([], "tls.handshake.extension.type == 41", "tls.handshake.type") == [1, 2])
    }

    /// A run exported as `export --pcap --keylog` writes it, in a folder removed with the capture.
    final class Capture {
        let trace: Trace
        let log: (text: String, sessions: Int)
        let dir: URL, pcap: URL, keylog: URL

        init(_ run: BuiltInRun) throws {
            trace = Simulation(try run.setup(seed: 1)).run()
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-13-\(run.rawValue)-\(UUID())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            pcap = dir.appendingPathComponent("run.pcap")
            keylog = dir.appendingPathComponent("keys.log")
            try Data(PcapWriter().file(PcapWriter.packets(from: trace))).write(to: pcap)
            log = KeyLogWriter.keyLog(for: trace)
            try log.text.write(to: keylog, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: dir) }

        /// tshark's options that hand it the key log.
        var keyed: [String] { ["-o", "tls.keylog_file:\(keylog.path)"] }

        func tshark(_ args: [String]) throws -> String {
            try ExternalTool.run(try #require(TLS13TsharkTests.tshark), ["-r", pcap.path, "-o", "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE"] + args, timeout: 120).stdoutText
        }

        /// The integer values of `field` in the packets `filter` selects.
        func fields(_ extra: [String], _ filter: String, _ field: String) throws -> [Int] {
            try tshark(extra + ["-Y", filter, "-T", "fields", "-e", field])
                .split(separator: "\n").flatMap { $0.split(separator: ",") }.compactMap { Int($0) }
        }
    }
}
