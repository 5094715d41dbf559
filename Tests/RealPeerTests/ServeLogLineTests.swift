import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Issue #38, defect 4: serve's one-line log says what happened, from the facts the engine and the
/// HTTP/2 connection report: the :status actually sent (413, 431), and a resumed connection whose
/// Finished and close_notify came in one read completed its handshake.
@Suite("RealPeer: serve's log line tells the truth", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ServeLogLineTests {
    @Test("HTTP/2: a request over the header-list limit is logged → 431, a body over the size limit → 413")
    func http2Refusals() throws {
        let curl = try Tools.need(Tools.curl, "curl is not on the PATH")
        guard try HTTP2ServeTests.curlHasHTTP2(curl) else { try Tools.unavailable("this curl has no HTTP/2 (nghttp2)") }
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1"], pki: pki)
        defer { serve.stop() }
        let common = ["--silent", "--show-error", "--http2", "--cacert", "root.pem", "--resolve", "localhost:\(port):127.0.0.1",
                      "--write-out", "\nstatus=%{http_code}\n"]
        let header = try runTool(curl, common + ["-H", "X-Big: " + String(repeating: "b", count: 30_000), "https://localhost:\(port)/big-header"],
                                 in: pki.dir)
        #expect(header.output.contains("status=431"), "\(header.output.suffix(600))")
        #expect(serve.wait(for: "\"GET /big-header HTTP/2\" → 431", seconds: 5), "\(serve.output.suffix(1500))")
        let upload = pki.dir.appendingPathComponent("upload-\(UUID().uuidString).bin")
        try Data(repeating: 0x61, count: (1 << 20) + 4_096).write(to: upload)
        defer { try? FileManager.default.removeItem(at: upload) }
        let body = try runTool(curl, common + ["--data-binary", "@\(upload.path)", "https://localhost:\(port)/big-body"], in: pki.dir)
        #expect(body.output.contains("status=413"), "\(body.output.suffix(600))")
        #expect(serve.wait(for: "\"POST /big-body HTTP/2\" → 413", seconds: 5), "\(serve.output.suffix(1500))")
        #expect(!serve.output.contains("/big-header HTTP/2\" → 200") && !serve.output.contains("/big-body HTTP/2\" → 200"),
                "\(serve.output.suffix(1500))")
    }

    @Test("a resumed handshake whose Finished and close_notify arrive in one write: logged as close_notify before a request")
    func resumedFinishedWithCloseNotify() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe([], pki: pki)
        defer { serve.stop() }
        let first = try ClientRoleTests.client(port: port, pki: pki).run()
        #expect(first.failure == nil, "\(first.failureText ?? "")")
        var configuration = try ClientRoleTests.client(port: port, pki: pki).configuration
        configuration.session = try #require(first.session)
        // Our engine on a raw socket: its last flight (ChangeCipherSpec, Finished) and close_notify in one write.
        var client = TLSClient(configuration: configuration)
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: port, timeoutMilliseconds: 5_000)
        defer { socket.close() }
        try socket.write(client.start().output)
        var resumed = false
        for _ in 0 ..< 20 where !client.isConnected {
            let bytes = try socket.read(timeoutMilliseconds: 5_000)
            guard !bytes.isEmpty else { break }
            let step = client.receive(bytes)
            if client.isConnected {
                resumed = client.isResumed
                try socket.write(step.output + client.close().output)
            } else {
                try socket.write(step.output)
            }
        }
        #expect(resumed, "the session was resumed")
        #expect(serve.wait(for: "the client sent close_notify before a request", seconds: 5), "\(serve.output.suffix(1500))")
        #expect(!serve.output.contains("during the handshake"), "\(serve.output.suffix(1500))")
    }

    @Test("a ClientHello whose server_name holds a NUL: serve answers illegal_parameter and logs the byte and the rule (RFC 6066 §3)")
    func serverNameWithNUL() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe([], pki: pki)
        defer { serve.stop() }
        var client = try ClientRoleTests.client(port: port, pki: pki, serverName: "localhost\u{0}.evil")
        client.request = nil
        let r = client.run()
        #expect(r.failure == .fatalAlertReceived(from: .server, .illegalParameter), "\(r.failureText ?? "success")")
        #expect(serve.wait(for: "the server_name host_name has byte 0x00 at offset 9", seconds: 5), "\(serve.output.suffix(1500))")
    }
}
