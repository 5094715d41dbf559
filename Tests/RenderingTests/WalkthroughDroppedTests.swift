@testable import Rendering
import Simulation
import Testing
import Trace

/// A message the receiver drops unread is explained by the sentence for its reason: each reason
/// the simulation records (its `dropped.…` key) has its own walkthrough sentence (`walk.dropped.…`).
@Suite("Walkthrough: why a message was dropped")
struct WalkthroughDroppedTests {
    static let sentences = [
        "dropped.afterAlertSent": "walk.dropped.afterAlertSent",
        "dropped.afterAlertReceived": "walk.dropped.afterAlertReceived",
        "dropped.recordFailed": "walk.dropped.recordFailed",
        "dropped.stoppedReading": "walk.dropped.stoppedReading",
        "dropped.connectionEnded": "walk.dropped.connectionEnded",
    ]

    @Test func eachDropIsExplainedByItsReason() throws {
        var seen: Set<String> = []
        for run in BuiltInRun.allCases {
            let trace = Simulation(try run.setup(seed: 1)).run()
            let walk = Walkthrough(title: run.rawValue, trace: trace, width: 100_000)
            for step in walk.steps where step.kind == .event {
                let event = trace.events[step.eventIndex]
                guard case .dropped(let undelivered) = event.kind else { continue }
                let key = try #require(Self.sentences[undelivered.reason.key], "\(run): a reason without a sentence: \(undelivered.reason.key)")
                let sentence = try #require(Explanations.english(key, ["actor": Explanations.english.actorName(event.actor.rawValue),
                                                                         "peer": Explanations.english.actorName(event.counterpart.rawValue)]))
                #expect(step.detail.contains(sentence), "\(run): \(step.label)")
                seen.insert(key)
            }
        }
        #expect(seen.count >= 2, "reasons seen: \(seen.sorted())")
    }
}
