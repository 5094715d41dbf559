import Foundation
import RealPeer
import Testing
import TestSupport

/// `tlslab serve` as a user runs it (issue #37): TLS 1.3 by default with the log line saying why,
/// `--tls` to restrict, `--early-data accept` and single-use tickets, the page in Chinese with
/// `--lang zh`, and `--keylog` writing the TLS 1.3 labels.
@Suite("RealPeer: tlslab serve with TLS 1.3", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct TLS13ServeCommandTests {
    @Test("Default: TLS 1.3 for s_client, the log line with the reason and the group; --keylog writes the five TLS 1.3 labels")
    func defaultServesTLS13() throws {
        let pki = try TestPKI.require()
        let keylog = pki.dir.appendingPathComponent("serve13-keylog-\(UUID().uuidString).txt")
        let (serve, port) = try startServe(["--keylog", keylog.path], pki: pki)
        defer { serve.stop() }
        let out = try TLS13ServeInteropTests.sClient(port, pki: pki, [])
        #expect(out.contains("New, TLSv1.3"), "\(out)")
        #expect(out.contains("version: TLS 1.3"), "\(out)")
        #expect(serve.wait(for: "→ 200"), "\(serve.output)")
        #expect(serve.output.contains("TLS 1.3 (supported_versions lists 03 04, RFC 8446 §4.2.1) TLS_AES_128_GCM_SHA256 x25519, PSK resumption no, early data accepted no"),
                "\(serve.output)")
        let text = try String(contentsOf: keylog, encoding: .utf8)
        for label in ["CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0",
                      "SERVER_TRAFFIC_SECRET_0", "EXPORTER_SECRET"] {
            #expect(text.contains(label + " "), "\(label) in \(text)")
        }
    }

    @Test("--tls 1.2 answers a 1.3-only client with protocol_version; --tls 1.3 a 1.2-only one; a 1.2 client of the default gets 1.2 and why (s_client -tls1_2 sends no supported_versions)")
    func restrictVersions() throws {
        let pki = try TestPKI.require()
        let (only12, port12) = try startServe(["--tls", "1.2"], pki: pki)
        defer { only12.stop() }
        #expect(try TLS13ServeInteropTests.sClient(port12, pki: pki, ["-tls1_3"]).contains("alert protocol version"))
        let (only13, port13) = try startServe(["--tls", "1.3"], pki: pki)
        defer { only13.stop() }
        #expect(try TLS13ServeInteropTests.sClient(port13, pki: pki, ["-tls1_2"]).contains("alert protocol version"))
        let (both, port) = try startServe([], pki: pki)
        defer { both.stop() }
        #expect(try TLS13ServeInteropTests.sClient(port, pki: pki, ["-tls1_2"]).contains("New, TLSv1.2"))
        #expect(both.wait(for: "→ 200"), "\(both.output)")
        #expect(both.output.contains("TLS 1.2 (no supported_versions: legacy_version decides, RFC 8446 Appendix D.2)"), "\(both.output)")
    }

    @Test("--early-data accept: s_client's 0-RTT request is accepted once; the ticket is single use, so the replay gets a full handshake")
    func earlyDataOnce() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--early-data", "accept"], pki: pki)
        defer { serve.stop() }
        let session = "serve-early-\(UUID().uuidString).pem"
        let request = pki.dir.appendingPathComponent("serve-early-\(UUID().uuidString).txt")
        try "GET / HTTP/1.0\r\n\r\n".write(to: request, atomically: true, encoding: .utf8)
        _ = try TLS13ServeInteropTests.sClient(port, pki: pki, ["-sess_out", session])
        let early = try TLS13ServeInteropTests.sClient(port, pki: pki, ["-sess_in", session, "-early_data", request.path], stdin: "")
        #expect(early.contains("Early data was accepted") && early.contains("early data accepted: yes"), "\(early)")
        // Rejected early data is not resent by s_client: the request goes again after the handshake.
        let replay = try TLS13ServeInteropTests.sClient(port, pki: pki, ["-sess_in", session, "-early_data", request.path])
        #expect(replay.contains("Early data was rejected") && replay.contains("New, TLSv1.3"), "\(replay)")
    }

    @Test("Default --early-data reject: s_client's 0-RTT request with another serve's ticket is skipped and the 1-RTT handshake completes (RFC 8446 §4.2.10)")
    func rejectedEarlyDataSkipped() throws {
        let pki = try TestPKI.require()
        let (issuer, issuerPort) = try startServe(["--early-data", "accept"], pki: pki)
        defer { issuer.stop() }
        let session = "serve-reject-\(UUID().uuidString).pem"
        let request = pki.dir.appendingPathComponent("serve-reject-\(UUID().uuidString).txt")
        try "GET / HTTP/1.0\r\n\r\n".write(to: request, atomically: true, encoding: .utf8)
        _ = try TLS13ServeInteropTests.sClient(issuerPort, pki: pki, ["-sess_out", session])
        let (serve, port) = try startServe([], pki: pki)
        defer { serve.stop() }
        let out = try TLS13ServeInteropTests.sClient(port, pki: pki, ["-sess_in", session, "-early_data", request.path])
        #expect(out.contains("Early data was rejected") && out.contains("New, TLSv1.3"), "\(out)")
        #expect(!out.contains("bad record mac"), "\(out)")
        #expect(serve.wait(for: "→ 200"), "\(serve.output)")
    }

    @Test("--lang zh: the page in Chinese")
    func chinesePage() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let serve = try Child(tlslab, ["serve", "--port", "0", "--cert", "chain.pem", "--key", "leaf.key", "--log-only", "--lang", "zh"],
                              in: pki.dir, environment: ["NO_COLOR": "1"])
        defer { serve.stop() }
        #expect(serve.wait(for: "正在监听 127.0.0.1:"), "\(serve.output)")
        let port = try #require(serve.output.split(separator: "\n").first.flatMap { UInt16($0.split(separator: ":").last ?? "") })
        let out = try TLS13ServeInteropTests.sClient(port, pki: pki, ["-tls1_3"])
        #expect(out.contains("版本：TLS 1.3") && out.contains("密钥交换组：x25519") && out.contains("PSK 恢复：否"), "\(out)")
    }
}
