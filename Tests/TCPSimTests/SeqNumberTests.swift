import Testing
@testable import TCPSim

@Suite("SeqNumber: modulo 2^32 arithmetic (RFC 9293 §3.4)")
struct SeqNumberTests {
    @Test func additionWrapsAround() {
        let near = SeqNumber(UInt32.max - 1)
        #expect((near + 3).rawValue == 1)
        #expect((SeqNumber(1) - 3).rawValue == UInt32.max - 1)
        #expect((SeqNumber(5) + (-10)).rawValue == UInt32.max - 4)
    }

    @Test func distanceIsSignedAcrossTheWrap() {
        let a = SeqNumber(UInt32.max - 9)  // 2^32 − 10
        let b = SeqNumber(20)
        #expect(b - a == 30)
        #expect(a - b == -30)
        #expect(SeqNumber(7) - SeqNumber(7) == 0)
    }

    @Test func comparisonsAcrossTheWrap() {
        let before = SeqNumber(0xFFFF_FFF0)
        let after = SeqNumber(0x0000_0010)
        #expect(before.isBefore(after))
        #expect(after.isAfter(before))
        #expect(!after.isBefore(before))
        #expect(before.isAtOrBefore(before) && before.isAtOrAfter(before))
        #expect(!before.isBefore(before))
        #expect(SeqNumber.latest(before, after) == after)
        // Plain integer order says the opposite: that is why SeqNumber is not Comparable.
        #expect(before.rawValue > after.rawValue)
    }

    @Test func orderIsNotTransitiveOverTheWholeSpace() {
        let a = SeqNumber(0), b = SeqNumber(0x6000_0000), c = SeqNumber(0xC000_0000)
        #expect(a.isBefore(b) && b.isBefore(c) && c.isBefore(a))
    }

    @Test func windowTestAcrossTheWrap() {
        let start = SeqNumber(UInt32.max - 2)
        #expect(SeqNumber(UInt32.max).isWithin(start: start, count: 10))
        #expect(SeqNumber(6).isWithin(start: start, count: 10))
        #expect(!SeqNumber(7).isWithin(start: start, count: 10))
        #expect(!SeqNumber(UInt32.max - 3).isWithin(start: start, count: 10))
        #expect(!start.isWithin(start: start, count: 0))
    }

    @Test func segmentAcrossTheWrapIsDeliveredInOrder() throws {
        // A connection whose ISN sits just below 2^32: data crosses the wrap on both sides.
        let net = TCPNetwork.pair(clientISN: .counter(start: UInt32.max - 20, increment: 1),
                                  serverISN: .counter(start: UInt32.max - 5, increment: 1))
        let (c, s) = try net.establish()
        let data = bytes(5000)
        try net.write(c, data)
        try net.write(s, data)
        net.run(until: net.now + TCPDuration.seconds(2))
        #expect(net.read(s) == data)
        #expect(net.read(c) == data)
        #expect(net.connection(c)?.sndNxt == SeqNumber(UInt32.max - 20) + 1 + 5000)
    }
}
