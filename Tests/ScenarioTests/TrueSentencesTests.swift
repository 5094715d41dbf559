import Foundation
import Testing
import Trace
@testable import Rendering
@testable import Scenarios
import Simulation
import TCPSim
import TLSEngine

/// Sentences that were false (issues #19 and #24, the sentence review): each test reads the rendered
/// text or the trace of the run where the false sentence was printed.
@Suite("Only true sentences")
struct TrueSentencesTests {
    static func text(_ run: BuiltInRun, seed: UInt64 = 1) throws -> String {
        TextRenderer(verbosity: .normal, width: 1000).render(Simulation(try run.setup(seed: seed)).run()).joined(separator: "\n")
    }

    static func lesson(_ path: String) throws -> (text: String, trace: Trace) {
        let trace = try #require(try ScenarioParser.parse(contentsOf: Library.root + "/" + path).run().trace)
        return (TextRenderer(verbosity: .normal, width: 1000).render(trace).joined(separator: "\n"), trace)
    }

    static func say(_ key: String) throws -> String { try #require(Explanations.english(key)) }
    static func say(_ key: String, _ values: [String: String]) throws -> String { try #require(Explanations.english(key, values)) }

    /// #24.1: the injected segment is labelled with the record it carries, not with the client's
    /// later bytes at the same sequence numbers (its close_notify).
    @Test func replayedSegmentNamesTheReplayedRecord() throws {
        let text = try Self.text(.replay)
        let injected = try #require(text.split(separator: "\n").first { $0.contains("injected by the attacker") })
        #expect(injected.contains("· application data (a copy of an earlier record)"), "\(injected)")
        #expect(!injected.contains("close_notify"))
    }

    /// #24.5: where the sequence number goes, and that it also stops deletion and reordering.
    @Test func replayExplanationNamesAdditionalDataAndExplicitNonce() throws {
        let text = try Self.text(.replay)
        #expect(text.contains(try Self.say("attack.replay")))
        for part in ["into the additional data", "explicit nonce travels in the record", "deleted or moved out of order"] {
            #expect(text.contains(part), "missing: \(part)")
        }
        #expect(!text.contains("AEAD nonce and additional data"))
    }

    /// #24.8 / #19: the sentence of the check that fired — a changed random with extended master
    /// secret: different keys, the Finished record fails (bad_record_mac).
    @Test func tamperedServerHelloExplainsTheRecordCheck() throws {
        let text = try Self.text(.tamperServerHello)
        #expect(text.contains(try Self.say("attack.tamper.keys")))
        #expect(!text.contains(try Self.say("attack.tamper.finished")))
        #expect(!text.contains("the side that checks first sends a fatal alert"))
        // The Finished record is the one whose decryption raised the alert, not one read after it.
        let drop = try #require(text.split(separator: "\n").first { $0.contains("drops TLS Finished") })
        #expect(drop.contains("this is the record whose decryption raised bad_record_mac"), "\(drop)")
    }

    /// #24.8: with (EC)DHE a changed random breaks the ServerKeyExchange signature first (decrypt_error).
    @Test func tamperedSignatureExplainsTheSignatureCheck() throws {
        let text = try Self.lesson("attacks/tamper-ecdhe-signature.yaml").text
        #expect(text.contains(try Self.say("attack.tamper.signature")))
        #expect(!text.contains(try Self.say("attack.tamper.keys")))
    }

    /// #24.8: a changed certificate is caught by the chain check, not by Finished.
    @Test func tamperedCertificateExplainsTheChainCheck() throws {
        var setup = try BuiltInRun.tamperServerHello.setup(seed: 1)
        setup.attack = .tamper(TamperTarget(message: "Certificate", sender: .server, offset: 800))
        let text = TextRenderer(verbosity: .normal, width: 1000).render(Simulation(setup).run()).joined(separator: "\n")
        #expect(text.contains("client REJECTS"))
        #expect(text.contains(try Self.say("attack.tamper.certificate")))
        #expect(!text.contains(try Self.say("attack.tamper.finished")))
    }

    /// #24.8: when neither a signature nor the keys failed, decrypt_error is the Finished comparison.
    @Test func decryptErrorWithoutABadSignatureIsTheFinishedCheck() throws {
        let events = [
            TraceEvent(time: 0, actor: .attacker, kind: .attack(.tampered(message: "ClientHello", sender: .client, offset: 60, old: 1, new: 2))),
            TraceEvent(time: 1, actor: .server, kind: .tls(.alertSent(.fatal(.decryptError), cause: .failure(.peerMisbehaved(.finishedMismatch))))),
        ]
        let text = TextRenderer(verbosity: .normal, width: 1000).render(Trace(events: events)).joined(separator: "\n")
        #expect(text.contains(try Self.say("attack.tamper.finished")))
        #expect(!text.contains(try Self.say("attack.tamper.signature")))
    }

    /// #24.9: after the tamper the server still knows the server_random it made.
    @Test func serverKnowsItsOwnRandomAfterATamper() throws {
        let table = Simulation(try BuiltInRun.tamperServerHello.setup(seed: 1)).run().knowledge
        let own = try #require(table.rows.first { $0.secret == .serverRandom })
        #expect(own.server && !own.client)
        let copy = try #require(table.rows.first { $0.changedInFlight })
        #expect(copy.client && !copy.server)
        #expect(try Self.text(.tamperServerHello).contains("server_random           —      knows"))
    }

    /// #24.10: the passive OPEN is drawn at the start of the run, before any SYN (RFC 9293 §3.3.2).
    @Test(arguments: BuiltInRun.allCases)
    func serverListensBeforeAnySYN(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let listen = trace.events.firstIndex {
            if $0.actor == .server, case .tcp(.connection(_, .stateChanged(.closed, .listen, _))) = $0.kind { true } else { false }
        }
        let syn = trace.events.firstIndex { if case .tcp(.sent(let p)) = $0.kind { p.segment.flags.contains(.syn) } else { false } }
        let l = try #require(listen), s = try #require(syn)
        #expect(l < s && trace.events[l].time == 0)
        // Only once: the connections forked from the listener go on from LISTEN.
        #expect(trace.events.filter {
            if $0.actor == .server, case .tcp(.connection(_, .stateChanged(.closed, .listen, _))) = $0.kind { true } else { false }
        }.count == 1)
    }

