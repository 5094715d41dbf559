import Foundation
import RealPeer
import Rendering
import TLSEngine
import Testing

/// The key log we write lets tshark decrypt a real loopback capture of the session.
@Suite("RealPeer: key log decrypts a loopback capture", .serialized, .enabled(if: Tools.haveOpenSSL, "needs openssl on the PATH"))
struct KeyLogCaptureTests {
    @Test("tshark decrypts our client's session with s_server using our key log", arguments: [
        CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_CBC_SHA])
    func decrypts(_ suite: CipherSuite) throws {
        guard let tshark = Tools.tshark else {
            print("skipped: tshark is not on the PATH, no capture possible")
            return
        }
        let pki = try #require(TestPKI.shared)
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        let capture = pki.dir.appendingPathComponent("cap-\(port).pcapng")
        // The capture stops by itself (-a duration), so that no signal can cut the file short.
        let capturing = try Child(tshark, ["-i", "lo", "-a", "duration:3", "-w", capture.path, "-f", "tcp port \(port)"], in: pki.dir)
        defer { capturing.stop() }
        guard capturing.wait(for: "Capture started", seconds: 10) || capturing.wait(for: "Capturing on", seconds: 1) else {
            print("skipped: cannot capture on the loopback interface here: \(capturing.output.prefix(300))")
            return
        }
        usleep(300_000)
        let result = try ClientRoleTests.client(port: port, pki: pki, suites: [suite]).run()
        #expect(result.failure == nil, "\(result.failure ?? "")")
        let entry = try #require(result.keyLog)
        let ended = Date().addingTimeInterval(8)
        while capturing.process.isRunning && Date() < ended { usleep(50_000) }
        capturing.stop()
        let keylog = pki.dir.appendingPathComponent("keylog-\(port).txt")
        try KeyLogWriter.text([KeyLogWriter.Session(clientRandom: entry.clientRandom, masterSecret: entry.masterSecret)])
            .write(to: keylog, atomically: true, encoding: .utf8)
        let read = try runTool(tshark, ["-r", capture.path, "-o", "tls.keylog_file:\(keylog.path)", "-d", "tcp.port==\(port),tls",
                                        "-Y", "http.request", "-T", "fields", "-e", "http.request.method"], in: pki.dir)
        #expect(read.output.split(separator: "\n").contains("GET"), "tshark: \(read.output)")
        // Without the key log nothing decrypts: the test can fail.
        let blind = try runTool(tshark, ["-r", capture.path, "-d", "tcp.port==\(port),tls",
                                         "-Y", "http.request", "-T", "fields", "-e", "http.request.method"], in: pki.dir)
        #expect(!blind.output.split(separator: "\n").contains("GET"))
    }
}
