import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine
#if canImport(Glibc)
import Glibc
#endif

/// Our client against a real `openssl s_server -tls1_2 -www` over loopback: the handshake completes
/// for each key exchange and the server's HTTP answer decrypts. Skipped when openssl is missing.
@Suite("Engine OpenSSL interop")
struct EngineOpenSSLInteropTests {
    /// A blocking loopback TCP connection with a receive timeout.
    final class Socket {
        let fd: Int32

        init?(port: Int) {
            #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else { close(fd); return nil }
            #else
            return nil
            #endif
        }

        deinit { close(fd) }

        func write(_ bytes: [UInt8]) {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return }
                sent += n
            }
        }

        func read() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return n > 0 ? Array(buffer.prefix(n)) : []
        }
    }

    static func realKeysLoaded() -> Bool {
        // The fixture keys come from PEM only with the real RSA implementation.
        EngineFixtures.usesFixtureKeys
    }

    @Test("our client ↔ openssl s_server", CrossCheckRequirement.trait(OpenSSLPeer.available, missing: "openssl is not on the PATH"),
          .enabled(if: realKeysLoaded(), "the fixture keys are not loaded"),
          arguments: [("AES128-GCM-SHA256", CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256),
                      ("DHE-RSA-AES128-GCM-SHA256", .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256),
                      ("ECDHE-RSA-AES128-GCM-SHA256", .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
                      ("ECDHE-RSA-AES256-GCM-SHA384", .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384)])
    func interop(_ name: String, _ suite: CipherSuite) throws {
        guard let executable = OpenSSLPeer.executable else { return }
        let dir = EngineFixtures.directory
        var lastError = ""
        for attempt in 0..<5 {
            let port = 20_000 + Int((UInt32(getpid()) &* 7919 &+ UInt32(attempt) &* 104_729 &+ UInt32(suite.rawValue)) % 40_000)
            let server = try ExternalTool.Background(executable, ["s_server", "-accept", "\(port)", "-cert", "server.cert.pem",
                                                                  "-key", "server.key.pem", "-tls1_2", "-cipher", name, "-www",
                                                                  "-naccept", "1", "-no_ticket"],
                                                     currentDirectory: dir.path, mergingErrorIntoOutput: true)
            defer { server.stop() }
            let listening = server.waitForOutput(containing: "ACCEPT", timeout: 5)
            guard listening, let socket = Socket(port: port) else {
                lastError = server.stdoutText.isEmpty ? "no server" : server.stdoutText
                continue
            }
            var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 99, suites: [suite]))
            socket.write(client.start().output)
            while !client.isConnected && client.stateName != .failed {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                socket.write(client.receive(bytes).output)
            }
            #expect(client.isConnected, "\(name): \(client.failureAlert.map { "\($0)" } ?? "\(client.stateName)")")
            #expect(client.negotiatedSuite == suite)
            #expect(client.usesExtendedMasterSecret, "OpenSSL 3 agrees to EMS by default")
            guard client.isConnected else { return }
            socket.write(try client.sendApplicationData(Array("GET / HTTP/1.0\r\n\r\n".utf8)).output)
            var answer: [UInt8] = []
            while true {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                for case .applicationDataReceived(let data) in client.receive(bytes).events { answer += data }
                if client.stateName == .closed || client.stateName == .failed { break }
            }
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.0 200 ok"))
            return
        }
        Issue.record("s_server did not start: \(lastError.prefix(500))")
    }
    /// Our client with a certificate, limited to TLS 1.1, against `s_server -tls1_1 -Verify 1`:
    /// OpenSSL completes the handshake only if our CertificateVerify (no algorithm field, an
    /// MD5 ‖ SHA-1 PKCS #1 signature, RFC 4346 §7.4.8) verifies. OpenSSL 3 needs SECLEVEL=0 there.
    @Test("TLS 1.1 mutual TLS: openssl s_server -Verify accepts our MD5‖SHA-1 CertificateVerify",
          .enabled(if: OpenSSLPeer.available && realKeysLoaded()))
    func legacyMutualTLS() throws {
        guard let executable = OpenSSLPeer.executable else { return }
        var lastError = ""
        for attempt in 0..<5 {
            let port = 47_200 + Int((UInt32(getpid()) &+ UInt32(attempt) &* 17) % 100)
            let server = try ExternalTool.Background(executable, ["s_server", "-accept", "\(port)", "-cert", "server.cert.pem",
                                                                  "-key", "server.key.pem", "-tls1_1", "-cipher", "AES128-SHA:@SECLEVEL=0",
                                                                  "-Verify", "1", "-CAfile", "ca.cert.pem", "-www", "-naccept", "1"],
                                                     currentDirectory: EngineFixtures.directory.path, mergingErrorIntoOutput: true)
            defer { server.stop() }
            let listening = server.waitForOutput(containing: "ACCEPT", timeout: 5)
            guard listening, let socket = Socket(port: port) else {
                lastError = server.stdoutText.isEmpty ? "no server" : server.stdoutText
                continue
            }
            var config = try Harness.clientConfiguration(seed: 98, suites: [.TLS_RSA_WITH_AES_128_CBC_SHA])
            config.minimumVersion = .tls10
            config.maximumVersion = .tls11
            config.identity = try Harness.clientIdentity()
            var client = TLSClient(configuration: config)
            socket.write(client.start().output)
            var sentVerify = false
            while !client.isConnected && client.stateName != .failed {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                let step = client.receive(bytes)
                for case .handshakeSent(.certificateVerify(let cv), _) in step.events { sentVerify = cv.signature.algorithm == nil }
                socket.write(step.output)
            }
            let serverLog = server.stdoutText
            #expect(sentVerify)
            #expect(client.isConnected, "\(client.failureAlert.map { "\($0)" } ?? "\(client.stateName)"): \(serverLog.prefix(800))")
            #expect(client.negotiatedVersion == .tls11)
            guard client.isConnected else { return }
            socket.write(try client.sendApplicationData(Array("GET / HTTP/1.0\r\n\r\n".utf8)).output)
            var answer: [UInt8] = []
            while true {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                for case .applicationDataReceived(let data) in client.receive(bytes).events { answer += data }
                if client.stateName == .closed || client.stateName == .failed { break }
            }
            let page = String(decoding: answer, as: UTF8.self)
            #expect(page.hasPrefix("HTTP/1.0 200 ok"))
            #expect(page.contains("TLSLab Test Client"), "s_server -www shows the verified client certificate")
            return
        }
        Issue.record("s_server did not start: \(lastError.prefix(500))")
    }
}
