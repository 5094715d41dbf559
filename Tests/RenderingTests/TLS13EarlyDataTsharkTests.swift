import Foundation
@testable import Rendering
import Simulation
import TLSCrypto
import TLSEngine
import Testing
import TestSupport
import Trace

/// The 0-RTT runs exported as `tlslab export NAME --pcap --keylog` writes them, read by tshark: the
/// key log's CLIENT_EARLY_TRAFFIC_SECRET opens the early data record that carries the second
/// request (RFC 8446 §2.3), EndOfEarlyData decrypts, and without that one line the request stays
/// sealed. In the replay run the copy on the attacker's connection opens with the same line: the
/// same ClientHello gives the same early keys (§8).
@Suite("The tls13-0rtt runs' pcap and key log, checked by tshark")
struct TLS13EarlyDataTsharkTests {
    typealias Capture = TLS13RunTsharkTests.Capture

    @Test(CrossCheckRequirement.trait(TLS13TsharkTests.tshark != nil, missing: "tshark is not installed"))
    func tsharkDecryptsTheEarlyData() throws {
        let capture = try Capture(.tls13ZeroRTT)
        #expect(capture.log.sessions == 2)
        let client = capture.trace.tls13Steps(of: .client, connection: 1)
        let early = try #require(client.first { $0.secret == .clientEarlyTrafficSecret }).value
        let exporter = try #require(client.first { $0.secret == .earlyExporterMasterSecret }).value
        #expect(capture.log.text.contains("CLIENT_EARLY_TRAFFIC_SECRET ") && capture.log.text.contains(Hex.string(early)))
        #expect(capture.log.text.contains("EARLY_EXPORTER_SECRET ") && capture.log.text.contains(Hex.string(exporter)))

        let run = capture.tshark, fields = capture.fields
        #expect(try run(["-Y", "_ws.malformed || _ws.expert.severity>=warning"]).isEmpty)
        // early_data (42) in the second ClientHello, readable without keys.
        #expect(try fields([], "tls.handshake.extension.type == 42", "tls.handshake.type") == [1])
        let keyed = capture.keyed
        let types = try fields(keyed, "tls.handshake.type", "tls.handshake.type")
        #expect(types.filter { $0 == 5 }.count == 1, "EndOfEarlyData decrypts: \(types)")
        let uris = try run(keyed + ["-Y", "http.request", "-T", "fields", "-e", "http.request.uri"]).split(separator: "\n")
        #expect(uris == ["/", "/next"])
        #expect(try fields(keyed, "http.response", "http.response.code") == [200, 200])

        // Without the CLIENT_EARLY_TRAFFIC_SECRET line the early record stays sealed: only "/" opens.
        let without = capture.dir.appendingPathComponent("no-early.log")
        try capture.log.text.split(separator: "\n").filter { !$0.hasPrefix("CLIENT_EARLY_TRAFFIC_SECRET") }
            .joined(separator: "\n").appending("\n").write(to: without, atomically: true, encoding: .utf8)
        let partial = try run(["-o", "tls.keylog_file:\(without.path)", "-Y", "http.request", "-T", "fields", "-e", "http.request.uri"])
        #expect(partial.split(separator: "\n") == ["/"])
    }

    @Test(CrossCheckRequirement.trait(TLS13TsharkTests.tshark != nil, missing: "tshark is not installed"))
    func tsharkOpensTheReplayedCopyToo() throws {
        let capture = try Capture(.tls13ZeroRTTReplay)
        let run = capture.tshark
        #expect(try run(["-Y", "_ws.malformed"]).isEmpty)
        let uris = try run(capture.keyed + ["-Y", "http.request", "-T", "fields", "-e", "http.request.uri"]).split(separator: "\n")
        #expect(uris == ["/", "/next", "/next"], "\(uris)")
    }
}