    /// #19: plain HTTP is not "encrypted application-data records".
    @Test func plainHTTPPhaseSaysPlainText() throws {
        let text = try Self.text(.httpPlain)
        #expect(text.contains(try Self.say("phase.httpPlain")))
        #expect(!text.contains("encrypted application-data records"))
        #expect(!text.contains(try Self.say("phase.http")))
    }

    /// #19 / A4: AES-GCM suites have no MAC keys; the order of the seed is explained.
    @Test func keyBlockOfAGCMSuiteHasNoMACKeys() throws {
        let text = try Self.text(.rsa)
        #expect(text.contains(try Self.say("tls.keyBlock")))
        #expect(!text.contains("cut into MAC keys"))
        #expect(text.contains("no MAC keys") && text.contains("SSL 3.0"))
    }

    /// #19 / A5: the premaster's first two bytes are ClientHello.client_version.
    @Test func rsaPremasterVersionIsTheOfferedOne() throws {
        let text = try Self.text(.rsa)
        #expect(text.contains("ClientHello.client_version (its highest, not the one the server chose)"))
        #expect(!text.contains("(the third random)"))
    }

    /// #19 / A3: the client's Certificate in mutual TLS is not "the server's chain … host name".
    @Test func clientCertificateHasItsOwnSentence() throws {
        let text = try Self.lesson("mtls/success.yaml").text
        #expect(text.contains(try Self.say("tls.Certificate.client")))
        #expect(text.contains(try Self.say("tls.Certificate", ["sender": "server", "receiver": "client"])), "the server's Certificate keeps its sentence")
    }

    /// #19 / A12: a close is not always four segments.
    @Test func closeSentencesSayWhenFINAndACKCombine() throws {
        let text = try Self.text(.rsa)
        #expect(!text.contains("closing takes four messages"))
        #expect(text.contains("can ride on the same segment as its ACK"))
        #expect(try Self.text(.httpPlain).contains("three when it sends its FIN together with its ACK"))
    }

    /// Phrases the reviews found false must not come back anywhere: the catalogue, built-in run
    /// summaries, lesson titles and descriptions.
    @Test func noKnownFalsePhraseAnywhere() throws {
        var corpus = Explanations.english.text.values.joined(separator: "\n")
        corpus += BuiltInRun.allCases.compactMap { Explanations.english("run.summary.\($0.rawValue)") }.joined(separator: "\n")
        for file in Library.files {
            let s = try ScenarioParser.parse(contentsOf: file)
            corpus += "\n" + s.title + "\n" + s.description
        }
        for phrase in ["nothing but the two randoms", "Only the two randoms cross the wire", "learns only the two randoms",
                       "for the same security", "The work grows with p", "TLS clients in apps do not",
                       "learns nothing from the timing", "four messages instead of three", "MAC keys, write keys and IVs",
                       "AEAD nonce and additional data", "the reverse order)", "(the third random)",
                       "invalid in a way nobody may override", "the side that checks first sends a fatal alert",
                       "lists the versions", "draws its ISNs at random (RFC 6528)", "v2_5_1", "v2_5_2"] {
            #expect(!corpus.contains(phrase), "still says: \(phrase)")
        }
    }
}
