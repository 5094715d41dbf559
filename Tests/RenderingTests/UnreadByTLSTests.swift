import Foundation
@testable import Rendering
import Simulation
import TCPSim
import Testing
import TLSEngine
import Trace

/// The knowledge panel's note "TCP has the bytes, TLS has not read them" is read from TCP's facts
/// (the receiver's `dataAccepted` events: RCV.NXT advancing) and TLS's (`handshakeReceived`) on each
/// leg, so it is said on man-in-the-middle and on-path runs too, for each party that receives — and
/// every note it gives is true: the receiver's TCP had accepted the message's last byte by then and its
/// TLS layer reads the message later.
@Suite("Bytes TCP holds that TLS has not read, per leg")
struct UnreadByTLSTests {
    /// Every note of a run, by the step index it is given at, with the party it names.
    static func notes(_ trace: Trace) -> [(index: Int, text: String)] {
        let words = RunDocumentBuilder()
        return trace.events.indices.flatMap { i in StepTeacher.unreadByTLS(trace, upTo: i, words: words).map { (i, $0) } }
    }

    @Test(arguments: [BuiltInRun.rsa, .mitm, .mitmTrusting, .strip, .tamperServerHello, .replay, .tls13MITM])
    func notesAreTrueOnEveryLeg(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let notes = Self.notes(trace)
        #expect(!notes.isEmpty, "\(run.rawValue): no note")
        for (index, text) in notes {
            let party = try #require([Actor.client, .server, .attacker].first { text.hasPrefix("The \($0.rawValue)'s TCP") }, "\(text)")
            // Its TLS layer reads a handshake message after this step, or never (then the note says so).
            let later = trace.events[(index + 1)...].contains { e in
                if e.actor == party, case .tls(.handshakeReceived) = e.kind { true } else { false }
            }
            #expect(later == !text.contains("never reads"), "\(run.rawValue) step \(index): \(text)")
            // Its TCP accepted data in order by then.
            #expect(trace.events.prefix(index + 1).contains { e in
                if case .tcp(.connection(let id, .dataAccepted)) = e.kind { trace.participants[id.local.address] == party } else { false }
            }, "\(run.rawValue) step \(index): \(text)")
        }
        if run == .mitm || run == .tls13MITM {
            // Behind a man in the middle both of its legs have a receiving side with a note.
            #expect(notes.contains { $0.text.hasPrefix("The attacker's TCP") }, "\(run.rawValue): nothing for the attacker")
            #expect(notes.contains { $0.text.hasPrefix("The server's TCP") } || notes.contains { $0.text.hasPrefix("The client's TCP") })
        }
    }

    /// The messages named are those whose bytes lie wholly before the receiver's RCV.NXT: on `rsa`,
    /// at the server's ACK of the ClientHello, the ClientHello and nothing else.
    @Test func theServerHoldsTheClientHelloAtItsACK() throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let ack = try #require(trace.events.indices.first { i in
            guard trace.events[i].actor == .server, case .tcp(.sent(let p)) = trace.events[i].kind else { return false }
            return p.segment.payload.isEmpty && !p.segment.flags.contains(.syn)
        })
        let notes = StepTeacher.unreadByTLS(trace, upTo: ack, words: RunDocumentBuilder())
        #expect(notes.count == 1)
        #expect(notes.first?.contains("The server's TCP has received the bytes of ClientHello in order") == true, "\(notes)")
    }
}
