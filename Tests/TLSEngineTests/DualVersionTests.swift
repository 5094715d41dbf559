import Foundation
import Testing
import TestSupport
import TLSCrypto
@testable import TLSEngine

/// Version negotiation between TLS 1.2 and TLS 1.3 (RFC 8446 §4.1.3, §4.2.1, Appendix D): a server
/// that speaks both reads the ClientHello once and hands it to the engine of the version chosen; a
/// client offers both; the downgrade sentinel is written by the server and refused by the client.
@Suite("TLS 1.2 / 1.3 version negotiation and the downgrade sentinel")
struct DualVersionTests {
    static func tls13Server() throws -> TLS13ServerConfiguration {
        let key = try #require(EngineFixtures.serverKey)
        return TLS13ServerConfiguration(identity: TLSIdentity(certificateChain: [EngineFixtures.serverCertificate], privateKey: key))
    }

    static func tls13Client() throws -> TLS13ClientConfiguration {
        let key = try #require(EngineFixtures.serverKey)
        return TLS13ClientConfiguration(serverName: "localhost", evaluator: FixtureEvaluator(leaf: EngineFixtures.serverCertificate, key: key.publicKey))
    }

    static func dualServer(seed: UInt64, tls13: Bool = true) throws -> DualVersionServer {
        DualVersionServer(configuration: DualVersionServerConfiguration(tls12: try Harness.serverConfiguration(seed: seed),
                                                                        tls13: tls13 ? try tls13Server() : nil))
    }

