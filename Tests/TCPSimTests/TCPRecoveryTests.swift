import Testing
@testable import TCPSim

@Suite("Loss, duplication, reordering, windows and timers")
struct TCPRecoveryTests {
    private func retransmissions(_ net: TCPNetwork, _ id: TCPConnectionID) -> [TCPSegment] {
        net.connectionEvents(id).compactMap { if case .retransmitted(let s, _) = $0.1 { s } else { nil } }
    }

    @Test func lostSYNIsRetransmittedAfterTheInitialRTO() throws {
        let net = TCPNetwork.pair()
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 1, .drop))
        let (c, _) = try net.establish()
        let syns = net.events.filter { if case .sent(let p) = $0.kind { p.segment.flags == .syn } else { false } }
        #expect(syns.map(\.time) == [0, TCPDuration.seconds(1)])
        // Karn: the SYN was retransmitted, so no RTT sample was taken. The timer backed off to 2 s, but
        // RFC 6298 §5.7 re-initializes RTO to 3 s once the handshake completes (initial RTO 1 s < 3 s).
        #expect(net.connection(c)?.rto.srtt == nil && net.connection(c)?.rto.rto == TCPDuration.seconds(3))
    }

    @Test func lostSYNACKIsRetransmitted() throws {
        let net = TCPNetwork.pair()
        net.addFault(TCPFaultRule(from: Net.server, to: Net.client, nth: 1, .drop))
        let (c, s) = try net.establish()
        #expect(net.state(of: c) == .established && net.state(of: s) == .established)
        let synAcks = net.sent(from: Net.server).filter { $0.segment.flags.compact == "SA" }
        // Both ends time out at about 1 s: the server's own retransmission and its answer to the client's
        // retransmitted SYN (sent at once, without waiting for its timer).
        #expect(synAcks.count == 3)
        let answered = net.connectionEvents(s).filter { if case .retransmitted = $0.1 { true } else { false } }
        #expect(answered.count == 1)
    }

    @Test func droppedSecondSegmentIsRetransmittedAndLaterOnesBuffered() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.mss = 100 })
        let (c, s) = try net.establish()
        // Client→server segments so far: SYN, ACK. Drop the 2nd data segment (the 4th overall).
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 4, .drop))
        try net.write(c, bytes(500))
        net.run(until: net.now + TCPDuration.seconds(3))
        #expect(net.read(s) == bytes(500))
        let re = retransmissions(net, c)
        #expect(re.count == 1 && re.first?.payload.count == 100)
        let buffered = net.connectionEvents(s).filter { if case .outOfOrderBuffered = $0.1 { true } else { false } }
        #expect(buffered.count == 3)
        #expect(net.droppedPackets.first?.1 == .scriptedLoss)
    }

    @Test func reorderedSegmentsAreDeliveredInOrder() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.mss = 100 })
        let (c, s) = try net.establish()
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 3, .delay(TCPDuration.milliseconds(30))))
        try net.write(c, bytes(300))
        net.run(until: net.now + TCPDuration.milliseconds(200))
        #expect(net.read(s) == bytes(300))
        #expect(retransmissions(net, c).isEmpty)
    }

    @Test func duplicateSegmentIsDiscardedAndReACKed() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 3, .duplicate))
        try net.write(c, bytes(40))
        net.run(until: net.now + TCPDuration.milliseconds(200))
        #expect(net.read(s) == bytes(40))
        let dup = net.connectionEvents(s).filter { if case .unacceptableSegment = $0.1 { true } else { false } }
        #expect(dup.count == 1)
        let acks = net.sent(from: Net.server).filter { $0.segment.ack == SeqNumber(141) }
        #expect(acks.count == 2)
    }

    @Test func lostFINIsRetransmitted() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 3, .drop))
        try net.close(c)
        net.run(until: net.now + TCPDuration.seconds(2))
        #expect(net.state(of: s) == .closeWait)
        #expect(retransmissions(net, c).map(\.flags.compact) == ["FA"])
    }

    @Test func retransmittedFINIsReACKedInTimeWait() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        try net.close(c)
        net.run(until: net.now + TCPDuration.milliseconds(100))
        // Client→server so far: SYN, ACK, FIN, ACK-of-nothing? No: SYN, ACK, FIN. Drop the last ACK (4th).
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 4, .drop))
        try net.close(s)
        net.runUntilIdle()
        #expect(retransmissions(net, s).map(\.flags.compact) == ["FA"])
        #expect(net.connectionEvents(c).contains { $0.1 == .finReacknowledgedInTimeWait })
        #expect(net.state(of: c) == .closed && net.state(of: s) == .closed && net.connection(s)?.error == nil)
    }

    @Test func rtoBacksOffAndGivesUp() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.maximumRetransmissions = 3 })
        let (c, _) = try net.establish()
        net.setLink(from: Net.client, to: Net.server, TCPLink(lossRate: 1))
        try net.write(c, bytes(10))
        net.runUntilIdle()
        let backoffs = net.connectionEvents(c).compactMap { if case .rtoBackedOff(let r) = $0.1 { r } else { nil } }
        #expect(backoffs.count == 3 && zip(backoffs, backoffs.dropFirst()).allSatisfy { $1 == 2 * $0 })
        let sends = net.events.filter { if case .sent(let p) = $0.kind { !p.segment.payload.isEmpty } else { false } }.map(\.time)
        let gaps = zip(sends, sends.dropFirst()).map { $1 - $0 }
        #expect(gaps.count == 3 && gaps[1] == 2 * gaps[0] && gaps[2] == 2 * gaps[1])
        #expect(net.connection(c)?.error == .timedOut && net.state(of: c) == .closed)
    }

    @Test func rttEstimatorFollowsRFC6298() {
        var e = RTOEstimator(initial: 1_000_000, minimum: 1, maximum: 60_000_000, granularity: 1000)
        #expect(e.rto == 1_000_000 && e.srtt == nil)
        e.sample(100_000)
        #expect(e.srtt == 100_000 && e.rttvar == 50_000 && e.rto == 300_000)
        e.sample(200_000)  // RTTVAR = 3/4·50 + 1/4·|100−200| = 62.5 ms; SRTT = 7/8·100 + 1/8·200 = 112.5 ms
        #expect(e.rttvar == 62_500 && e.srtt == 112_500 && e.rto == 362_500)
        e.backOff()
        #expect(e.rto == 725_000)
        var clamp = RTOEstimator(initial: 1_000_000, minimum: 1_000_000, maximum: 2_000_000, granularity: 1000)
        clamp.sample(1000)
        #expect(clamp.rto == 1_000_000)
        clamp.backOff(); clamp.backOff()
        #expect(clamp.rto == 2_000_000)
    }

    @Test func zeroWindowProbeAndWindowUpdate() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.mss = 500 },
                                  server: fastConfig { $0.receiveBufferSize = 1000 })
        let (c, s) = try net.establish()
        try net.write(c, bytes(3000))
        net.run(until: net.now + TCPDuration.seconds(3))
        // The server's application has not read: the window closed after 1000 octets.
        #expect(net.connection(s)?.readableCount == 1000 && net.connection(s)?.receiveWindow == 0)
        #expect(net.connectionEvents(s).contains { $0.1 == .receiveWindowZero })
        #expect(net.connectionEvents(c).contains { $0.1 == .peerWindowZero })
        #expect(net.connectionEvents(c).contains { $0.1 == .windowProbeSent })
        #expect(net.connection(c)?.unacknowledgedCount == 2000)
        // Reading opens the window; the update restarts the transfer.
        var got: [UInt8] = []
        for _ in 0 ..< 20 {
            got += net.read(s)
            net.run(until: net.now + TCPDuration.milliseconds(100))
        }
        got += net.read(s)
        #expect(got == bytes(3000))
        #expect(net.connectionEvents(s).contains { if case .windowUpdateSent = $0.1 { true } else { false } })
    }

    @Test func lostWindowUpdateIsRecoveredByTheProbe() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.mss = 500 },
                                  server: fastConfig { $0.receiveBufferSize = 1000 })
        let (c, s) = try net.establish()
        try net.write(c, bytes(2000))
        net.run(until: net.now + TCPDuration.milliseconds(300))
        let serverSent = net.sent(from: Net.server).count
        net.addFault(TCPFaultRule(from: Net.server, to: Net.client, nth: serverSent + 1, .drop))  // the update
        var got = net.read(s)
        net.run(until: net.now + TCPDuration.seconds(10))
        got += net.read(s)
        net.run(until: net.now + TCPDuration.seconds(10))
        got += net.read(s)
        #expect(got == bytes(2000))
        #expect(net.connectionEvents(c).contains { $0.1 == .windowProbeSent })
    }

    @Test func delayedACK() throws {
        let delay = TCPDuration.milliseconds(40)
        let net = TCPNetwork.pair(server: fastConfig { $0.delayedACK = delay; $0.mss = 100 }, link: TCPLink(latency: 1000))
        let (c, s) = try net.establish()
        let start = net.now
        try net.write(c, bytes(10))
        net.run(until: net.now + TCPDuration.milliseconds(100))
        let ackTime = try #require(net.events.last { if case .sent(let p) = $0.kind { p.source == Net.server } else { false } }?.time)
        #expect(ackTime == start + 1000 + delay)
        // Two full segments: the second is acknowledged at once.
        let mark = net.events.count
        try net.write(c, bytes(200))
        net.run(until: net.now + TCPDuration.milliseconds(100))
        let acks = net.events[mark...].filter { if case .sent(let p) = $0.kind { p.source == Net.server } else { false } }
        #expect(acks.count == 1 && acks.first?.time == net.events[mark].time + 1000)
        #expect(net.read(s).count == 210)
    }
}
