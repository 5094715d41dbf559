import Foundation
@testable import Scenarios
import Testing
import TLSEngine
import Trace

/// One trust decision per handshake: the engine asks the evaluator, records the decision in the
/// trace, and a lesson's `trust`, `disposition`, `first_failing_check` and `reason_includes` facts
/// are read from that record, not from a second evaluation or a side channel.
@Suite("Lesson verdicts come from the trace's certificate decision")
struct TrustFromTraceTests {
    /// Every TLS lesson's verdict is the client's last recorded decision, step for step.
    @Test func everyVerdictIsTheTracesDecision() throws {
        var decided = 0
        for file in Library.files {
            let scenario = try ScenarioParser.parse(contentsOf: file)
            guard case .tls = scenario.world else { continue }
            let run = scenario.run()
            let trace = try #require(run.trace, "\(file)")
            let decisions = trace.events.compactMap { e -> (Bool, CertificateAccount)? in
                guard e.actor == .client, case .tls(.certificateDecision(.server, _, let accepted, let account, _)) = e.kind else { return nil }
                return (accepted, account)
            }
            guard let last = decisions.last else {
                #expect(run.verdict == nil && run.facts["trust"] == .string("not_evaluated"), "\(file)")
                continue
            }
            decided += 1
            #expect(run.verdict?.accepted == last.0, "\(file)")
            #expect(run.facts["trust"] == .string(last.0 ? "accepted" : "rejected"), "\(file)")
            if case .decidedBy(let steps, _) = last.1 {
                #expect(run.verdict?.reasons == steps, "\(file)")
                #expect(run.facts["reason_includes"] == .list(steps.map(\.identifier)), "\(file)")
            }
        }
        #expect(decided > 40, "\(decided) lessons with a certificate decision")
    }

    /// The scenario layer has no evaluator of its own and decides nothing itself: no
    /// `PeerCertificateEvaluator` conformance, no `decide(chain:)` call, no recorder beside the engine.
    @Test func scenariosHoldNoSecondDecision() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        let folder = url.appendingPathComponent("Sources/Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for name in files {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains(": PeerCertificateEvaluator"), "\(name) implements an evaluator of its own")
            #expect(!text.contains(".decide(chain:"), "\(name) evaluates the chain a second time")
            #expect(!text.contains("VerdictRecorder"), "\(name) records the verdict beside the trace")
        }
    }
}
