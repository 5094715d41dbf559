import Testing
@testable import TCPSim

@Suite("Canonical sequences over the simulated network")
struct TCPSequenceTests {
    @Test func threeWayHandshake() throws {
        let net = TCPNetwork.pair(link: TCPLink(latency: TCPDuration.milliseconds(50)))
        let (c, s) = try net.establish()
        let packets = net.sentPackets
        #expect(packets.map(\.segment.flags.compact) == ["S", "SA", "A"])
        let x = packets[0].segment.seq, y = packets[1].segment.seq
        #expect(x == SeqNumber(100) && packets[0].segment.ack == nil)
        #expect(packets[1].segment.ack == x + 1)                       // SYN-ACK ack = x + 1
        #expect(packets[2].segment.seq == x + 1 && packets[2].segment.ack == y + 1)
        #expect(net.state(of: c) == .established && net.state(of: s) == .established)
        #expect(net.transitions(c).map(\.1) == [.synSent, .established])
        #expect(net.transitions(s).map(\.1) == [.listen, .synReceived, .established])
        // The client measured one round trip (100 ms): SRTT = R, RTTVAR = R/2, RTO = max(min, SRTT + 4·RTTVAR).
        let rto = try #require(net.connection(c)?.rto)
        #expect(rto.srtt == 100_000 && rto.rttvar == 50_000 && rto.rto == 300_000)
    }

