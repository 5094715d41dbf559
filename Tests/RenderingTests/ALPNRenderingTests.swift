import Foundation
import HTTP2
@testable import Rendering
@testable import Simulation
import TLSEngine
import Testing
import Trace
import Trust

/// ALPN (RFC 7301) in the renderers: shown where it was negotiated, and only there.
@Suite("ALPN in the text and JSON renderers")
struct ALPNRenderingTests {
    static func trace(client offered: [ProtocolName], server supported: [ProtocolName]) throws -> Trace {
        var setup = try BuiltInRun.ecdhe.setup(seed: 3)
        setup.client.applicationProtocols = offered
        setup.server.applicationProtocols = supported
        return Simulation(setup).run()
    }

    static func objects(_ lines: [String]) throws -> [[String: Any]] {
        try lines.map { line in try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) }
    }

    @Test("text: the offer under ClientHello, the choice and the teaching sentence under ServerHello, agreed and outcome lines")
    func text() throws {
        let trace = try Self.trace(client: [.h2, .http11], server: [.h2, .http11])
        #expect(trace.summary.applicationProtocol == .h2)
        #expect(trace.summary.outcome == "success")
        let text = TextRenderer(width: 200).render(trace).joined(separator: "\n")
        #expect(text.contains("ALPN offers: h2, http/1.1"), "\(text)")
        #expect(text.contains("ALPN chose: h2"))
        #expect(text.contains("the client offers h2 and http/1.1; the server picks h2 inside the handshake, so no extra round trip is needed to switch protocols"))
        #expect(text.contains(", ALPN h2"), "the agreed line")
        #expect(text.contains("application protocol h2 (ALPN)."), "the outcome")
        // Summary verbosity keeps the facts and drops the sentence.
        let summary = TextRenderer(verbosity: .summary, width: 200).render(trace).joined(separator: "\n")
        #expect(summary.contains("ALPN chose: h2") && !summary.contains("no extra round trip"))
    }

    @Test("JSON: alpn in tls_negotiated (both sides) and in the summary")
    func json() throws {
        let objects = try Self.objects(JSONLinesRenderer().render(try Self.trace(client: [.http11, .h2], server: [.h2])))
        let negotiated = objects.filter { $0["event"] as? String == "tls_negotiated" }
        #expect(negotiated.count == 2)
        #expect(negotiated.allSatisfy { $0["alpn"] as? String == "h2" })
        let summary = try #require(objects.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["alpn"] as? String == "h2")
        #expect(summary["outcome"] as? String == "success")
    }

    @Test("without ALPN nothing mentions it: no key, no line (goldens stay as they were)", arguments: [
        ([] as [ProtocolName], [] as [ProtocolName]), ([.h2], []), ([], [.h2]),
    ])
    func absent(_ sides: ([ProtocolName], [ProtocolName])) throws {
        let trace = try Self.trace(client: sides.0, server: sides.1)
        #expect(trace.summary.applicationProtocol == nil)
        let objects = try Self.objects(JSONLinesRenderer().render(trace))
        #expect(!objects.contains { $0["alpn"] != nil })
        let text = TextRenderer(width: 200).render(trace).joined(separator: "\n")
        #expect(!text.contains("ALPN chose") && !text.contains("(ALPN)") && !text.contains("no extra round trip"))
        #expect(text.contains("ALPN offers: h2") == !sides.0.isEmpty)
    }

    @Test("no overlap: the server's alert 120 is explained in plain words; the JSON outcome names it")
    func noOverlap() throws {
        let trace = try Self.trace(client: ["h3"], server: [.h2, .http11])
        #expect(trace.summary.outcome == "no_application_protocol")
        #expect(trace.summary.failure?.sentBy == .server)
        let text = TextRenderer(width: 200).render(trace).joined(separator: "\n")
        #expect(text.contains("TLS Alert fatal no_application_protocol") || text.contains("no_application_protocol"), "\(text)")
        #expect(text.contains("the client offered only application protocols the server does not speak"), "\(text)")
        let objects = try Self.objects(JSONLinesRenderer().render(trace))
        let alerts = objects.filter { $0["event"] as? String == "tls_alert" && $0["description"] as? String == "no_application_protocol" }
        #expect(alerts.map { $0["action"] as? String } == ["sent", "received"], "sent by the server, received by the client")
        #expect(objects.last?["outcome"] as? String == "no_application_protocol")
    }
}
