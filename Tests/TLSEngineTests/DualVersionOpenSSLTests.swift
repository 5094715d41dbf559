import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine
#if canImport(Glibc)
import Glibc
#endif

/// The dual-version server against OpenSSL's client over loopback: `openssl s_client -tls1_3` gets
/// TLS 1.3; `openssl s_client -tls1_2` (a client of TLS 1.2 alone) gets TLS 1.2 with the DOWNGRD
/// sentinel in ServerHello.random, which it must not misread (RFC 8446 §4.1.3: a TLS 1.2 client
/// checks only the …00 value, and only when TLS 1.1 or below was negotiated).
@Suite("Dual-version server ↔ openssl s_client")
struct DualVersionOpenSSLTests {
    static var ready: Bool { OpenSSLPeer.available && EngineFixtures.usesFixtureKeys }

    @Test("openssl s_client -tls1_3 and -tls1_2 ↔ our dual-version server", CrossCheckRequirement.trait(ready, missing: "openssl or the fixture keys are missing"),
          arguments: ["-tls1_3", "-tls1_2"])
    func dualServerAgainstOpenSSL(versionFlag: String) throws {
        #if canImport(Glibc)
        let loopback = try LoopbackListener()
        let listener = loopback.descriptor, port = loopback.port
        defer { close(listener) }

        let openssl = try #require(OpenSSLPeer.executable)
        let ca = EngineFixtures.directory.appendingPathComponent("ca.cert.pem").path
        let box = ResultBox()
        let clientThread = Thread {
            box.result = try? ExternalTool.run(openssl, ["s_client", "-connect", "127.0.0.1:\(port)", versionFlag, "-servername", "localhost",
                                                         "-CAfile", ca, "-msg"], stdin: Data("hello from openssl\n".utf8), timeout: 15)
            box.done.signal()
        }
        clientThread.start()
        let peer = try loopback.accept()
        defer { close(peer.descriptor) }
        func write(_ bytes: [UInt8]) { peer.write(bytes) }
        func read() -> [UInt8] { peer.read() }

        var server = try DualVersionTests.dualServer(seed: 41)
        var events: [TLSEvent] = []
        var received: [UInt8] = []
        for _ in 0..<20 where received.isEmpty {
            let bytes = read()
            if bytes.isEmpty { break }
            let step = server.receive(bytes)
            events += step.events
            received += step.applicationData
            write(step.output)
            if step.fatalAlertSent != nil || step.fatalAlertReceived != nil { break }
        }
        write(server.close().output)
        _ = box.done.wait(timeout: .now() + 15)
        let text = (box.result?.stdoutText ?? "") + (box.result?.stderrText ?? "")
        let expected: ProtocolVersion = versionFlag == "-tls1_3" ? .tls13 : .tls12
        #expect(server.negotiatedVersion == expected, "\(text.suffix(1500))")
        #expect(String(decoding: received, as: UTF8.self) == "hello from openssl\n", "\(text.suffix(1500))")
        #expect(text.contains(expected == .tls13 ? "TLSv1.3" : "TLSv1.2"))
        #expect(text.contains("Verification: OK") || text.contains("Verify return code: 0 (ok)"), "\(text.suffix(800))")
        let sentinels = events.compactMap { if case .downgradeSentinelWritten(let s) = $0 { s } else { nil } }
        if expected == .tls12 {
            // The sentinel went out, in the ServerHello OpenSSL accepted.
            let hello = try #require(DualVersionTests.serverHello(in: events))
            #expect(Array(hello.random.bytes.suffix(8)) == [0x44, 0x4F, 0x57, 0x4E, 0x47, 0x52, 0x44, 0x01])
            #expect(sentinels.count == 1)
        } else {
            #expect(sentinels.isEmpty)
        }
        #endif
    }

    @Test("openssl s_server (TLS 1.3 on) answering our TLS 1.2 client writes the same sentinel bytes; our 1.2 client ignores them",
          CrossCheckRequirement.trait(ready, missing: "openssl or the fixture keys are missing"))
    func openSSLWritesTheSameSentinel() throws {
        let key = try #require(EngineFixtures.serverKey)
        for attempt in 0..<5 {
            let port = TLS13OpenSSLInteropTests.port(8446, attempt: attempt)
            let server = try TLS13OpenSSLInteropTests.start(["s_server", "-accept", "\(port)", "-cert", "server.cert.pem", "-key", "server.key.pem",
                                                                            "-www", "-naccept", "1"], readyText: "ACCEPT")
            defer { server.stop() }
            guard let socket = EngineOpenSSLInteropTests.Socket(port: port) else { continue }
            var configuration = try Harness.clientConfiguration(seed: 43, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
            configuration.certificateEvaluator = FixtureEvaluator(leaf: EngineFixtures.serverCertificate, key: key.publicKey)
            var client = TLSClient(configuration: configuration)
            var events: [TLSEvent] = []
            socket.write(client.start().output)
            while !client.isConnected && client.failureAlert == nil {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                let step = client.receive(bytes)
                events += step.events
                socket.write(step.output)
            }
            #expect(client.isConnected)
            let hello = try #require(events.lazy.compactMap { if case .handshakeReceived(.serverHello(let h), _) = $0 { h } else { nil } }.first)
            #expect(Array(hello.random.bytes.suffix(8)) == DowngradeSentinel.bytes(for: .tls12), "OpenSSL's sentinel is RFC 8446 §4.1.3's, as ours")
            return
        }
        Issue.record("s_server did not start")
    }

    final class ResultBox: @unchecked Sendable {
        var result: ExternalTool.Result?
        let done = DispatchSemaphore(value: 0)
    }
}