    static func dualClient(seed: UInt64) throws -> DualVersionClient {
        DualVersionClient(tls12: try Harness.clientConfiguration(seed: seed, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]),
                          tls13: try tls13Client())
    }

    static func choices(_ events: [TLSEvent]) -> [VersionChoice] {
        events.compactMap { if case .versionChosen(let c) = $0 { c } else { nil } }
    }

    static func sentinels(_ events: [TLSEvent]) -> [DowngradeSentinel] {
        events.compactMap { if case .downgradeSentinelWritten(let s) = $0 { s } else { nil } }
    }

    static func serverHello(in events: [TLSEvent]) -> ServerHello? {
        events.lazy.compactMap { if case .handshakeSent(.serverHello(let h), _) = $0 { h } else { nil } }.first
    }

    @Test("The sentinel bytes are RFC 8446 §4.1.3's: DOWNGRD then 01 for TLS 1.2, 00 for 1.1 and below")
    func sentinelBytes() {
        #expect(DowngradeSentinel.bytes(for: .tls12) == [0x44, 0x4F, 0x57, 0x4E, 0x47, 0x52, 0x44, 0x01])
        #expect(DowngradeSentinel.bytes(for: .tls11) == [0x44, 0x4F, 0x57, 0x4E, 0x47, 0x52, 0x44, 0x00])
        #expect(DowngradeSentinel.bytes(for: .tls10) == [0x44, 0x4F, 0x57, 0x4E, 0x47, 0x52, 0x44, 0x00])
        #expect(Array("DOWNGRD".utf8) == Array(DowngradeSentinel.bytes(for: .tls12).prefix(7)))
        let random = [UInt8](0..<32)
        let applied = DowngradeSentinel.apply(to: random, version: .tls12)
        #expect(applied.serverRandom.count == 32)
        #expect(Array(applied.serverRandom.prefix(24)) == Array(random.prefix(24)), "only the last 8 bytes change")
        #expect(DowngradeSentinel.isPresent(in: applied.serverRandom))
        #expect(!DowngradeSentinel.isPresent(in: random))
    }

    @Test("A 1.2-only client meets the dual server: TLS 1.2, the sentinel in the last 8 bytes of ServerHello.random, the 1.2 client ignores it and connects")
    func tls12ClientAgainstDualServer() throws {
        for seed in UInt64(1)...3 {
            var client = TLSClient(configuration: try Harness.clientConfiguration(seed: seed, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]))
            var server = try Self.dualServer(seed: seed)
            var serverEvents: [TLSEvent] = []
            var toServer = client.start().output
            for _ in 0..<4 where !toServer.isEmpty {
                // One byte at a time for the first flight: the ClientHello is read across many calls.
                var s = TLSStep()
                if serverEvents.isEmpty {
                    for byte in toServer { let part = server.receive([byte]); s = TLSStep(sent: s.sent + part.sent, events: s.events + part.events) }
                } else {
                    s = server.receive(toServer)
                }
                serverEvents += s.events
                toServer = client.receive(s.output).output
            }
            #expect(client.isConnected && server.isConnected, "seed \(seed)")
            #expect(server.negotiatedVersion == .tls12)
            #expect(Self.choices(serverEvents) == [VersionChoice(role: .server, version: .tls12, reason: .noSupportedVersions(legacyVersion: .tls12))])
            let hello = try #require(Self.serverHello(in: serverEvents))
            #expect(Array(hello.random.bytes.suffix(8)) == [0x44, 0x4F, 0x57, 0x4E, 0x47, 0x52, 0x44, 0x01])
            #expect(Self.sentinels(serverEvents).map(\.serverRandom) == [hello.random.bytes])
            // The transcript started with the exact ClientHello bytes: both Finished checked, so both hashed the same.
            let received = serverEvents.compactMap { if case .handshakeReceived(.clientHello, let b) = $0 { b } else { nil } }
            #expect(received.count == 1)
            #expect(serverEvents.contains { if case .recordReceived(let r) = $0 { r.contentType == .handshake } else { false } })
        }
    }

    @Test("A 1.2 server without TLS 1.3 writes no sentinel")
    func noSentinelWithoutTLS13() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 4, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]))
        var server = try Self.dualServer(seed: 4, tls13: false)
        let step = server.receive(client.start().output)
        let hello = try #require(Self.serverHello(in: step.events))
        #expect(!DowngradeSentinel.isPresent(in: hello.random.bytes))
        #expect(Self.sentinels(step.events).isEmpty)
    }

    @Test("A TLS 1.3 client meets the dual server: TLS 1.3, chosen because supported_versions lists 03 04")
    func tls13ClientAgainstDualServer() throws {
        var client = TLS13Client(configuration: try Self.tls13Client(), random: HMACDRBG(seed: 77))
        var server = try Self.dualServer(seed: 5)
        let hello = client.start()
        let answer = server.receive(hello.output)
        #expect(Self.choices(answer.events) == [VersionChoice(role: .server, version: .tls13, reason: .clientOffersTLS13(offered: [.tls13]))])
        let finished = client.receive(answer.output)
        _ = server.receive(finished.output)
        #expect(client.state == .connected)
        #expect(server.isConnected && server.negotiatedVersion == .tls13)
        let data = client.send(Array("ping".utf8))
        #expect(server.receive(data.output).applicationData == Array("ping".utf8))
    }

    @Test("The TLS 1.3 hand-off reads a ClientHello that arrives one byte at a time, and its transcript starts with those exact bytes")
    func tls13ByteByByte() throws {
        var client = TLS13Client(configuration: try Self.tls13Client(), random: HMACDRBG(seed: 78))
        var server = try Self.dualServer(seed: 12)
        let hello = client.start()
        var events: [TLSEvent] = []
        var output: [UInt8] = []
        for byte in hello.output {
            let step = server.receive([byte])
            events += step.events
            output += step.output
        }
        #expect(Self.choices(events).count == 1)
        let received = events.compactMap { if case .handshakeReceived(.clientHello, let b) = $0 { b } else { nil } }
        let sent = hello.events.compactMap { if case .handshakeSent(.clientHello, let b) = $0 { b } else { nil } }
        #expect(received == sent && received.count == 1)
        _ = server.receive(client.receive(output).output)
        #expect(client.state == .connected && server.isConnected)
    }

    @Test("Bytes after the ClientHello in the same read go to the chosen engine: a 1.2 client's fatal alert right behind it is read")
    func bytesAfterTheClientHello() throws {
        var client = TLSClient(configuration: try Harness.clientConfiguration(seed: 13, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]))
        var server = try Self.dualServer(seed: 13)
        let alert = TLSRecord(contentType: .alert, version: .tls12, fragment: [2, 40]).encoded
        let step = server.receive(client.start().output + alert)
        #expect(Self.serverHello(in: step.events) != nil, "the ClientHello was answered")
        #expect(step.fatalAlertReceived?.alertDescription == .handshakeFailure, "then the alert behind it was read")
    }

    /// Runs a dual client against a server step function until nothing more crosses.
    static func run(_ client: inout DualVersionClient, server: (([UInt8]) -> TLSStep)) -> (client: [TLSEvent], server: [TLSEvent]) {
        let start = client.start()
        var clientEvents = start.events, serverEvents: [TLSEvent] = []
        var toServer = start.output
        for _ in 0..<6 where !toServer.isEmpty {
            let s = server(toServer)
            serverEvents += s.events
            guard !s.output.isEmpty else { break }
            let c = client.receive(s.output)
            clientEvents += c.events
            toServer = c.output
        }
        return (clientEvents, serverEvents)
    }

    @Test("The dual client's ClientHello: legacy_version 03 03, supported_versions 03 04 03 03, a key_share, the 1.3 and 1.2 suites")
    func combinedClientHello() throws {
        var client = try Self.dualClient(seed: 6)
        let step = client.start()
        let hello = try #require(client.sentClientHello)
        #expect(hello.clientVersion == .tls12)
        let extensions = hello.extensions ?? []
        guard case .unknown(_, let versions)? = extensions.first(ofType: .supportedVersions) else { Issue.record("no supported_versions"); return }
        #expect(versions == [4, 0x03, 0x04, 0x03, 0x03])
        #expect(extensions.contains(type: .keyShare))
        #expect(extensions.contains(type: .extendedMasterSecret), "the 1.2 extensions are offered too")
        #expect(hello.cipherSuites.contains(CipherSuite(rawValue: TLS13CipherSuite.aes128GCMSHA256.rawValue)))
        #expect(hello.cipherSuites.contains(.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256))
        #expect(Array(step.output.prefix(3)) == [0x16, 0x03, 0x01], "the first ClientHello's record says 03 01 (RFC 8446 §5.1)")
    }

    @Test("A dual client meets a dual server: TLS 1.3")
    func dualAgainstDual() throws {
        var client = try Self.dualClient(seed: 7)
        var server = try Self.dualServer(seed: 7)
        let events = Self.run(&client) { server.receive($0) }
        #expect(client.isConnected && server.isConnected)
        #expect(client.negotiatedVersion == .tls13 && server.negotiatedVersion == .tls13)
        #expect(Self.choices(events.client) == [VersionChoice(role: .client, version: .tls13, reason: .serverSelectsTLS13)])
        #expect(Self.choices(events.server).first?.reason == .clientOffersTLS13(offered: [.tls13, .tls12]))
    }

    @Test("A dual client offering a TLS 1.3 ticket: pre_shared_key last in the ClientHello that still offers 1.2; the server's binder check passes and it resumes", arguments: [11, 12] as [UInt64])
    func dualClientResumesByPSK(seed: UInt64) throws {
        var issuing = try Self.tls13Server()
        issuing.ticketLifetime = 3_600
        var client = try Self.dualClient(seed: seed)
        var server = DualVersionServer(configuration: DualVersionServerConfiguration(tls12: try Harness.serverConfiguration(seed: seed), tls13: issuing))
        _ = Self.run(&client) { server.receive($0) }
        let ticket = try #require(client.tls13Tickets.last)
        var resuming = try Self.tls13Client()
        resuming.resumption = ticket
        var again = DualVersionClient(tls12: try Harness.clientConfiguration(seed: seed + 100, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]),
                                      tls13: resuming)
        var keeping = try Self.tls13Server()
        keeping.tickets = [ticket]
        var second = DualVersionServer(configuration: DualVersionServerConfiguration(tls12: try Harness.serverConfiguration(seed: seed + 100), tls13: keeping))
        let events = Self.run(&again) { second.receive($0) }
        #expect(again.isConnected && again.negotiatedVersion == .tls13 && again.isResumed)
        let hello = try #require(again.sentClientHello)
        #expect(hello.extensions?.last?.type == .preSharedKey)
        guard case .unknown(_, let versions)? = (hello.extensions ?? []).first(ofType: .supportedVersions) else { Issue.record("no supported_versions"); return }
        #expect(versions == [4, 0x03, 0x04, 0x03, 0x03])
        let checked = events.server.compactMap { e -> Bool? in
            if case .tls13(.pskBinderChecked(_, let expected, let received)) = e { expected == received } else { nil } }
        #expect(checked == [true])
        // The binder the client computed is the one that went out, over the combined ClientHello.
        let offered = events.client.compactMap { e -> [UInt8]? in if case .tls13(.pskOffered(_, _, _, let binder)) = e { binder } else { nil } }
        guard case .unknown(_, let pskData)? = hello.extensions?.last,
              case .offered(_, let binders) = try PreSharedKey(extensionData: pskData, inClientHello: true) else { Issue.record("no PSK offer"); return }
        #expect(offered == binders)
    }

    @Test("A dual client offering a TLS 1.2 session meets a 1.2-only server: legacy_session_id is the session's ID and the server resumes it")
    func dualClientResumesTLS12Session() throws {
        let cache = TLSSessionCache(capacity: 8)
        var serverConfiguration = try Harness.serverConfiguration(seed: 13)
        serverConfiguration.sessionCache = cache
        var client = try Self.dualClient(seed: 13)
        var server = TLSServer(configuration: serverConfiguration)
        _ = Self.run(&client) { server.receive($0) }
        let session = try #require(client.session)
        #expect(!session.sessionID.isEmpty)
        var configuration = try Harness.clientConfiguration(seed: 14, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256])
        configuration.session = session
        var again = DualVersionClient(tls12: configuration, tls13: try Self.tls13Client())
        var serverAgain = TLSServer(configuration: serverConfiguration)
        let events = Self.run(&again) { serverAgain.receive($0) }
        #expect(again.isConnected && again.negotiatedVersion == .tls12 && again.isResumed)
        #expect(again.sentClientHello?.sessionID == session.sessionID)
        #expect(events.client.contains { if case .sessionResumed = $0 { true } else { false } })
    }

    @Test("A dual client meets a 1.2-only server: no sentinel, TLS 1.2 completes with the ClientHello actually sent in both transcripts")
    func dualAgainstTLS12Server() throws {
        for seed in UInt64(8)...10 {
            var client = try Self.dualClient(seed: seed)
            var server = TLSServer(configuration: try Harness.serverConfiguration(seed: seed))
            let events = Self.run(&client) { server.receive($0) }
            #expect(client.isConnected && server.isConnected, "seed \(seed)")
            #expect(client.negotiatedVersion == .tls12)
            #expect(Self.choices(events.client) == [VersionChoice(role: .client, version: .tls12,
                                                                   reason: .serverHelloWithoutSupportedVersions(serverVersion: .tls12))])
            let data = try client.sendApplicationData(Array("ping".utf8))
            #expect(server.receive(data.output).applicationData == Array("ping".utf8))
        }
    }

    @Test("A dual client meets a 1.2 ServerHello whose random ends with the sentinel: illegal_parameter, with the typed cause (RFC 8446 §4.1.3)")
    func sentinelRefused() throws {
        // A 1.3-capable server answering 1.2: what a ClientHello stripped of supported_versions gets.
        var client = try Self.dualClient(seed: 11)
        var server = try Self.dualServer(seed: 11)
        let hello = client.start()
        let stripped = try Self.strippingTLS13(hello.output)
        let answer = server.receive(stripped)
        #expect(Self.sentinels(answer.events).count == 1)
        let refusal = client.receive(answer.output)
        #expect(refusal.fatalAlertSent?.alert.alertDescription == .illegalParameter)
        guard case .tls13(.downgrade)? = refusal.fatalAlertSent?.cause else {
            Issue.record("cause \(String(describing: refusal.fatalAlertSent?.cause))"); return
        }
        #expect(refusal.events.contains { if case .tls13(.downgradeDetected) = $0 { true } else { false } })
        #expect(refusal.output == [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x2f], "one plaintext fatal illegal_parameter alert")
        #expect(!client.isConnected)
    }

    /// The ClientHello with supported_versions, key_share and psk_key_exchange_modes removed (what
    /// the on-path attacker of `tls13-downgrade` does), in one record.
    static func strippingTLS13(_ record: [UInt8]) throws -> [UInt8] {
        let message = Array(record.dropFirst(TLSRecord.headerLength))
        var hello = try #require(DualVersionClient.decodeClientHello(message))
        hello.extensions = hello.extensions?.filter { ![.supportedVersions, .keyShare, .pskKeyExchangeModes].contains($0.type) }
        return TLSRecord(contentType: .handshake, version: .tls10, fragment: HandshakeMessage.clientHello(hello).encoded).encoded
    }
}

