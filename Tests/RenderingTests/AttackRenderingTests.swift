import Foundation
import HTTP2
@testable import Rendering
@testable import Simulation
import TCPSim
import TLSEngine
import Testing
import Trace
import Trust

/// The renderers on runs with attackers and several connections: the attacker's column, the
/// attack lines, the knowledge columns, the statistics, and JSON that still pairs every message.
@Suite("Rendering attacks and several connections")
struct AttackRenderingTests {
    static func trace(_ run: BuiltInRun) throws -> Trace { Simulation(try run.setup(seed: 2)).run() }

    static func objects(_ lines: [String]) throws -> [[String: Any]] {
        try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any])
        }
    }

    @Test func mitmJSONNamesTheAttackerAndStillPairsEveryMessage() throws {
        let objects = try Self.objects(JSONLinesRenderer().render(try Self.trace(.mitmTrusting)))
        for o in objects { #expect(o["t"] != nil && o["actor"] is String && o["event"] is String) }
        let messages = objects.filter { $0["event"] as? String == "tls_message" }
        let directions = Set(messages.compactMap { $0["direction"] as? String })
        #expect(directions == ["client->attacker", "attacker->client", "attacker->server", "server->attacker"])
        func key(_ o: [String: Any]) -> String { "\(o["message"]!)\(o["bytes"]!)\(o["direction"]!)" }
        #expect(messages.filter { $0["action"] as? String == "sent" }.map(key).sorted()
                == messages.filter { $0["action"] as? String == "received" }.map(key).sorted())
        let segments = objects.filter { $0["event"] as? String == "tcp_segment" }
        #expect(segments.contains { $0["direction"] as? String == "attacker->server" && $0["flags"] as? String == "S" })
        #expect(objects.contains { $0["event"] as? String == "attack" && $0["kind"] as? String == "learned" && $0["secret"] as? String == "HTTP cookie" })
        #expect(objects.last?["event"] as? String == "summary")
    }

    @Test(arguments: BuiltInRun.allCases)
    func sameSeedSameJSON(run: BuiltInRun) throws {
        let a = JSONLinesRenderer().render(Simulation(try run.setup(seed: 9)).run())
        let b = JSONLinesRenderer().render(Simulation(try run.setup(seed: 9)).run())
        #expect(a == b)
        #expect(try Self.objects(a).last?["event"] as? String == "summary")
    }

    @Test func singleConnectionJSONKeepsTheContractFields() throws {
        let objects = try Self.objects(JSONLinesRenderer().render(try Self.trace(.rsa)))
        #expect(!objects.contains { $0["connection"] != nil })
        let summary = try #require(objects.last)
        #expect(summary["round_trips"] as? Int == 5 && summary["connections"] as? Int == 1)
        let http10 = try Self.objects(JSONLinesRenderer().render(try Self.trace(.http10)))
        #expect(Set(http10.compactMap { $0["connection"] as? Int }) == [1, 2])
        #expect(http10.last?["full_handshakes"] as? Int == 3)
    }

    @Test func textShowsTheAttackerColumnTheAttackAndTheKnowledge() throws {
        let renderer = TextRenderer(width: 200)
        let mitm = renderer.render(try Self.trace(.mitmTrusting)).joined(separator: "\n")
        for text in ["client ──▶ attacker  TLS ClientHello", "attacker ──▶ server  TLS ClientHello",
                     "attacker LEARNS the HTTP cookie: Cookie: session=42", "eavesdropper   attacker"] {
            #expect(mitm.contains(text), "missing: \(text)")
        }
        let theft = renderer.render(try Self.trace(.keyTheftRSA)).joined(separator: "\n")
        #expect(theft.contains("eavesdropper   afterwards"))
        #expect(theft.contains("master secret       knows    knows      —            knows"))
        let fs = renderer.render(try Self.trace(.keyTheftECDHE)).joined(separator: "\n")
        #expect(fs.contains("master secret       knows    knows      —              —"))
        let tamper = renderer.render(try Self.trace(.tamperServerHello)).joined(separator: "\n")
        #expect(tamper.contains("attacker changes the byte at offset 16 of the server's ServerHello in flight"))
        let http10 = renderer.render(try Self.trace(.http10)).joined(separator: "\n")
        #expect(http10.contains("connections: 3; TLS handshakes: 3 full, 0 abbreviated"))
        let plain = renderer.render(try Self.trace(.httpPlain)).joined(separator: "\n")
        #expect(plain.contains("HTTP request (in plain text, no TLS)"))
        #expect(plain.contains("HTTP cookie         knows    knows    knows"))
    }
}
