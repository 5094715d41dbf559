import Testing
import TLSEngine
import Rendering
@testable import Scenarios
import Trace

/// Issue #38, defect 1: `export --keylog` writes one line per connection, resumed ones included.
/// By ticket the client makes up the session ID it sends beside the ticket (RFC 5077 §3.4), so the
/// resumed session cannot be found by ID: the line comes from the master secret the engine reports
/// with the resumption.
@Suite("Key log lines: one per connection, resumed ones included")
struct KeyLogLinesTests {
    @Test("the resumption lessons: three connections, three lines, one master secret",
          arguments: ["http/resumption", "http/resumption-ticket"])
    func lessons(_ name: String) throws {
        let scenario = try ScenarioParser.parse(contentsOf: Library.root + "/\(name).yaml")
        let trace = try #require(scenario.run().trace)
        let connections = Set(trace.events.compactMap { e -> Int? in
            if case .tls(.handshakeSent(.clientHello, _)) = e.kind, e.actor == .client { return e.connection } else { return nil }
        })
        #expect(connections.count == 3)
        let sessions = KeyLogWriter.sessions(from: trace)
        #expect(sessions.count == connections.count, "\(name): \(sessions.count) line(s) for \(connections.count) connections")
        #expect(Set(sessions.map(\.clientRandom)).count == sessions.count)
        #expect(Set(sessions.map(\.masterSecret)).count == 1, "the resumed connections reuse the first one's master secret")
        let text = KeyLogWriter.text(sessions)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("CLIENT_RANDOM ") }.count == 3)
    }
}
