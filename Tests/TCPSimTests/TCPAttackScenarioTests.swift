import Testing
@testable import TCPSim

@Suite("Teaching scenarios: old duplicate SYN, ISN prediction, SYN flood")
struct TCPAttackScenarioTests {
    /// RFC 9293 §3.5 Figure 8: an old duplicate SYN (seq 90) from an earlier incarnation reaches the server
    /// before the client's real SYN (seq 100). Returns the network, the client id and the server-side id.
    private func oldDuplicateSYN(_ mode: TCPHandshakeMode) throws -> (TCPNetwork, TCPConnectionID, TCPConnectionID) {
        let config = fastConfig { $0.handshake = mode }
        let net = TCPNetwork.pair(client: config, server: config)
        let client = TCPEndpoint(Net.client, 40_000)
        let server = TCPEndpoint(Net.server, 80)
        net.inject(TCPPacket(source: Net.client, destination: Net.server,
                             segment: seg("S", seq: 90, from: 40_000, to: 80)))
        // The real SYN is slow (delayed 50 ms) so the old one is handled first.
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 1, .delay(TCPDuration.milliseconds(50))))
        let c = try net.connect(from: Net.client, localPort: 40_000, to: server)
        return (net, c, TCPFourTuple(local: server, remote: client))
    }

    @Test func threeWayHandshakeRejectsOldDuplicateSYN() throws {
        let (net, c, s) = try oldDuplicateSYN(.threeWay)
        net.run(until: TCPDuration.milliseconds(15))
        // The server answered the old SYN but waits for the third message: nothing to accept yet.
        #expect(net.state(of: s) == .synReceived && net.accept(on: Net.server, port: 80) == nil)
        net.run(until: TCPDuration.milliseconds(200))
        // The client saw ack = 91 ≠ 101 and answered RST seq 91; the server went back to LISTEN …
        let rst = try #require(net.sent(from: Net.client).first { $0.segment.flags.contains(.rst) })
        #expect(rst.segment.seq == SeqNumber(91))
        #expect(net.allTransitions.contains { $0.0 == s && $0.1 == .synReceived && $0.2 == .listen })
        // … and the real handshake then completed with the right sequence numbers.
        let accepted = try #require(net.accept(on: Net.server, port: 80))
        #expect(accepted == s && net.connection(s)?.irs == SeqNumber(100))
        #expect(net.state(of: c) == .established && net.state(of: s) == .established)
        #expect(net.allTransitions.allSatisfy { TCPState.isRFCEdge(from: $0.1, to: $0.2) })
    }

    @Test func twoWayHandshakeOpensADeadConnection() throws {
        let (net, _, s) = try oldDuplicateSYN(.twoWay)
        net.run(until: TCPDuration.milliseconds(15))
        // The strawman opened at once on the stale SYN: the application accepts a connection that the
        // client never asked for, synchronized to the old sequence number 90.
        let accepted = try #require(net.accept(on: Net.server, port: 80))
        #expect(accepted == s && net.state(of: s) == .established && net.connection(s)?.irs == SeqNumber(90))
        #expect(net.allTransitions.contains { $0.0 == s && $0.1 == .listen && $0.2 == .established })
        #expect(!TCPState.isRFCEdge(from: .listen, to: .established))
    }

    @Test func twoWayHandshakeWithAVanishedClientStaysDead() throws {
        // The old SYN comes from a host that no longer exists: nobody will ever reset the connection.
        let config = fastConfig { $0.handshake = .twoWay }
        let net = TCPNetwork.pair(server: config)
        net.inject(TCPPacket(source: Net.nowhere, destination: Net.server, segment: seg("S", seq: 90, from: 5, to: 80)))
        net.run(until: TCPDuration.milliseconds(50))
        #expect(net.accept(on: Net.server, port: 80) != nil)
        // Three-way: the same SYN only ever produces a half-open connection that times out.
        let net3 = TCPNetwork.pair()
        net3.inject(TCPPacket(source: Net.nowhere, destination: Net.server, segment: seg("S", seq: 90, from: 5, to: 80)))
        net3.runUntilIdle()
        #expect(net3.accept(on: Net.server, port: 80) == nil)
        #expect(net3.liveConnectionCount(on: Net.server) == 0)
    }

    /// The off-path attack (Morris 1985, Mitnick 1994): the attacker learns the server's current ISN from a
    /// connection of its own, spoofs a SYN from a trusted host that cannot answer, and completes the
    /// handshake blind with ack = predicted ISN + 1, carrying its command.
    private func offPathInjection(serverISN: ISNMode, seed: UInt64) throws -> (accepted: Bool, received: [UInt8]) {
        let net = TCPNetwork(random: TCPSeededRandom(seed: seed))
        net.addHost(Net.server, config: fastConfig(), isn: serverISN)
        net.addHost(Net.attacker, config: fastConfig(), isn: .random)
        // The trusted host (Net.nowhere) is silenced: segments to it go nowhere.
        try net.listen(on: Net.server, port: 513)
        let probe = try net.connect(from: Net.attacker, to: TCPEndpoint(Net.server, 513))
        net.run(until: TCPDuration.milliseconds(100))
        let observed = try #require(net.connection(probe)?.irs)
        try net.abort(probe)
        net.run(until: TCPDuration.milliseconds(200))
        if let p = net.accept(on: Net.server, port: 513) { _ = p }  // the probe, already reset

        let predicted = observed + 64_000
        let command = Array("echo + + >> .rhosts\n".utf8)
        net.inject(TCPPacket(source: Net.nowhere, destination: Net.server, segment: seg("S", seq: 5000, from: 1023, to: 513)))
        net.inject(TCPPacket(source: Net.nowhere, destination: Net.server,
                             segment: seg("PA", seq: 5001, ack: (predicted + 1).rawValue, payload: command, from: 1023, to: 513)),
                   after: TCPDuration.milliseconds(100))
        net.run(until: TCPDuration.milliseconds(400))
        let victim = TCPFourTuple(local: TCPEndpoint(Net.server, 513), remote: TCPEndpoint(Net.nowhere, 1023))
        guard let accepted = net.accept(on: Net.server, port: 513) else { return (false, []) }
        #expect(accepted == victim)
        return (true, net.read(victim))
    }

    @Test func offPathInjectionSucceedsOnlyWithPredictableISN() throws {
        let predictable = try offPathInjection(serverISN: .counter(start: 1_000_000, increment: 64_000), seed: 3)
        #expect(predictable.accepted && predictable.received == Array("echo + + >> .rhosts\n".utf8))
        for seed in UInt64(1) ... 5 {
            let random = try offPathInjection(serverISN: .random, seed: seed)
            #expect(!random.accepted && random.received.isEmpty)
        }
    }

    /// A flood of spoofed SYNs fills a 64-entry backlog; a legitimate client's SYNs are dropped until it
    /// gives up. With SYN cookies the listener answers statelessly and the client gets through.
    private func synFlood(cookies: Bool) throws -> (TCPNetwork, TCPConnectionID) {
        let net = TCPNetwork(random: TCPSeededRandom(seed: 9))
        net.addHost(Net.client, config: fastConfig(), isn: .random)
        net.addHost(Net.server, config: fastConfig(), isn: .random)
        try net.listen(on: Net.server, port: 80, backlog: 64, synCookies: cookies)
        // 64 spoofed SYNs every second for 70 s, from addresses that do not exist.
        for second in 0 ..< 70 {
            for i in 0 ..< 64 {
                let spoofed = IPv4Address(172, 16, UInt8(second), UInt8(i))
                net.inject(TCPPacket(source: spoofed, destination: Net.server,
                                     segment: seg("S", seq: UInt32(i * 1000), from: 1024 + UInt16(i), to: 80)),
                           after: TCPDuration.seconds(Int64(second)))
            }
        }
        net.run(until: TCPDuration.milliseconds(500))
        #expect(net.listener(on: Net.server, port: 80)?.halfOpen.count == 64)
        let c = try net.connect(from: Net.client, to: TCPEndpoint(Net.server, 80))
        net.run(until: TCPDuration.seconds(70))
        return (net, c)
    }

    @Test func synFloodRefusesALegitimateClient() throws {
        let (net, c) = try synFlood(cookies: false)
        #expect(net.state(of: c) == .closed && net.connection(c)?.error == .timedOut)
        let refusedSYNs = net.droppedPackets.filter { $0.1 == .backlogFull && $0.0.source == Net.client }
        #expect(refusedSYNs.count == fastConfig().maximumSYNRetransmissions + 1)
    }

    @Test func synCookiesLetTheClientThrough() throws {
        let (net, c) = try synFlood(cookies: true)
        #expect(net.state(of: c) == .established)
        #expect(net.events.contains { if case .synCookieAccepted(let id) = $0.kind { id.remote == c.local } else { false } })
        let s = try #require(net.accept(on: Net.server, port: 80))
        try net.write(c, bytes(100))
        net.run(until: net.now + TCPDuration.milliseconds(100))
        #expect(net.read(s) == bytes(100))
    }

    @Test func synCookieValidation() {
        let cookie = SYNCookie(secret: 0x1234_5678_9ABC_DEF0)
        let t = TCPFourTuple(local: TCPEndpoint(Net.server, 80), remote: TCPEndpoint(Net.client, 5555))
        let isn = cookie.isn(for: t, clientISN: SeqNumber(77), at: 0)
        #expect(cookie.validates(tuple: t, seq: SeqNumber(78), ack: isn + 1, at: TCPDuration.seconds(100)))
        #expect(!cookie.validates(tuple: t, seq: SeqNumber(78), ack: isn + 1, at: TCPDuration.seconds(200)))  // expired
        #expect(!cookie.validates(tuple: t, seq: SeqNumber(79), ack: isn + 1, at: 0))  // other client ISN
        #expect(!cookie.validates(tuple: t.reversed, seq: SeqNumber(78), ack: isn + 1, at: 0))
        #expect(!SYNCookie(secret: 1).validates(tuple: t, seq: SeqNumber(78), ack: isn + 1, at: 0))
    }
}
