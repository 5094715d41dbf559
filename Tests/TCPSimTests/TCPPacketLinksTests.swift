import Testing
@testable import TCPSim

/// The network numbers the packets it carries and says what each send answers or replaces: a
/// SYN-ACK names the SYN whose arrival it answers (a stale copy injected late included), an on-path
/// hook's changed copy names the segment it replaces and what it changed, field by field.
@Suite("The network numbers its packets and links answers and rewrites to them")
struct TCPPacketLinksTests {
    @Test func aSYNACKNamesTheSYNItAnswers() throws {
        let net = TCPNetwork.pair()
        // An old duplicate SYN from the client's address reaches the listener first (RFC 9293 §3.5, figure 9).
        net.inject(TCPPacket(source: Net.client, destination: Net.server, segment: seg("S", seq: 90, from: 49_152, to: 80)))
        net.run(until: net.now + TCPDuration.milliseconds(1))
        let stale = try #require(net.events.first { if case .injected = $0.kind { true } else { false } }?.links?.packet)
        let firstSynAck = try #require(net.events.first { e in
            if case .sent(let p) = e.kind { p.segment.flags.contains(.syn) && p.segment.ack != nil } else { false }
        })
        #expect(firstSynAck.links?.answering == stale)
        // The client's own SYN: the SYN-ACK that answers it names its number, which is not the stale one.
        let (c, _) = try net.establish(localPort: 49_153)
        let synOfClient = try #require(net.events.last { e in
            if case .sent(let p) = e.kind { p.sourceEndpoint == c.local && p.segment.flags.contains(.syn) } else { false }
        }?.links?.packet)
        let answer = try #require(net.events.last { e in
            if case .sent(let p) = e.kind { p.destinationEndpoint == c.local && p.segment.flags.contains(.syn) } else { false }
        })
        #expect(answer.links?.answering == synOfClient && synOfClient != stale)
        // A segment a user call or a timer sent answers nothing.
        let active = try #require(net.events.first { e in if case .sent(let p) = e.kind { p.sourceEndpoint == c.local } else { false } })
        #expect(active.links?.answering == nil)
        // Every numbered packet's delivery carries the number it was sent with.
        let sentNumbers = Set(net.events.compactMap { e -> Int? in
            switch e.kind { case .sent, .injected, .forwarded: e.links?.packet
            default: nil } })
        for e in net.events { if case .delivered = e.kind { #expect(e.links.map { sentNumbers.contains($0.packet) } == true) } }
    }

    @Test func aChangedCopyNamesWhatItReplacesAndWhatChanged() throws {
        let net = TCPNetwork.pair()
        // A hook that rewrites the third and fourth payload bytes of client data and moves its acks.
        net.onPath = { p in
            guard p.source == Net.client, p.segment.payload.count >= 4 else { return p }
            var q = p
            q.segment.payload[2] ^= 0xFF
            q.segment.payload[3] = 0x42
            if let ack = q.segment.ack { q.segment.setAck(ack + 5) }
            return q
        }
        let (c, s) = try net.establish()
        try net.write(c, bytes(10))
        net.run(until: net.now + TCPDuration.milliseconds(100))
        _ = net.read(s)
        let forwarded = net.events.enumerated().filter { if case .forwarded = $0.element.kind { true } else { false } }
        let (index, event) = try #require(forwarded.first)
        guard case .forwarded(let copy, let rewrite) = event.kind, case .sent(let original) = net.events[index - 1].kind else {
            Issue.record("the changed copy follows the segment it replaces"); return
        }
        #expect(event.links?.replacing == net.events[index - 1].links?.packet)
        #expect(event.links?.packet != event.links?.replacing)
        let data = bytes(10)
        #expect(rewrite.octets == [TCPRewrite.OctetChange(offset: 2, old: data[2], new: data[2] ^ 0xFF),
                                   TCPRewrite.OctetChange(offset: 3, old: data[3], new: 0x42)])
        #expect(rewrite.ack == TCPRewrite.NumberChange(old: try #require(original.segment.ack), new: try #require(copy.segment.ack)))
        #expect(rewrite.seq == nil)
        // What the server received is the copy, delivered under the copy's number.
        let delivered = try #require(net.events.first { e in if case .delivered(let p) = e.kind { p == copy } else { false } })
        #expect(delivered.links?.packet == event.links?.packet)
        #expect(TCPRewrite(from: original.segment, to: original.segment) == TCPRewrite())
    }
}
