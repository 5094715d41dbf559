import Testing
@testable import TCPSim

/// One fixture per RFC 9293 state, seen from the server (port 80, ISS 300) talking to a client
/// (port 1000, ISS 100), except SYN-SENT which is the client. Each test feeds one kind of segment and
/// checks the reply and the new state (RFC 9293 §3.10.7).
enum Fixture {
    static let config = fastConfig()
    static let t0: TCPTime = 0

    static func closed() -> TCPConnection { TCPConnection(localPort: 80, remotePort: 1000, config: config) }

    static func listen() throws -> TCPConnection {
        var c = TCPConnection(localPort: 80, config: config)
        _ = try c.openPassive(iss: SeqNumber(300), at: t0)
        return c
    }

    static func synSent() throws -> TCPConnection {
        var c = TCPConnection(localPort: 1000, remotePort: 80, config: config)
        _ = try c.openActive(iss: SeqNumber(100), at: t0)
        return c
    }

    static func synReceived() throws -> TCPConnection {
        var c = try listen()
        _ = c.segmentArrives(seg("S", seq: 100), at: t0)
        return c
    }

    static func established() throws -> TCPConnection {
        var c = try synReceived()
        _ = c.segmentArrives(seg("A", seq: 101, ack: 301), at: t0)
        return c
    }

    /// Server closed first: FIN seq 301 sent, SND.NXT = 302.
    static func finWait1() throws -> TCPConnection {
        var c = try established()
        _ = try c.close(at: t0)
        return c
    }

    static func finWait2() throws -> TCPConnection {
        var c = try finWait1()
        _ = c.segmentArrives(seg("A", seq: 101, ack: 302), at: t0)
        return c
    }

    /// Client closed first: its FIN (seq 101) received.
    static func closeWait() throws -> TCPConnection {
        var c = try established()
        _ = c.segmentArrives(seg("FA", seq: 101, ack: 301), at: t0)
        return c
    }

    static func lastAck() throws -> TCPConnection {
        var c = try closeWait()
        _ = try c.close(at: t0)
        return c
    }

    /// Simultaneous close: our FIN out, the peer's FIN arrives before the ACK of ours.
    static func closing() throws -> TCPConnection {
        var c = try finWait1()
        _ = c.segmentArrives(seg("FA", seq: 101, ack: 301), at: t0)
        return c
    }

    static func timeWait() throws -> TCPConnection {
        var c = try finWait2()
        _ = c.segmentArrives(seg("FA", seq: 101, ack: 302), at: t0)
        return c
    }
}

private func only(_ out: TCPOutput) -> TCPSegment? { out.segments.count == 1 ? out.segments.first : nil }

@Suite("Per-state fixtures (RFC 9293 §3.10.7)")
struct TCPStateFixtureTests {
    @Test func fixturesAreInTheirStates() throws {
        #expect(Fixture.closed().state == .closed)
        #expect(try Fixture.listen().state == .listen)
        #expect(try Fixture.synSent().state == .synSent)
        #expect(try Fixture.synReceived().state == .synReceived)
        #expect(try Fixture.established().state == .established)
        #expect(try Fixture.finWait1().state == .finWait1)
        #expect(try Fixture.finWait2().state == .finWait2)
        #expect(try Fixture.closeWait().state == .closeWait)
        #expect(try Fixture.closing().state == .closing)
        #expect(try Fixture.lastAck().state == .lastAck)
        #expect(try Fixture.timeWait().state == .timeWait)
        #expect(TCPState.allCases.count == 11)
        #expect(TCPState.synSent.description == "SYN-SENT" && TCPState.timeWait.description == "TIME-WAIT")
    }

    @Test func closed() throws {
        var c = Fixture.closed()
        // SYN to a closed port: <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>, "connection refused".
        let r1 = try #require(only(c.segmentArrives(seg("S", seq: 100), at: 0)))
        #expect(r1.flags == [.rst, .ack] && r1.seq == SeqNumber(0) && r1.ack == SeqNumber(101))
        #expect(r1.sourcePort == 80 && r1.destinationPort == 1000)
        // Anything with ACK: <SEQ=SEG.ACK><CTL=RST>.
        let r2 = try #require(only(c.segmentArrives(seg("PA", seq: 5, ack: 555, payload: [1]), at: 0)))
        #expect(r2.flags == .rst && r2.seq == SeqNumber(555) && r2.ack == nil)
        #expect(c.segmentArrives(seg("R", seq: 5), at: 0).segments.isEmpty)
        #expect(c.state == .closed)
    }

