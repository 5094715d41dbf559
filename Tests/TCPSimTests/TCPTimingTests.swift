import Testing
@testable import TCPSim

/// RFC 6298 in the simulator: Karn's rule on every path that sends a segment twice, §5.7's 3-second RTO
/// after a SYN timeout, and RTT samples over a link whose two directions have different latencies.
@Suite("RTT measurement: Karn's rule, RFC 6298 §5.7, asymmetric links")
struct TCPTimingTests {
    private func samples(_ net: TCPNetwork, _ id: TCPConnectionID, after t: TCPTime = 0) -> [TCPTime] {
        net.connectionEvents(id).compactMap { if $0.0 >= t, case .rttSample(let rtt, _, _, _) = $0.1 { rtt } else { nil } }
    }

    @Test func synACKResentForADuplicateSYNIsNotTimed() throws {
        // The server's SYN-ACK is lost. The client (RTO 500 ms) times out first and resends its SYN; the
        // server answers that duplicate SYN with a second SYN-ACK at once. The ACK that follows may
        // acknowledge either copy, so Karn's rule forbids a sample: the server has no SRTT yet.
        let net = TCPNetwork.pair(client: fastConfig { $0.initialRTO = TCPDuration.milliseconds(500) },
                                  server: fastConfig { $0.initialRTO = TCPDuration.seconds(1) })
        net.addFault(TCPFaultRule(from: Net.server, to: Net.client, nth: 1, .drop))
        let (c, s) = try net.establish()
        #expect(net.state(of: c) == .established && net.state(of: s) == .established)
        let synAcks = net.sent(from: Net.server).filter { $0.segment.flags.compact == "SA" }
        #expect(synAcks.count == 2)
        // Established well before the server's own 1 s timer: the second SYN-ACK answered the duplicate SYN.
        #expect(net.connectionEvents(s).allSatisfy { if case .retransmitted = $0.1 { false } else { true } })
        #expect(samples(net, s).isEmpty)
        #expect(net.connection(s)?.rto.srtt == nil)
        // The client's own SYN was retransmitted too: no sample there either.
        #expect(samples(net, c).isEmpty && net.connection(c)?.rto.srtt == nil)
    }

    @Test func synACKOfASimultaneousOpenIsNotTimed() throws {
        // SYN-SENT, the peer's SYN crosses ours: we send SYN-ACK, i.e. our SYN a second time. The ACK
        // of it (at 900 ms) must not be taken as a 900 ms round trip of the first SYN.
        var c = try Fixture.synSent()
        _ = c.segmentArrives(seg("S", seq: 300, from: 80, to: 1000), at: TCPDuration.milliseconds(400))
        #expect(c.state == .synReceived)
        let out = c.segmentArrives(seg("A", seq: 301, ack: 101, from: 80, to: 1000), at: TCPDuration.milliseconds(900))
        #expect(c.state == .established)
        #expect(!out.events.contains { if case .rttSample = $0 { true } else { false } })
        #expect(c.rto.srtt == nil)
    }

    @Test func retransmittedDataSegmentIsNotTimed() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        let srtt = try #require(net.connection(c)?.rto.srtt)
        #expect(srtt == TCPDuration.milliseconds(20))  // the handshake's sample: 10 ms each way
        // Client→server so far: SYN, ACK. Drop the only data segment; its retransmission is ACKed.
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 3, .drop))
        let start = net.now
        try net.write(c, bytes(100))
        net.run(until: start + TCPDuration.seconds(2))
        #expect(net.read(s) == bytes(100))
        let re = net.connectionEvents(c).filter { if case .retransmitted = $0.1 { true } else { false } }
        #expect(re.count == 1)
        #expect(net.connection(c)?.sndUna == net.connection(c)?.sndNxt)
        #expect(samples(net, c, after: start).isEmpty)
        #expect(net.connection(c)?.rto.srtt == srtt)
    }

    @Test func rtoIsReinitializedToThreeSecondsAfterASYNTimeout() throws {
        // RFC 6298 §5.7: the SYN timed out with an initial RTO of 1 s (< 3 s), so RTO = 3 s once the
        // handshake completes (and not the backed-off 2 s).
        let net = TCPNetwork.pair()
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 1, .drop))
        let (c, _) = try net.establish()
        #expect(net.connection(c)?.rto.rto == TCPDuration.seconds(3))
        let events = net.connectionEvents(c).map(\.1)
        #expect(events.contains(.rtoReinitialized(rto: TCPDuration.seconds(3))))
        // It came with the move to ESTABLISHED.
        let established = try #require(events.firstIndex { if case .stateChanged(_, .established, _) = $0 { true } else { false } })
        #expect(events[established + 1] == .rtoReinitialized(rto: TCPDuration.seconds(3)))
        // The first data round trip then gives the first real sample (RFC 6298 §2.2).
        let start = net.now
        try net.write(c, bytes(10))
        net.run(until: start + TCPDuration.milliseconds(100))
        #expect(samples(net, c, after: start) == [TCPDuration.milliseconds(20)])
        #expect(net.connection(c)?.rto.rto == TCPDuration.milliseconds(200))  // 20 + 4·10 ms, at least the 200 ms floor
    }

    @Test func passiveSideTooReinitializesAfterItsSYNACKTimedOut() throws {
        // The server's SYN-ACK is lost and its own timer (500 ms, before the client's 1 s) resends it.
        let net = TCPNetwork.pair(server: fastConfig { $0.initialRTO = TCPDuration.milliseconds(500) })
        net.addFault(TCPFaultRule(from: Net.server, to: Net.client, nth: 1, .drop))
        let (_, s) = try net.establish()
        #expect(net.connectionEvents(s).contains { if case .retransmitted = $0.1 { true } else { false } })
        #expect(net.connection(s)?.rto.rto == TCPDuration.seconds(3))
    }

    @Test func noReinitializationWithoutASYNTimeoutOrWithAThreeSecondInitialRTO() throws {
        let clean = TCPNetwork.pair()
        let (c, _) = try clean.establish()
        #expect(!clean.connectionEvents(c).contains { if case .rtoReinitialized = $0.1 { true } else { false } })
        #expect(clean.connection(c)?.rto.rto == TCPDuration.milliseconds(200))

        let slow = TCPNetwork.pair(client: fastConfig { $0.initialRTO = TCPDuration.seconds(3) })
        slow.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 1, .drop))
        let (c2, _) = try slow.establish()
        #expect(!slow.connectionEvents(c2).contains { if case .rtoReinitialized = $0.1 { true } else { false } })
        #expect(slow.connection(c2)?.rto.rto == TCPDuration.seconds(6))  // backed off once, no §5.7 reset
    }

    @Test func rttSampleIsTheSumOfBothDirections() throws {
        let net = TCPNetwork.pair()
        net.setLink(from: Net.client, to: Net.server, TCPLink(latency: TCPDuration.milliseconds(10)))
        net.setLink(from: Net.server, to: Net.client, TCPLink(latency: TCPDuration.milliseconds(45)))
        let (c, s) = try net.establish()
        // Client: SYN out at 0, SYN-ACK back at 10 + 45 ms. Server: SYN-ACK out at 10, ACK in at 65.
        #expect(samples(net, c) == [TCPDuration.milliseconds(55)])
        #expect(samples(net, s) == [TCPDuration.milliseconds(55)])
        let start = net.now
        try net.write(s, bytes(10))
        try net.write(c, bytes(10))
        net.run(until: start + TCPDuration.milliseconds(200))
        #expect(samples(net, c, after: start) == [TCPDuration.milliseconds(55)])
        #expect(samples(net, s, after: start) == [TCPDuration.milliseconds(55)])
    }
}