/// RFC 8446 §4.1.2 after a HelloRetryRequest: the dual client's second ClientHello is its first
/// with only the allowed changes — it still offers TLS 1.2 and the 1.2 suites.
extension DualVersionTests {
    /// The ClientHello messages (header included) in plaintext handshake records of `output`.
    static func clientHellos(in output: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [], i = 0
        while i + TLSRecord.headerLength <= output.count {
            let length = Int(output[i + 3]) << 8 | Int(output[i + 4])
            let end = i + TLSRecord.headerLength + length
            guard end <= output.count else { break }
            if output[i] == 22, output[i + TLSRecord.headerLength] == HandshakeType.clientHello.rawValue {
                out.append(Array(output[(i + TLSRecord.headerLength)..<end]))
            }
            i = end
        }
        return out
    }

    @Test("After a HelloRetryRequest the dual client sends its first ClientHello again, byte for byte, with only key_share replaced (RFC 8446 §4.1.2)")
    func secondClientHelloKeepsTheTLS12Offer() throws {
        for seed in UInt64(21)...23 {
            var tls13 = try Self.tls13Client()
            tls13.groups = [.secp256r1, .x25519]
            tls13.keyShareGroups = [.secp256r1]
            var client = DualVersionClient(tls12: try Harness.clientConfiguration(seed: seed, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]),
                                           tls13: tls13)
            var serverConfiguration = try Self.tls13Server()
            serverConfiguration.groups = [.x25519]
            var server = TLS13Server(configuration: serverConfiguration, random: HMACDRBG(seed: seed + 100))
            let first = client.start().output
            let retry = server.receive(first)
            #expect(retry.events.contains { if case .helloRetryRequested(.x25519) = $0 { true } else { false } }, "seed \(seed)")
            let second = client.receive(retry.output).output
            let hellos = Self.clientHellos(in: first) + Self.clientHellos(in: second)
            try #require(hellos.count == 2, "seed \(seed)")
            let one = try #require(DualVersionClient.decodeClientHello(hellos[0]))
            let two = try #require(DualVersionClient.decodeClientHello(hellos[1]))
            guard case .unknown(_, let shareData)? = two.extensions?.first(ofType: .keyShare),
                  case .clientShares(let shares) = try KeyShare(extensionData: shareData, in: .clientHello) else {
                Issue.record("no key_share in the second ClientHello"); return
            }
            #expect(shares.map(\.group) == [.x25519], "one share, for the group the HelloRetryRequest named")
            // The first ClientHello with its key_share swapped for the second's encodes to the second's exact bytes.
            var expected = one
            expected.extensions = one.extensions?.map { $0.type == .keyShare ? .unknown(.keyShare, shareData) : $0 }
            #expect(HandshakeMessage.clientHello(expected).encoded == hellos[1], "seed \(seed): nothing else changed")
            #expect(two.cipherSuites.contains(.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256), "the 1.2 suite is still offered")
            guard case .unknown(_, let versions)? = two.extensions?.first(ofType: .supportedVersions) else { Issue.record("no supported_versions"); return }
            #expect(versions == [4, 0x03, 0x04, 0x03, 0x03], "TLS 1.3 and 1.2 still offered")
            // The server takes it (same random, same suite, §4.1.2) and the handshake completes.
            let answer = server.receive(second)
            let finished = client.receive(answer.output)
            _ = server.receive(finished.output)
            #expect(client.isConnected && server.state == .connected, "seed \(seed)")
        }
    }
}