    @Test func listen() throws {
        var c = try Fixture.listen()
        #expect(c.segmentArrives(seg("R", seq: 5), at: 0).segments.isEmpty)
        let rst = try #require(only(c.segmentArrives(seg("A", seq: 5, ack: 777), at: 0)))
        #expect(rst.flags == .rst && rst.seq == SeqNumber(777))
        #expect(c.segmentArrives(seg("P", seq: 5, payload: [1]), at: 0).segments.isEmpty)
        #expect(c.state == .listen)
        // SYN: SYN-ACK <SEQ=ISS><ACK=SEG.SEQ+1> with our MSS, enter SYN-RECEIVED.
        let out = c.segmentArrives(seg("S", seq: 100), at: 0)
        let synAck = try #require(only(out))
        #expect(synAck.flags.compact == "SA" && synAck.seq == SeqNumber(300) && synAck.ack == SeqNumber(101))
        #expect(synAck.mss == 1460)
        #expect(c.state == .synReceived && c.irs == SeqNumber(100))
        #expect(out.events.contains(.timerSet(.retransmission, deadline: TCPDuration.seconds(1))))
    }

    @Test func synSent() throws {
        var c = try Fixture.synSent()
        #expect(c.sndNxt == SeqNumber(101))
        // A SYN-ACK that does not acknowledge our SYN: RST <SEQ=SEG.ACK>, stay.
        let rst = try #require(only(c.segmentArrives(seg("SA", seq: 300, ack: 50, from: 80, to: 1000), at: 0)))
        #expect(rst.flags == .rst && rst.seq == SeqNumber(50) && c.state == .synSent)
        // RST without ACK is ignored.
        #expect(c.segmentArrives(seg("R", seq: 300, from: 80, to: 1000), at: 0).segments.isEmpty)
        #expect(c.state == .synSent)
        // The right SYN-ACK: ACK <SEQ=101><ACK=301>, ESTABLISHED.
        var ok = c
        let ack = try #require(only(ok.segmentArrives(seg("SA", seq: 300, ack: 101, from: 80, to: 1000), at: 1000)))
        #expect(ack.flags == .ack && ack.seq == SeqNumber(101) && ack.ack == SeqNumber(301))
        #expect(ok.state == .established && ok.rto.srtt == 1000)
        // RST with an acceptable ACK: connection refused.
        var refused = c
        _ = refused.segmentArrives(seg("RA", seq: 0, ack: 101, from: 80, to: 1000), at: 0)
        #expect(refused.state == .closed && refused.error == .refused)
        // A bare SYN: simultaneous open, SYN-ACK <SEQ=ISS><ACK=301>, SYN-RECEIVED.
        var simultaneous = c
        let sa = try #require(only(simultaneous.segmentArrives(seg("S", seq: 300, from: 80, to: 1000), at: 0)))
        #expect(sa.flags.compact == "SA" && sa.seq == SeqNumber(100) && sa.ack == SeqNumber(301))
        #expect(simultaneous.state == .synReceived)
    }

    @Test func synReceived() throws {
        let c = try Fixture.synReceived()
        var a = c
        #expect(a.segmentArrives(seg("A", seq: 101, ack: 301), at: 0).segments.isEmpty)
        #expect(a.state == .established && a.timers.retransmission == nil)
        var bad = c
        let rst = try #require(only(bad.segmentArrives(seg("A", seq: 101, ack: 999), at: 0)))
        #expect(rst.flags == .rst && rst.seq == SeqNumber(999) && bad.state == .synReceived)
        var reset = c
        let out = reset.segmentArrives(seg("R", seq: 101), at: 0)
        #expect(reset.state == .listen && out.stateChanges.map(\.1) == [.listen])
        var dupSYN = c
        let again = try #require(only(dupSYN.segmentArrives(seg("S", seq: 100), at: 0)))
        #expect(again.flags.compact == "SA" && again.seq == SeqNumber(300) && dupSYN.state == .synReceived)
        var outside = c
        let ack = try #require(only(outside.segmentArrives(seg("A", seq: 200_000, ack: 301), at: 0)))
        #expect(ack.flags == .ack && ack.seq == SeqNumber(301) && ack.ack == SeqNumber(101))
        #expect(outside.state == .synReceived)
    }

