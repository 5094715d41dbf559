import Testing
import TLSEngine
@testable import Scenarios
import Trace

/// `resumption: ticket` (RFC 5077): the first connection's server hands out a NewSessionTicket and
/// keeps no session cache; the later connections offer the ticket and resume from it alone.
@Suite("Lesson: resumption by session ticket")
struct TicketResumptionTests {
    static func tls(_ trace: Trace, connection: Int, actor: Actor) -> [TLSEvent] {
        trace.events.compactMap { e in
            guard e.connection == connection, e.actor == actor, case .tls(let event) = e.kind else { return nil }
            return event
        }
    }

    @Test("the ticket lesson: a ticket after the first full handshake, then two resumptions by it")
    func lesson() throws {
        let scenario = try ScenarioParser.parse(contentsOf: Library.root + "/http/resumption-ticket.yaml")
        guard case .tls(let world) = scenario.world else { Issue.record("not a TLS lesson"); return }
        #expect(world.resumesByTicket && world.resumesSessions)
        let run = scenario.run()
        #expect(scenario.firstUnmet(in: run.facts) == nil)
        let trace = try #require(run.trace)
        for connection in 0 ..< 3 {
            let server = Self.tls(trace, connection: connection, actor: .server)
            let sent = server.compactMap { if case .handshakeSent(let m, _) = $0 { return m.type } else { return nil } }
            let hello = Self.tls(trace, connection: connection, actor: .client).compactMap { e -> ClientHello? in
                if case .handshakeSent(.clientHello(let h), _) = e { return h } else { return nil }
            }.first
            let offered = hello?.extensions?.compactMap { ext -> [UInt8]? in
                if case .sessionTicket(let t) = ext { return t } else { return nil }
            }.first
            if connection == 0 {
                #expect(sent == [.serverHello, .certificate, .serverKeyExchange, .serverHelloDone, .newSessionTicket, .finished], "\(sent)")
                #expect(offered == [], "the first ClientHello asks for a ticket with an empty extension")
            } else {
                #expect(sent == [.serverHello, .newSessionTicket, .finished], "connection \(connection): \(sent)")
                #expect(offered?.isEmpty == false, "connection \(connection) offers the ticket")
                #expect(server.contains { if case .sessionResumed = $0 { return true } else { return false } })
            }
        }
        // Resumption by session ID, the lesson beside it: no ticket anywhere.
        let byID = try ScenarioParser.parse(contentsOf: Library.root + "/http/resumption.yaml").run()
        let idTrace = try #require(byID.trace)
        #expect(!idTrace.events.contains { e in
            if case .tls(.handshakeSent(.newSessionTicket, _)) = e.kind { return true } else { return false }
        })
    }

    @Test("resumption takes true, false or ticket")
    func values() {
        #expect(validationError(minimal("http: { mode: http/1.0, resumption: ticket, requests: [\"GET / HTTP/1.0\\r\\n\\r\\n\", \"GET / HTTP/1.0\\r\\n\\r\\n\"] }\n")) == nil)
        let bad = validationError(minimal("http: { resumption: tickets }\n"))
        #expect(bad?.path == "http.resumption", "\(String(describing: bad))")
        let plain = validationError(minimal("http: { tls: false, resumption: ticket }\n"))
        #expect(plain?.message.hasPrefix("contradiction") == true, "\(String(describing: plain))")
    }
}
