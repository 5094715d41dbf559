import Testing
import TLSEngine
import Trace
@testable import Rendering

/// Issue #38, defect 5: when the server finds the offered session and still does a full handshake by
/// RFC 7627 §5.3 (a session without the extended master secret, a ClientHello with it), the trace says
/// which rule applied, in both languages and in JSON Lines.
@Suite("A declined resumption names its rule")
struct ResumptionDeclinedRenderingTests {
    static let trace = Trace(events: [
        TraceEvent(time: 0, actor: .server, kind: .tls(.resumptionDeclined(ResumptionDeclined(offer: .ticket, rule: .extendedMasterSecretOnlyInHello)))),
    ])

    @Test func textAndJSON() {
        let english = TextRenderer(verbosity: .normal, width: 400, color: false).render(Self.trace).joined(separator: "\n")
        #expect(english.contains("does not resume the session offered by ticket") && english.contains("MUST NOT perform the abbreviated handshake")
                && english.contains("RFC 7627 §5.3"), "\(english)")
        let chinese = TextRenderer(verbosity: .normal, width: 400, color: false, explanations: .chinese).render(Self.trace).joined(separator: "\n")
        #expect(chinese.contains("不得执行简化握手") && chinese.contains("RFC 7627 §5.3"), "\(chinese)")
        let json = JSONLinesRenderer().render(Self.trace).joined(separator: "\n")
        #expect(json.contains("\"event\":\"tls_resumption_declined\"") && json.contains("\"rule\":\"extendedMasterSecretOnlyInHello\"")
                && json.contains("\"offer\":\"ticket\""), "\(json)")
    }
}
