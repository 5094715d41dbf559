import Foundation
import Languages
@testable import Rendering
@testable import Scenarios
import Simulation
import Testing
import Trace

/// Issue #33 (review-zh 5.7): a row's text alternative on the page (`<title>`) names the party once.
/// A label that names its actor already ("server: CLOSED → LISTEN", "attacker changes the byte …")
/// carries the typed flag `LadderEntry.namesActor`, and the page does not put the party before it again.
@Suite("HTML row titles name the actor once")
struct HTMLRowTitleTests {
    /// Every row's `<title>`.
    static func titles(_ html: String) -> [String] {
        html.matches(of: /<g class="row[^"]*" id="row-\d+"[^>]*>\n<title>([^<]+)<\/title>/).map { String($0.output.1) }
    }

    /// Titles in which a party's name follows itself ("server: server: …", "服务器：服务器的 TCP …"); a name
    /// that begins a longer word is not the name ("client: client_handshake_traffic_secret = …").
    static func repeats(_ titles: [String], _ explanations: Explanations) -> [String] {
        let separator = explanations.language == .zh ? "：" : ": "
        let names = [Actor.client, .server, .attacker, .eavesdropper].map { explanations.actorName($0.rawValue) }
        return titles.filter { title in
            names.contains { name in
                title.ranges(of: name + separator + name).contains { range in
                    guard range.upperBound < title.endIndex else { return true }
                    let next = title[range.upperBound]
                    return !(next == "_" || (next.isASCII && next.isLetter))
                }
            }
        }
    }

    static let languages: [Explanations] = [.english, .chinese]

    @Test(arguments: [BuiltInRun.mitm, .tls13MITM, .keyTheftRSA, .tamperServerHello, .strip, .h2])
    func builtInRuns(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        for explanations in Self.languages {
            let titles = Self.titles(HTMLRenderer(explanations: explanations).page(name: run.rawValue, trace: trace))
            #expect(titles.count > 10)
            #expect(Self.repeats(titles, explanations).isEmpty, "\(run): \(Self.repeats(titles, explanations))")
        }
    }

    @Test(arguments: ["tcp/three-way-handshake.yaml", "tcp/predictable-isn-injection.yaml", "tcp/lost-data.yaml",
                      "tcp/time-wait-expires.yaml"])
    func tcpLessons(file: String) throws {
        let path = Library.root + "/" + file
        let scenario = try ScenarioParser.parse(text: try String(contentsOfFile: path, encoding: .utf8), file: path)
        let trace = try #require(scenario.run().trace)
        for explanations in Self.languages {
            let titles = Self.titles(HTMLRenderer(explanations: explanations).page(name: file, trace: trace))
            #expect(titles.count > 5)
            #expect(Self.repeats(titles, explanations).isEmpty, "\(file): \(Self.repeats(titles, explanations))")
        }
    }

    /// The review's row, before and after: a state change names its party once, in both languages;
    /// a row whose words do not name the party (the negotiated parameters) still gets it in front.
    @Test func theReviewsRow() throws {
        let path = Library.root + "/tcp/three-way-handshake.yaml"
        let trace = try #require(try ScenarioParser.parse(text: try String(contentsOfFile: path, encoding: .utf8), file: path).run().trace)
        let en = Self.titles(HTMLRenderer(explanations: .english).page(name: "tcp", trace: trace))
        #expect(en.contains { $0.contains(": server: CLOSED → LISTEN") }, "\(en)")
        #expect(!en.contains { $0.contains("server: server") })
        let zh = Self.titles(HTMLRenderer(explanations: .chinese).page(name: "tcp", trace: trace))
        #expect(zh.contains { $0.contains("：服务器：CLOSED → LISTEN") }, "\(zh)")
        #expect(!zh.contains { $0.contains("服务器：服务器") })
        let rsa = Self.titles(HTMLRenderer().page(name: "rsa", trace: Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()))
        #expect(rsa.contains { $0.contains(": client: agreed: TLS 1.2") }, "\(rsa)")
    }

    /// The flag is set where the words are chosen: a state change's entry says it names its actor;
    /// the negotiated parameters' entry does not.
    @Test func theFlagIsOnTheEntry() throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let document = RunDocumentBuilder(verbosity: .normal, width: 200).prepared(for: trace).document(for: trace)
        let entries = document.steps.flatMap(\.entries).filter { $0.mark?.isArrow == false && $0.mark?.from != nil }
        #expect(entries.contains { $0.namesActor && $0.text.hasPrefix("server: CLOSED → LISTEN") })
        #expect(entries.contains { !$0.namesActor && $0.text.hasPrefix("agreed:") })
    }
}