    @Test func established() throws {
        let c = try Fixture.established()
        var d = c
        let ack = try #require(only(d.segmentArrives(seg("PA", seq: 101, ack: 301, payload: bytes(5)), at: 0)))
        #expect(ack.ack == SeqNumber(106) && ack.seq == SeqNumber(301) && d.readableCount == 5)
        // A duplicate of old data: dropped and re-ACKed.
        let out = d.segmentArrives(seg("PA", seq: 101, ack: 301, payload: bytes(5)), at: 0)
        #expect(only(out)?.ack == SeqNumber(106) && d.readableCount == 5)
        #expect(out.events.contains(.unacceptableSegment(seq: SeqNumber(101), length: 5)))
        // Out of order: held, duplicate ACK; then the gap fills and the ACK jumps.
        let hole = d.segmentArrives(seg("PA", seq: 116, ack: 301, payload: bytes(10)), at: 0)
        #expect(only(hole)?.ack == SeqNumber(106) && d.readableCount == 5)
        #expect(hole.events.contains(.outOfOrderBuffered(seq: SeqNumber(116), count: 10)))
        let fill = d.segmentArrives(seg("PA", seq: 106, ack: 301, payload: bytes(10)), at: 0)
        #expect(only(fill)?.ack == SeqNumber(126) && d.readableCount == 25)
        // FIN: ACK it, CLOSE-WAIT.
        var f = c
        let finAck = try #require(only(f.segmentArrives(seg("FA", seq: 101, ack: 301), at: 0)))
        #expect(finAck.ack == SeqNumber(102) && f.state == .closeWait && f.isEndOfStream)
        // RST in the window: connection reset.
        var r = c
        #expect(r.segmentArrives(seg("R", seq: 101), at: 0).segments.isEmpty)
        #expect(r.state == .closed && r.error == .reset)
        // RST in the window but not at RCV.NXT (RFC 5961 §3.2): a challenge ACK <SEQ=301><ACK=101>, no reset.
        var rc = c
        let challengeRST = rc.segmentArrives(seg("R", seq: 105), at: 0)
        let challengeACK = try #require(only(challengeRST))
        #expect(challengeACK.flags == .ack && challengeACK.seq == SeqNumber(301) && challengeACK.ack == SeqNumber(101))
        #expect(challengeRST.events.contains(.challengeACK) && rc.state == .established && rc.error == nil)
        // The peer that really lost its state answers that ACK with an RST at exactly RCV.NXT: reset.
        let answer = try #require(TCPConnection.resetReply(to: challengeACK))
        #expect(answer.seq == SeqNumber(101))
        _ = rc.segmentArrives(answer, at: 0)
        #expect(rc.state == .closed && rc.error == .reset)
        // RST outside the window: ignored, no reply.
        var ro = c
        #expect(ro.segmentArrives(seg("R", seq: 500_000), at: 0).segments.isEmpty && ro.state == .established)
        // SYN in the window: challenge ACK (RFC 5961), state unchanged.
        var s = c
        let challenge = s.segmentArrives(seg("S", seq: 101), at: 0)
        #expect(only(challenge)?.flags == .ack && challenge.events.contains(.challengeACK) && s.state == .established)
        // ACK of data never sent: ACK back, drop.
        var u = c
        let unsent = u.segmentArrives(seg("A", seq: 101, ack: 5000), at: 0)
        #expect(only(unsent)?.ack == SeqNumber(101) && unsent.events.contains(.ackOfUnsentData(ack: SeqNumber(5000))))
        #expect(u.sndUna == SeqNumber(301))
    }

    @Test func finWait1() throws {
        let c = try Fixture.finWait1()
        #expect(c.finSeq == SeqNumber(301) && c.sndNxt == SeqNumber(302))
        var a = c
        #expect(a.segmentArrives(seg("A", seq: 101, ack: 302), at: 0).segments.isEmpty && a.state == .finWait2)
        var f = c
        _ = f.segmentArrives(seg("FA", seq: 101, ack: 301), at: 0)
        #expect(f.state == .closing)
        var both = c
        let out = both.segmentArrives(seg("FA", seq: 101, ack: 302), at: 0)
        #expect(out.stateChanges.map(\.1) == [.finWait2, .timeWait] && only(out)?.ack == SeqNumber(102))
        var d = c
        _ = d.segmentArrives(seg("PA", seq: 101, ack: 301, payload: bytes(7)), at: 0)
        #expect(d.readableCount == 7 && d.state == .finWait1)
    }

