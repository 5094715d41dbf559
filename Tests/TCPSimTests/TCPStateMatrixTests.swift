import Testing
@testable import TCPSim

/// The full matrix: every state fixture × every kind of incoming segment → (reply, next state).
/// Segments are built from the fixture's own RCV.NXT and SND.NXT so that "in sequence" means in sequence.
@Suite("State × segment matrix (RFC 9293 §3.10.7)")
struct TCPStateMatrixTests {
    enum Kind: String, CaseIterable {
        case syn, ack, data, fin, rst, old
    }

    static func fixture(_ state: TCPState) throws -> TCPConnection {
        switch state {
        case .closed: Fixture.closed()
        case .listen: try Fixture.listen()
        case .synSent: try Fixture.synSent()
        case .synReceived: try Fixture.synReceived()
        case .established: try Fixture.established()
        case .finWait1: try Fixture.finWait1()
        case .finWait2: try Fixture.finWait2()
        case .closeWait: try Fixture.closeWait()
        case .closing: try Fixture.closing()
        case .lastAck: try Fixture.lastAck()
        case .timeWait: try Fixture.timeWait()
        }
    }

    static func segment(_ kind: Kind, for c: TCPConnection) -> TCPSegment {
        let unsynchronized = c.state == .closed || c.state == .listen
        let seq = unsynchronized ? 101 : c.rcvNxt.rawValue
        let ack = unsynchronized ? 301 : c.sndNxt.rawValue
        let from = c.remotePort == 0 ? 1000 : c.remotePort, to = c.localPort
        switch kind {
        case .syn: return seg("S", seq: c.state == .synSent ? 300 : 100, from: from, to: to)
        case .ack: return seg("A", seq: seq, ack: ack, from: from, to: to)
        case .data: return seg("PA", seq: seq, ack: ack, payload: bytes(10), from: from, to: to)
        case .fin: return seg("FA", seq: seq, ack: ack, from: from, to: to)
        case .rst: return seg("R", seq: seq, from: from, to: to)
        case .old: return seg("A", seq: seq &- 1000, ack: ack, from: from, to: to)
        }
    }

    /// "reply flags → next state" for each kind, in `Kind` order; "-" means no reply.
    static let expected: [TCPState: [String]] = [
        .closed:      ["RA → CLOSED", "R → CLOSED", "R → CLOSED", "R → CLOSED", "- → CLOSED", "R → CLOSED"],
        .listen:      ["SA → SYN-RECEIVED", "R → LISTEN", "R → LISTEN", "R → LISTEN", "- → LISTEN", "R → LISTEN"],
        .synSent:     ["SA → SYN-RECEIVED", "- → SYN-SENT", "- → SYN-SENT", "- → SYN-SENT", "- → SYN-SENT", "- → SYN-SENT"],
        .synReceived: ["SA → SYN-RECEIVED", "- → ESTABLISHED", "A → ESTABLISHED", "A → CLOSE-WAIT", "- → LISTEN", "A → SYN-RECEIVED"],
        .established: ["A → ESTABLISHED", "- → ESTABLISHED", "A → ESTABLISHED", "A → CLOSE-WAIT", "- → CLOSED", "A → ESTABLISHED"],
        .finWait1:    ["A → FIN-WAIT-1", "- → FIN-WAIT-2", "A → FIN-WAIT-2", "A → TIME-WAIT", "- → CLOSED", "A → FIN-WAIT-1"],
        .finWait2:    ["A → FIN-WAIT-2", "- → FIN-WAIT-2", "A → FIN-WAIT-2", "A → TIME-WAIT", "- → CLOSED", "A → FIN-WAIT-2"],
        .closeWait:   ["A → CLOSE-WAIT", "- → CLOSE-WAIT", "A → CLOSE-WAIT", "A → CLOSE-WAIT", "- → CLOSED", "A → CLOSE-WAIT"],
        .closing:     ["A → CLOSING", "- → TIME-WAIT", "A → TIME-WAIT", "A → TIME-WAIT", "- → CLOSED", "A → CLOSING"],
        .lastAck:     ["A → LAST-ACK", "- → CLOSED", "- → CLOSED", "- → CLOSED", "- → CLOSED", "A → LAST-ACK"],
        .timeWait:    ["A → TIME-WAIT", "- → TIME-WAIT", "A → TIME-WAIT", "A → TIME-WAIT", "- → CLOSED", "A → TIME-WAIT"],
    ]

    @Test(arguments: TCPState.allCases)
    func replies(state: TCPState) throws {
        let row = try #require(Self.expected[state])
        for (kind, want) in zip(Kind.allCases, row) {
            var c = try Self.fixture(state)
            #expect(c.state == state)
            let out = c.segmentArrives(Self.segment(kind, for: c), at: 1)
            let reply = out.segments.isEmpty ? "-" : out.segments.map(\.flags.compact).joined(separator: ",")
            #expect("\(reply) → \(c.state)" == want, "\(state) + \(kind)")
            for (from, to) in out.stateChanges {
                #expect(TCPState.isRFCEdge(from: from, to: to), "\(state) + \(kind): \(from) → \(to)")
            }
            if let ackSent = out.segments.first(where: { $0.flags == .ack })?.ack, state.isSynchronized {
                #expect(ackSent == c.rcvNxt, "an ACK always carries RCV.NXT")
            }
        }
    }
}
