import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine
#if canImport(Glibc)
import Glibc
#endif

/// The TLS 1.3 engine against OpenSSL over loopback, in both roles: our client with
/// `openssl s_server -tls1_3` for each suite and group (and a HelloRetryRequest when OpenSSL wants
/// the group we did not share), our server with `openssl s_client -tls1_3`. OpenSSL is the
/// independent implementation: a wrong byte anywhere in the key schedule, the record layer, the
/// transcript or the signatures ends its handshake.
@Suite("TLS 1.3 engine ↔ OpenSSL")
struct TLS13OpenSSLInteropTests {
    static var ready: Bool { OpenSSLPeer.available && EngineFixtures.usesFixtureKeys }

    static func port(_ salt: Int, attempt: Int) -> Int {
        20_000 + Int((UInt32(getpid()) &* 7919 &+ UInt32(attempt) &* 104_729 &+ UInt32(salt) &* 31) % 40_000)
    }

    /// Starts `openssl args…` in the fixtures directory through the shared runner (output and error
    /// merged, input held open, always stopped); waits until `readyText` appears.
    static func start(_ args: [String], readyText: String?, input: String? = nil) throws -> ExternalTool.Background {
        let openssl = try ExternalTool.Background(try #require(OpenSSLPeer.executable), args,
                                                  currentDirectory: EngineFixtures.directory.path, mergingErrorIntoOutput: true)
        if let input { openssl.send(input) }
        if let readyText { _ = openssl.waitForOutput(containing: readyText, timeout: 5) }
        return openssl
    }

    @Test("our TLS 1.3 client ↔ openssl s_server -tls1_3", CrossCheckRequirement.trait(ready, missing: "openssl or the fixture keys are missing"),
          arguments: [(TLS13CipherSuite.aes128GCMSHA256, "X25519"), (.aes256GCMSHA384, "X25519"), (.chacha20Poly1305SHA256, "X25519"),
                      (.aes128GCMSHA256, "P-256")])
    func clientAgainstOpenSSL(suite: TLS13CipherSuite, group: String) throws {
        let key = try #require(EngineFixtures.serverKey)
        var lastError = ""
        for attempt in 0..<5 {
            let port = Self.port(Int(suite.rawValue) + group.count, attempt: attempt)
            let server = try Self.start(["s_server", "-accept", "\(port)", "-cert", "server.cert.pem", "-key", "server.key.pem",
                                                        "-tls1_3", "-ciphersuites", suite.name, "-groups", group, "-www", "-naccept", "1"],
                                                       readyText: "ACCEPT")
            defer { server.stop() }
            guard let socket = EngineOpenSSLInteropTests.Socket(port: port) else {
                lastError = server.stdoutText.isEmpty ? "no server" : server.stdoutText
                continue
            }
            // The client shares X25519 only: OpenSSL asks again (HelloRetryRequest) when it wants P-256.
            let configuration = TLS13ClientConfiguration(serverName: "localhost",
                                                         evaluator: FixtureEvaluator(leaf: EngineFixtures.serverCertificate, key: key.publicKey),
                                                         suites: [suite], groups: [.x25519, .secp256r1], keyShareGroups: [.x25519])
            var client = TLS13Client(configuration: configuration, random: HMACDRBG(seed: 1300 + UInt64(attempt)))
            var events: [TLS13Event] = []
            socket.write(client.start().output)
            while client.state != .connected && client.state != .closed {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                let step = client.receive(bytes)
                events += step.events
                socket.write(step.output)
            }
            #expect(client.state == .connected, "\(suite.name) \(group): \(events.compactMap { if case .alertSent(let a) = $0 { "\(a)" } else { nil } })")
            #expect(client.negotiatedSuite == suite)
            #expect(events.contains { if case .helloRetryRequested = $0 { true } else { false } } == (group == "P-256"))
            guard client.state == .connected else { return }
            socket.write(client.send(Array("GET / HTTP/1.0\r\n\r\n".utf8)).output)
            var answer: [UInt8] = []
            while client.state == .connected {
                let bytes = socket.read()
                if bytes.isEmpty { break }
                answer += client.receive(bytes).applicationData
            }
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.0 200 ok"), "\(String(decoding: answer.prefix(200), as: UTF8.self))")
            return
        }
        Issue.record("s_server did not start: \(lastError.prefix(500))")
    }

    @Test("openssl s_client -tls1_3 ↔ our TLS 1.3 server", CrossCheckRequirement.trait(ready, missing: "openssl or the fixture keys are missing"),
          arguments: TLS13CipherSuite.allCases)
    func serverAgainstOpenSSL(suite: TLS13CipherSuite) throws {
        #if canImport(Glibc)
        let key = try #require(EngineFixtures.serverKey)
        let loopback = try LoopbackListener()
        let listener = loopback.descriptor, port = loopback.port
        defer { close(listener) }

        let client = try Self.start(["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_3", "-ciphersuites", suite.name,
                                                    "-servername", "localhost", "-CAfile", "ca.cert.pem", "-ign_eof"],
                                                   readyText: nil, input: "hello from openssl\n")
        defer { client.stop() }
        let peer = try loopback.accept()
        defer { close(peer.descriptor) }
        func write(_ bytes: [UInt8]) { peer.write(bytes) }
        func read() -> [UInt8] { peer.read() }

        let configuration = TLS13ServerConfiguration(identity: TLSIdentity(certificateChain: [EngineFixtures.serverCertificate], privateKey: key),
                                                     suites: [suite])
        var server = TLS13Server(configuration: configuration, random: HMACDRBG(seed: 1313))
        var received: [UInt8] = []
        while received.isEmpty && server.state != .closed {
            let bytes = read()
            if bytes.isEmpty { break }
            let step = server.receive(bytes)
            received += step.applicationData
            write(step.output)
        }
        #expect(server.state == .connected, "\(suite.name)")
        #expect(String(decoding: received, as: UTF8.self) == "hello from openssl\n")
        write(server.send(Array("hello from tlslab\n".utf8)).output)
        let deadline = Date().addingTimeInterval(3)
        var text = ""
        while Date() < deadline {
            text = client.stdoutText
            if text.contains("hello from tlslab") { break }
            usleep(20_000)
        }
        #expect(text.contains("hello from tlslab"), "\(text.suffix(800))")
        #expect(text.contains("Verification: OK") || text.contains("Verify return code: 0 (ok)"), "\(text.suffix(800))")
        #expect(text.contains(suite.name))
        #endif
    }
}
