@testable import Rendering
import Simulation
import Testing
import Trace

/// A message the receiver drops unread is explained by the sentence for its reason: each typed
/// reason the simulation records (``DropReason``) has its own walkthrough sentence (`walk.dropped.…`)
/// and its own ladder clause (`dropped.…`), in English and Chinese.
@Suite("Walkthrough: why a message was dropped")
struct WalkthroughDroppedTests {
    /// The walkthrough's key for each reason, written out here (not read from the code under test).
    static func sentence(_ reason: DropReason) -> String {
        switch reason {
        case .arrivedAfterFatalAlertSent: "walk.dropped.afterAlertSent"
        case .arrivedAfterFatalAlertReceived: "walk.dropped.afterAlertReceived"
        case .recordFailedAuthentication: "walk.dropped.recordFailed"
        case .receiverStoppedReading: "walk.dropped.stoppedReading"
        case .connectionEndedBeforeArrival: "walk.dropped.connectionEnded"
        }
    }

    static let everyReason: [DropReason] = [.arrivedAfterFatalAlertSent(.handshakeFailure), .arrivedAfterFatalAlertReceived(.badCertificate),
                                            .recordFailedAuthentication(.badRecordMAC), .receiverStoppedReading,
                                            .connectionEndedBeforeArrival]

    @Test func eachDropIsExplainedByItsReason() throws {
        var seen: Set<String> = []
        for run in BuiltInRun.allCases {
            let trace = Simulation(try run.setup(seed: 1)).run()
            let walk = Walkthrough(title: run.rawValue, trace: trace, width: 100_000)
            for step in walk.steps where step.kind == .event {
                let event = trace.events[step.eventIndex]
                guard case .dropped(let undelivered) = event.kind else { continue }
                let key = Self.sentence(undelivered.reason)
                let sentence = try #require(Explanations.english(key, ["actor": Explanations.english.actorName(event.actor.rawValue),
                                                                         "peer": Explanations.english.actorName(event.counterpart.rawValue)]))
                #expect(step.detail.contains(sentence), "\(run): \(step.label)")
                seen.insert(key)
            }
        }
        #expect(seen.count >= 2, "reasons seen: \(seen.sorted())")
    }

    /// Each reason is worded in both languages from its own key, with the receiver and the alert filled in.
    @Test func eachReasonIsWordedInBothLanguages() {
        var english: Set<String> = []
        for reason in Self.everyReason {
            let en = Explanations.english.dropReason(reason, receiver: .server)
            let zh = Explanations.chinese.dropReason(reason, receiver: .server)
            #expect(en.contains("server") && !en.contains("{") && !en.hasPrefix("dropped."), "\(reason): \(en)")
            #expect(zh.contains("服务器") && !zh.contains("{") && !zh.hasPrefix("dropped."), "\(reason): \(zh)")
            if let alert = reason.alert { #expect(en.contains("\(alert)") && zh.contains("\(alert)"), "\(reason)") }
            english.insert(en)
        }
        #expect(english.count == Self.everyReason.count)
        #expect(Explanations.english.dropReason(.recordFailedAuthentication(.badRecordMAC), receiver: .client)
                == "this is the record whose decryption raised bad_record_mac: its tag did not verify under the client's keys, "
                + "so the client never read the message inside")
    }

    /// The simulation records the rule that stopped each message as a typed reason: a tampered record
    /// is the one whose authentication failed, and what the tamperer's peer sent after it arrives
    /// after the fatal alert.
    @Test func theSimulationRecordsTypedReasons() throws {
        var seen: [BuiltInRun: Set<DropReason>] = [:]
        for run in BuiltInRun.allCases {
            for event in Simulation(try run.setup(seed: 1)).run().events {
                if case .dropped(let undelivered) = event.kind { seen[run, default: []].insert(undelivered.reason) }
            }
        }
        let all = seen.values.reduce(into: Set<DropReason>()) { $0.formUnion($1) }
        #expect(all.contains(.recordFailedAuthentication(.badRecordMAC)), "\(seen)")
        #expect(all.contains { if case .arrivedAfterFatalAlertSent = $0 { true } else { false } }, "\(seen)")
    }
}
