import Simulation
import TCPSim
import TLSEngine
import Testing
import Trace

/// A run's outcome is classified once (`RunSummary.runOutcome`); the JSON word, the text's outcome
/// line and a lesson's `handshake` fact all read it.
@Suite("One run outcome")
struct RunOutcomeTests {
    @Test func summariesWithoutAnAlert() {
        var plain = RunSummary()
        #expect(plain.runOutcome == .plainHTTP(responded: false, exchangeFailure: nil) && plain.outcome == "incomplete")
        plain.responsesReceived = 1
        #expect(plain.runOutcome.word == "success" && !plain.runOutcome.handshakeCompleted)

        var both = RunSummary()
        both.usedTLS = true
        both.clientTraced = true
        both.serverTraced = true
        both.clientCompleted = true
        #expect(both.runOutcome == .incomplete, "only one side finished")
        both.serverCompleted = true
        #expect(both.runOutcome == .handshakeCompleted && both.outcome == "success" && both.runOutcome.handshakeCompleted)

        var connect = RunSummary()
        connect.usedTLS = true
        connect.clientTraced = true
        connect.clientCompleted = true
        #expect(connect.runOutcome == .oneSided(.client, exchangeFailure: nil) && connect.outcome == "success")
        connect.exchangeFailure = .brokeSendingClientHello
        #expect(connect.runOutcome == .oneSided(.client, exchangeFailure: .brokeSendingClientHello) && connect.outcome == "failed")
        connect.clientCompleted = false
        #expect(connect.runOutcome == .exchangeFailed(.brokeSendingClientHello) && connect.outcome == "failed")

        // An attacker's own sessions in the trace: not a real peer's one-sided trace.
        var attacked = RunSummary()
        attacked.usedTLS = true
        attacked.clientTraced = true
        attacked.clientCompleted = true
        attacked.othersTraced = true
        #expect(attacked.runOutcome == .incomplete)
    }

    /// A fatal alert decides, and says whether the handshake had completed before it.
    @Test(arguments: [(BuiltInRun.replay, "bad_record_mac", true), (.mitm, "unknown_ca", false),
                      (.rsa, "success", true), (.strip, "decrypt_error", false)])
    func builtInRuns(run: BuiltInRun, word: String, handshake: Bool) throws {
        let summary = Simulation(try run.setup(seed: 1)).run().summary
        #expect(summary.runOutcome.word == word, "\(summary.runOutcome)")
        #expect(summary.outcome == word)
        #expect(summary.runOutcome.handshakeCompleted == handshake)
        if case .alert(let failure, let after) = summary.runOutcome {
            #expect(failure == summary.failure && after == handshake)
        }
    }
}

/// What an on-path attacker passes on is its own send: every segment the server receives in the
/// `replay` run was sent as such by someone on that leg — the client, or the attacker (re-sequenced
/// or injected) — never a number nobody sent.
@Suite("An on-path attacker's rewritten segments are the attacker's")
struct ForwardedSegmentTests {
    @Test(arguments: [BuiltInRun.replay, .strip, .tamperServerHello])
    func everySegmentTheServerReceivesWasSentOnItsLeg(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let server = try #require(trace.participants.first { $0.value == .server }?.key)
        var onLeg: [TCPPacket] = []
        var rewritten = 0
        for e in trace.events {
            switch e.kind {
            case .tcp(.forwarded(let p, _)):
                #expect(e.actor == .attacker, "\(p)")
                rewritten += 1
                onLeg.append(p)
            case .tcp(.sent(let p)), .tcp(.injected(let p)):
                onLeg.append(p)
            case .tcp(.delivered(let p)) where p.destination == server:
                #expect(onLeg.contains(p), "the server received \(p), which nobody sent on its leg")
            default:
                break
            }
        }
        if run == .replay { #expect(rewritten > 0, "the replay re-sequences the client's later segments") }
    }
}
