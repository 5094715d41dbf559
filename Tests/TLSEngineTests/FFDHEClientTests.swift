import Testing
import TLSCrypto
@testable import TLSEngine

/// RFC 7919 §3, the client's side: it names FFDHE groups in supported_groups when it offers DHE
/// suites, recognises the server's group by dh_p and dh_g, and applies its policy to a group it did
/// not name. The default configuration names none, so the simulation's ClientHello is unchanged.
@Suite("FFDHE offered by the client (RFC 7919 §3)")
struct FFDHEClientTests {
    static let dheSuite = CipherSuite.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256

    static func offeredGroups(_ config: TLSClientConfiguration) -> [NamedGroup]? {
        var client = TLSClient(configuration: config)
        let (hello, _) = EncryptThenMACTests.hellos(client.start())
        for case .supportedGroups(let groups) in hello?.extensions ?? [] { return groups }
        return nil
    }

    @Test("supported_groups names the FFDHE groups after the curves only when a DHE suite is offered; none by default")
    func clientHelloOffer() throws {
        var config = try Harness.clientConfiguration(seed: 80, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, Self.dheSuite])
        #expect(Self.offeredGroups(config) == [.x25519, .secp256r1], "the default offer is unchanged")
        config.finiteFieldGroups = [.ffdhe2048, .ffdhe3072, .ffdhe2048, .secp384r1]
        #expect(Self.offeredGroups(config) == [.x25519, .secp256r1, .ffdhe2048, .ffdhe3072],
                "repeats and non-FFDHE code points are dropped")
        config.cipherSuites = [Self.dheSuite]
        #expect(Self.offeredGroups(config) == [.ffdhe2048, .ffdhe3072], "no ECDHE suite: no curves, no ec_point_formats")
        config.cipherSuites = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
        #expect(Self.offeredGroups(config) == [.x25519, .secp256r1], "no DHE suite: no FFDHE groups")
        config.cipherSuites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        #expect(Self.offeredGroups(config) == nil)
    }

    @Test("the server uses the first group it accepts of those named; the client recognises it", arguments: [
        ([NamedGroup.ffdhe2048, .ffdhe3072], "ffdhe2048"), ([.ffdhe3072], "ffdhe3072"), ([.ffdhe4096, .ffdhe2048], "ffdhe2048"),
    ])
    func namedGroupNegotiated(offer: [NamedGroup], expected: String) throws {
        var client = try Harness.clientConfiguration(seed: 81, suites: [Self.dheSuite])
        client.finiteFieldGroups = offer
        client.unofferedDHGroups = .refuse
        let run = Harness.run(client: client, server: try Harness.serverConfiguration(seed: 81))
        #expect(run.outcome == .connected, "\(run.outcome)")
        let agreed = run.clientEvents.compactMap { event -> String? in
            if case .derived(.dhAgreement(_, _, let group, _, _, _, _)) = event { return group } else { return nil }
        }
        #expect(agreed == [expected], "the client named the group it recognised by dh_p and dh_g")
    }

    /// The client names FFDHE groups, but its ClientHello reaches the server without them (as an
    /// older server would read it): the server answers in its own group, RFC 3526's MODP 2048.
    static func runWithOfferStripped(policy: UnofferedDHGroupPolicy, seed: UInt64) throws -> (TLSClient, [TLSEvent]) {
        var config = try Harness.clientConfiguration(seed: seed, suites: [Self.dheSuite])
        config.finiteFieldGroups = [.ffdhe2048, .ffdhe3072]
        config.unofferedDHGroups = policy
        var client = TLSClient(configuration: config)
        var server = TLSServer(configuration: try Harness.serverConfiguration(seed: seed))
        let start = client.start()
        var hello = try #require(EncryptThenMACTests.hellos(start).0)
        hello.extensions = hello.extensions?.filter { if case .supportedGroups = $0 { return false } else { return true } }
        var step = server.receive(TLSRecord(contentType: .handshake, fragment: HandshakeMessage.clientHello(hello).encoded).encoded)
        var clientEvents = start.events
        for _ in 0 ..< 4 where !step.output.isEmpty {
            let reply = client.receive(step.output)
            clientEvents += reply.events
            guard !reply.output.isEmpty else { break }
            step = server.receive(reply.output)
        }
        return (client, clientEvents)
    }

    @Test("a group the client did not name: refused with insufficient_security, or accepted by the default policy")
    func groupNotOffered() throws {
        let (refusing, events) = try Self.runWithOfferStripped(policy: .refuse, seed: 82)
        #expect(refusing.failureAlert == .fatal(.insufficientSecurity), "\(String(describing: refusing.failureAlert))")
        let causes = events.compactMap { event -> AlertCause? in
            if case .alertSent(_, let cause) = event { return cause } else { return nil }
        }
        #expect(causes.contains {
            if case .failure(.peerIncompatible(.dhGroupNotOffered(group: let group, bits: _, offered: _))) = $0 { group.contains("modp2048") } else { false }
        }, "\(causes)")

        // Accepted, the handshake goes on past the ServerKeyExchange (the altered ClientHello then makes
        // the Finished messages disagree, which is the tampering test's business, not this one's).
        let (accepting, acceptEvents) = try Self.runWithOfferStripped(policy: .acceptIfLargeEnough, seed: 83)
        #expect(accepting.failureAlert != .fatal(.insufficientSecurity))
        let sentKeyExchange = acceptEvents.contains { event in
            if case .handshakeSent(.clientKeyExchange, _) = event { return true } else { return false }
        }
        #expect(sentKeyExchange)
        let groups = acceptEvents.compactMap { event -> String? in
            if case .derived(.dhAgreement(_, _, let group, _, _, _, _)) = event { return group } else { return nil }
        }
        #expect(groups == [DHGroup.modp2048.name])
    }
}
