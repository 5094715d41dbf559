import Testing
@testable import TCPSim

/// The engine reports what it decided, where it decided it: which sequence numbers an ACK
/// acknowledged (SND.UNA advancing) and why each segment was sent.
@Suite("TCP reports acknowledgments and why it sent each segment")
struct TCPEmitsWhatItKnowsTests {
    private func acknowledged(_ net: TCPNetwork, _ id: TCPConnectionID)
        -> [(from: SeqNumber, upTo: SeqNumber, octets: Int, syn: Bool, fin: Bool)] {
        net.connectionEvents(id).compactMap {
            if case let .acknowledged(from, upTo, octets, syn, fin) = $0.1 { (from, upTo, octets, syn, fin) } else { nil }
        }
    }

    @Test func sndUnaAdvancesCoverTheWholeSequenceSpace() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.mss = 100 })
        let (c, s) = try net.establish()
        try net.write(c, bytes(450))
        net.run(until: net.now + TCPDuration.milliseconds(500))
        #expect(net.read(s) == bytes(450))
        try net.close(c)
        net.run(until: net.now + TCPDuration.milliseconds(500))
        let acks = acknowledged(net, c)
        // Our ISS was 100: SYN at 100, data 101…550, FIN at 551 — every number acknowledged once, in order.
        #expect(acks.first?.from == SeqNumber(100) && acks.first?.syn == true)
        #expect(acks.last?.upTo == SeqNumber(552) && acks.last?.fin == true)
        for (a, b) in zip(acks, acks.dropFirst()) { #expect(a.upTo == b.from, "contiguous: \(a) then \(b)") }
        #expect(acks.map(\.octets).reduce(0, +) == 450)
        #expect(acks.filter(\.syn).count == 1 && acks.filter(\.fin).count == 1)
    }

    @Test func eachSegmentSaysWhyItWasSent() throws {
        let net = TCPNetwork.pair(client: fastConfig { $0.mss = 100 })
        let (c, s) = try net.establish()
        // Client→server so far: SYN, ACK. Lose the 2nd data segment (the 4th overall): a retransmission
        // follows, and the server's ACKs for the segments after the gap are duplicates.
        net.addFault(TCPFaultRule(from: Net.client, to: Net.server, nth: 4, .drop))
        try net.write(c, bytes(300))
        net.run(until: net.now + TCPDuration.seconds(3))
        #expect(net.read(s) == bytes(300))
        try net.close(c)
        net.run(until: net.now + TCPDuration.seconds(1))
        let client = net.sent(from: Net.client).compactMap(\.cause)
        let server = net.sent(from: Net.server).compactMap(\.cause)
        #expect(net.sentPackets.allSatisfy { $0.cause != nil }, "every segment a TCP sent has its cause")
        #expect(Array(client.prefix(5)) == [.activeOpen, .handshakeACK, .data, .data, .data])
        #expect(client.contains(.retransmission) && client.contains(.fin))
        #expect(server.first == .synAcknowledgment)
        #expect(server.contains(.duplicateACK))
        // A retransmitted segment is the one the `.retransmitted` event names.
        let retransmitted = net.sent(from: Net.client).filter { $0.cause == .retransmission }.map(\.segment)
        let reported = net.connectionEvents(c).compactMap { if case .retransmitted(let seg, _) = $0.1 { seg } else { nil } }
        #expect(retransmitted == reported)
    }

    @Test func aResetForNoConnectionIsAReset() throws {
        let net = TCPNetwork.pair()
        _ = try net.connect(from: Net.client, to: TCPEndpoint(Net.server, 81))
        net.run(until: net.now + TCPDuration.milliseconds(100))
        #expect(net.sent(from: Net.server).map(\.cause) == [.reset])
    }
}