    @Test func finWait2() throws {
        let c = try Fixture.finWait2()
        var d = c
        let ack = d.segmentArrives(seg("PA", seq: 101, ack: 302, payload: bytes(9)), at: 0)
        #expect(only(ack)?.ack == SeqNumber(110) && d.readableCount == 9 && d.state == .finWait2)
        var f = c
        let out = f.segmentArrives(seg("FA", seq: 101, ack: 302), at: 5)
        #expect(f.state == .timeWait && only(out)?.ack == SeqNumber(102))
        #expect(f.timers.timeWait == 5 + 2 * Fixture.config.msl)
    }

    @Test func closeWait() throws {
        var c = try Fixture.closeWait()
        let again = c.segmentArrives(seg("FA", seq: 101, ack: 301), at: 0)  // retransmitted FIN
        #expect(only(again)?.ack == SeqNumber(102) && c.state == .closeWait)
        // Half-close: we may still send.
        let out = try c.send(bytes(3), at: 0)
        let data = try #require(only(out))
        #expect(data.seq == SeqNumber(301) && data.payload.count == 3 && data.flags.compact == "PA")
    }

    @Test func closing() throws {
        var c = try Fixture.closing()
        let again = c.segmentArrives(seg("FA", seq: 101, ack: 301), at: 0)
        #expect(only(again)?.ack == SeqNumber(102) && c.state == .closing)
        _ = c.segmentArrives(seg("A", seq: 102, ack: 302), at: 0)
        #expect(c.state == .timeWait)
    }

    @Test func lastAck() throws {
        let c = try Fixture.lastAck()
        var a = c
        _ = a.segmentArrives(seg("A", seq: 102, ack: 302), at: 0)
        #expect(a.state == .closed && a.error == nil)
        var r = c
        _ = r.segmentArrives(seg("R", seq: 102), at: 0)
        #expect(r.state == .closed)
        var early = c  // an ACK that does not cover our FIN leaves us waiting
        _ = early.segmentArrives(seg("A", seq: 102, ack: 301), at: 0)
        #expect(early.state == .lastAck)
    }

    @Test func timeWait() throws {
        var c = try Fixture.timeWait()
        let deadline = try #require(c.timers.timeWait)
        let out = c.segmentArrives(seg("FA", seq: 101, ack: 302), at: 1000)  // the peer retransmits its FIN
        #expect(only(out)?.ack == SeqNumber(102) && out.events.contains(.finReacknowledgedInTimeWait))
        #expect(c.timers.timeWait == 1000 + 2 * Fixture.config.msl && c.timers.timeWait != deadline)
        #expect(c.advance(to: 1000 + 2 * Fixture.config.msl - 1).events.isEmpty && c.state == .timeWait)
        let expire = c.advance(to: 1000 + 2 * Fixture.config.msl)
        #expect(expire.stateChanges.map(\.1) == [.closed] && c.state == .closed)
    }

    @Test func userCallsInTheWrongState() throws {
        var closed = Fixture.closed()
        #expect(throws: TCPUserError.connectionDoesNotExist) { try closed.send([1], at: 0) }
        #expect(throws: TCPUserError.connectionDoesNotExist) { try closed.close(at: 0) }
        var fw2 = try Fixture.finWait2()
        #expect(throws: TCPUserError.connectionClosing) { try fw2.send([1], at: 0) }
        var est = try Fixture.established()
        #expect(throws: TCPUserError.connectionAlreadyExists) { try est.openActive(iss: SeqNumber(1), at: 0) }
        let abort = try est.abort(at: 0)
        #expect(only(abort)?.flags == .rst && only(abort)?.seq == SeqNumber(301) && est.error == .aborted)
    }

    @Test func everyFixtureTransitionIsAnRFCEdge() throws {
        // Drive each fixture again while collecting events; every change must be a Figure 5 edge.
        var c = try Fixture.listen()
        var events: [TCPEvent] = []
        events += c.segmentArrives(seg("S", seq: 100), at: 0).events
        events += c.segmentArrives(seg("A", seq: 101, ack: 301), at: 0).events
        events += c.segmentArrives(seg("FA", seq: 101, ack: 301), at: 0).events
        events += try c.close(at: 0).events
        events += c.segmentArrives(seg("A", seq: 102, ack: 302), at: 0).events
        let changes = events.compactMap { if case .stateChanged(let f, let t, _) = $0 { (f, t) } else { nil } }
        #expect(changes.map(\.1) == [.synReceived, .established, .closeWait, .lastAck, .closed])
        #expect(changes.allSatisfy { TCPState.isRFCEdge(from: $0.0, to: $0.1) })
        #expect(!TCPState.isRFCEdge(from: .listen, to: .established))
        #expect(!TCPState.isRFCEdge(from: .synSent, to: .finWait1))
    }
}