    @Test func fiftyBytesAdvanceSeqByFifty() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        let before = try #require(net.connection(c)?.sndNxt)
        try net.write(c, bytes(50))
        net.run(until: net.now + TCPDuration.milliseconds(100))
        let data = try #require(net.sent(from: Net.client).last(where: { !$0.segment.payload.isEmpty }))
        #expect(data.segment.seq == before && data.segment.payload.count == 50 && data.segment.flags.compact == "PA")
        #expect(net.connection(c)?.sndNxt == before + 50)
        let ack = try #require(net.sent(from: Net.server).last)
        #expect(ack.segment.ack == before + 50)
        #expect(net.read(s) == bytes(50))
    }

    @Test func mssSegmentation() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.mss = 500 }, server: fastConfig { $0.mss = 1000 })
        let (c, s) = try net.establish()
        try net.write(c, bytes(1800))
        try net.write(s, bytes(1800))
        net.run(until: net.now + TCPDuration.seconds(1))
        // The effective MSS is the smaller of ours and the peer's announced MSS: 500 both ways.
        let cs = net.sent(from: Net.client).map(\.segment.payload.count).filter { $0 > 0 }
        let ss = net.sent(from: Net.server).map(\.segment.payload.count).filter { $0 > 0 }
        #expect(cs == [500, 500, 500, 300] && ss == [500, 500, 500, 300])
        #expect(net.read(s) == bytes(1800) && net.read(c) == bytes(1800))
    }

    @Test func fourWayCloseEndsClosedAfterTwoMSL() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        try net.close(c)
        net.run(until: net.now + TCPDuration.milliseconds(100))
        #expect(net.state(of: c) == .finWait2 && net.state(of: s) == .closeWait)
        try net.close(s)
        net.runUntilIdle()
        let flags = net.sentPackets.map(\.segment.flags.compact)
        #expect(Array(flags.suffix(4)) == ["FA", "A", "FA", "A"])
        #expect(net.transitions(c).map(\.1) == [.synSent, .established, .finWait1, .finWait2, .timeWait, .closed])
        #expect(net.transitions(s).map(\.1).suffix(3) == [.closeWait, .lastAck, .closed])
        let events = net.connectionEvents(c)
        let entered = try #require(events.first { if case .stateChanged(_, .timeWait, _) = $0.1 { true } else { false } })
        let left = try #require(events.first { if case .stateChanged(.timeWait, .closed, _) = $0.1 { true } else { false } })
        #expect(left.0 - entered.0 == 2 * fastConfig().msl)
        #expect(net.connection(c)?.error == nil && net.connection(s)?.error == nil)
    }

    @Test func simultaneousOpen() throws {
        let net = TCPNetwork.pair()
        let a = try net.connect(from: Net.client, localPort: 7000, to: TCPEndpoint(Net.server, 8000))
        let b = try net.connect(from: Net.server, localPort: 8000, to: TCPEndpoint(Net.client, 7000))
        net.run(until: TCPDuration.milliseconds(200))
        #expect(net.state(of: a) == .established && net.state(of: b) == .established)
        #expect(net.transitions(a).map(\.1) == [.synSent, .synReceived, .established])
        #expect(net.transitions(b).map(\.1) == [.synSent, .synReceived, .established])
        try net.write(a, bytes(10))
        net.run(until: net.now + TCPDuration.milliseconds(100))
        #expect(net.read(b) == bytes(10))
    }

    @Test(arguments: 0 ..< 30)
    func simultaneousOpenAndCloseUnderLoss(seed: Int) throws {
        let config = fastConfig { $0.maximumSYNRetransmissions = 10; $0.maximumRetransmissions = 12 }
        let net = TCPNetwork.pair(seed: UInt64(seed), client: config, server: config,
                                  link: TCPLink(latency: TCPDuration.milliseconds(10), lossRate: 0.2, duplicateRate: 0.1,
                                                jitter: TCPDuration.milliseconds(10)),
                                  clientISN: .random, serverISN: .random)
        let a = try net.connect(from: Net.client, localPort: 7000, to: TCPEndpoint(Net.server, 8000))
        let b = try net.connect(from: Net.server, localPort: 8000, to: TCPEndpoint(Net.client, 7000))
        try net.write(a, bytes(2000, seed: 1))
        try net.write(b, bytes(2000, seed: 2))
        var gotA: [UInt8] = [], gotB: [UInt8] = []
        var closed = false
        while net.step() {
            gotA += net.read(a)
            gotB += net.read(b)
            if !closed && net.state(of: a) == .established && net.state(of: b) == .established {
                try net.close(a)
                try net.close(b)
                closed = true
            }
        }
        #expect(gotB == bytes(2000, seed: 1) && gotA == bytes(2000, seed: 2), "seed \(seed)")
        #expect(net.state(of: a) == .closed && net.state(of: b) == .closed, "seed \(seed)")
        #expect(net.allTransitions.allSatisfy { TCPState.isRFCEdge(from: $0.1, to: $0.2) })
    }

    @Test func simultaneousClose() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        try net.close(c)
        try net.close(s)
        net.run(until: net.now + TCPDuration.milliseconds(100))
        #expect(net.state(of: c) == .timeWait && net.state(of: s) == .timeWait)
        #expect(net.transitions(c).map(\.1).suffix(3) == [.finWait1, .closing, .timeWait])
        #expect(net.transitions(s).map(\.1).suffix(3) == [.finWait1, .closing, .timeWait])
        net.runUntilIdle()
        #expect(net.state(of: c) == .closed && net.state(of: s) == .closed)
    }

    /// Regression (found by the property test): our FIN is queued behind data the peer's window holds
    /// back when the peer's FIN arrives. FIN-WAIT-1 → CLOSING must still send the data, then the FIN.
    @Test func closingWithDataStillQueued() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.mss = 500 }, server: fastConfig { $0.receiveBufferSize = 1000 })
        let (c, s) = try net.establish()
        try net.write(c, bytes(3000))
        try net.close(c)
        try net.close(s)
        net.run(until: net.now + TCPDuration.milliseconds(100))
        #expect(net.state(of: c) == .closing && net.connection(c)?.finSeq == nil)
        var got: [UInt8] = []
        while net.step() { got += net.read(s) }
        got += net.read(s)
        #expect(got == bytes(3000))
        #expect(net.state(of: c) == .closed && net.state(of: s) == .closed)
        #expect(net.transitions(c).map(\.1).suffix(4) == [.finWait1, .closing, .timeWait, .closed])
    }

    /// A classic teaching case: the client is done (FIN) but the server still has data. The ACK of
    /// the FIN and the server's own FIN are separate because the server's stream is still open.
    @Test func serverKeepsSendingAfterClientFIN() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        try net.write(c, Array("GET / HTTP/1.0\r\n\r\n".utf8))
        try net.close(c)
        net.run(until: net.now + TCPDuration.milliseconds(100))
        #expect(net.state(of: s) == .closeWait && net.state(of: c) == .finWait2)
        #expect(net.read(s).count == 18 && net.connection(s)?.isEndOfStream == true)
        let reply = bytes(4000)
        try net.write(s, reply)
        net.run(until: net.now + TCPDuration.milliseconds(100))
        #expect(net.read(c) == reply && net.state(of: c) == .finWait2)
        try net.close(s)
        net.runUntilIdle()
        #expect(net.state(of: c) == .closed && net.state(of: s) == .closed)
        // The client ACKed the server's data while in FIN-WAIT-2; the server's FIN came last.
        let serverFlags = net.sent(from: Net.server).map(\.segment.flags.compact)
        #expect(serverFlags.last == "FA" && serverFlags.filter { $0 == "FA" }.count == 1)
    }

    @Test func connectionRefusedOnClosedPort() throws {
        let net = TCPNetwork.pair()
        let c = try net.connect(from: Net.client, to: TCPEndpoint(Net.server, 81))
        net.runUntilIdle()
        #expect(net.state(of: c) == .closed && net.connection(c)?.error == .refused)
        #expect(net.sentPackets.map(\.segment.flags.compact) == ["S", "RA"])
    }

    @Test func abortSendsRSTAndResetsThePeer() throws {
        let net = TCPNetwork.pair()
        let (c, s) = try net.establish()
        try net.abort(c)
        net.runUntilIdle()
        #expect(net.connection(c)?.error == .aborted && net.connection(s)?.error == .reset)
        #expect(net.state(of: s) == .closed)
        #expect(net.sent(from: Net.client).last?.segment.flags == .rst)
    }
}