/// RFC 9293 §3.10.7's silent drops are recorded as events, so a trace shows why nothing happened.
@Suite("Segments discarded without a reply")
struct TCPDiscardTests {
    private func discarded(_ out: TCPOutput) -> [TCPDiscardReason] {
        out.events.compactMap { if case .segmentDiscarded(let r) = $0 { r } else { nil } }
    }

    @Test func listen() throws {
        var l = try Fixture.listen()
        let rst = l.segmentArrives(seg("R", seq: 5), at: 0)
        #expect(rst.segments.isEmpty && discarded(rst) == [.resetInListen] && l.state == .listen)
        let fin = l.segmentArrives(seg("F", seq: 5), at: 0)
        #expect(fin.segments.isEmpty && discarded(fin) == [.noSYNInListen] && l.state == .listen)
        // An ACK is not discarded silently: it is answered with RST.
        let ack = l.segmentArrives(seg("A", seq: 5, ack: 9), at: 0)
        #expect(ack.segments.count == 1 && discarded(ack).isEmpty)
    }

    @Test func synSent() throws {
        let c = try Fixture.synSent()
        var a = c
        let badRST = a.segmentArrives(seg("RA", seq: 300, ack: 50, from: 80, to: 1000), at: 0)
        #expect(badRST.segments.isEmpty && discarded(badRST) == [.resetWithUnacceptableACK] && a.state == .synSent)
        let bareRST = a.segmentArrives(seg("R", seq: 300, from: 80, to: 1000), at: 0)
        #expect(bareRST.segments.isEmpty && discarded(bareRST) == [.resetWithoutACKInSynSent] && a.state == .synSent)
        let ackOnly = a.segmentArrives(seg("A", seq: 300, ack: 101, from: 80, to: 1000), at: 0)
        #expect(ackOnly.segments.isEmpty && discarded(ackOnly) == [.noSYNInSynSent] && a.state == .synSent)
        // The SYN-ACK still works afterwards.
        _ = a.segmentArrives(seg("SA", seq: 300, ack: 101, from: 80, to: 1000), at: 0)
        #expect(a.state == .established)
    }

    @Test func synchronized() throws {
        var e = try Fixture.established()
        let rst = e.segmentArrives(seg("R", seq: 500_000), at: 0)
        #expect(rst.segments.isEmpty && discarded(rst) == [.resetOutOfWindow] && e.state == .established)
        let noACK = e.segmentArrives(seg("P", seq: 101, payload: bytes(4)), at: 0)
        #expect(noACK.segments.isEmpty && discarded(noACK) == [.noACK] && e.readableCount == 0)
    }

    @Test func listenerInTheNetwork() throws {
        let net = TCPNetwork.pair()
        for flags in ["F", "R"] {
            net.inject(TCPPacket(source: Net.client, destination: Net.server, segment: seg(flags, seq: 7)))
        }
        net.run(until: TCPDuration.milliseconds(50))
        let reasons = net.events.compactMap { if case .connection(_, .segmentDiscarded(let r)) = $0.kind { r } else { nil } }
        #expect(reasons == [.noSYNInListen, .resetInListen])
        #expect(net.sent(from: Net.server).isEmpty)
        #expect(net.liveConnectionCount(on: Net.server) == 0)
        #expect(net.events.map(String.init(describing:)).contains { $0.hasSuffix("segment discarded: neither SYN nor ACK in LISTEN") })
    }
}
