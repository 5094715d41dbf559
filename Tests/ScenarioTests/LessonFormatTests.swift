import Foundation
import PKI
@testable import Scenarios
import Simulation
import Testing
import Trace

@Suite("Lesson format: demos, try_next, the catalogue, ATS rule checks, round trips to the first byte")
struct LessonFormatTests {
    @Test func aFileWithoutExpectIsADemo() throws {
        let s = try ScenarioParser.parse(text: minimal(expect: ""), file: "t.yaml")
        #expect(s.expectations.isEmpty)
        guard case .invalid(let e) = ScenarioCheck.check(s) else { Issue.record("check must refuse a demo"); return }
        #expect(e.path == "expect")
    }

    @Test func tryNextIsOneOrTwoLines() throws {
        let ok = try ScenarioParser.parse(text: minimal("try_next:\n  - Set ems to false and the master secret uses the randoms.\n"), file: "t.yaml")
        #expect(ok.tryNext == ["Set ems to false and the master secret uses the randoms."])
        let folded = try ScenarioParser.parse(text: minimal("try_next:\n  - >\n    Change the seed: every random value changes.\n"), file: "t.yaml")
        #expect(folded.tryNext == ["Change the seed: every random value changes."])
        let three = validationError(minimal("try_next: [aaaaaaaaaaaa, bbbbbbbbbbbb, cccccccccccc]\n"))
        #expect(three?.path == "try_next" && three?.message.contains("one or two") == true, "\(three.map { "\($0)" } ?? "valid")")
        let short = validationError(minimal("try_next: [short]\n"))
        #expect(short?.path == "try_next[0]", "\(short.map { "\($0)" } ?? "valid")")
        let lines = validationError(minimal("try_next:\n  - |\n    first line of it\n    second line of it\n"))
        #expect(lines?.path == "try_next[0]", "\(lines.map { "\($0)" } ?? "valid")")
        let scalar = validationError(minimal("try_next: change the seed to 2\n"))
        #expect(scalar?.path == "try_next", "a list, not a string")
        let typo = validationError(minimal("try_nxt: [change the seed to 2]\n"))
        #expect(typo?.message.contains("did you mean 'try_next'") == true)
    }

    @Test func resultsCheckEveryExpectationInOrder() throws {
        let s = try ScenarioParser.parse(text: minimal(expect: "expect:\n  handshake: success\n  suite: TLS_RSA_WITH_AES_256_GCM_SHA384\n"), file: "t.yaml")
        let (problems, checked) = s.results(in: s.run().facts)
        #expect(problems.isEmpty)
        #expect(checked.map(\.0.key) == ["handshake", "suite"])
        #expect(checked[0].1 == nil && checked[1].1 != nil)
    }

    /// At least the 20 most important lessons end with a suggestion.
    @Test func importantLessonsHaveTryNext() throws {
        let withTryNext = try Library.files.filter { !(try ScenarioParser.parse(contentsOf: $0).tryNext.isEmpty) }
        #expect(withTryNext.count >= 20, "\(withTryNext.count) lessons with try_next")
        let path = LessonCatalogue(directory: Library.root).path
        let firstOfEachTopic = Dictionary(grouping: path, by: \.topic).compactMap { $0.value.first?.file }
        for file in firstOfEachTopic { #expect(withTryNext.contains(file), "\(file): a topic's first lesson suggests what to try next") }
    }

    @Test func catalogueReadsEveryFileWithoutBuildingIt() {
        let c = LessonCatalogue(directory: Library.root)
        #expect(c.problems.isEmpty, "\(c.problems)")
        #expect(c.entries.count == Library.files.count)
        #expect(c.entry(named: "tcp/old-duplicate-syn")?.kind == "tcp")
        #expect(c.entry(named: "tcp/old-duplicate-syn.yaml")?.topic == "tcp")
        #expect(c.path.first?.name == "tcp/three-way-handshake")
        #expect(Array(c.path.map(\.topic).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }) == LessonCatalogue.topicOrder)
        #expect(LessonCatalogue.suggestions(for: "old-duplicate-syn", among: c.entries.map(\.name)).first == "tcp/old-duplicate-syn")
        #expect(LessonCatalogue.suggestions(for: "ats/pined-leaf", among: c.entries.map(\.name)).first == "ats/pinned-leaf")
        #expect(c.filtered(by: ["ats", "pinned"]).allSatisfy { $0.kind == "ats" })
    }

    /// The ATS rule checks say what the reasons say: the last check failed exactly when ATS blocks,
    /// every failed rule names the key that relaxes it (but the signature rule's one), and every
    /// ATS lesson's trace shows the plan, the rules and the verdict.
    @Test(arguments: Library.files.filter { (try? ScenarioParser.parse(contentsOf: $0).kind) == "ats" })
    func atsRuleChecksMatchTheDecision(file: String) throws {
        let s = try ScenarioParser.parse(contentsOf: file)
        guard case .ats(let w) = s.world else { Issue.record("not ats"); return }
        let run = s.run()
        let trace = try #require(run.trace)
        let rules = trace.events.compactMap { e -> ATSRuleCheck? in if case .lesson(.atsRule(let c)) = e.kind { c } else { nil } }
        let verdict = trace.events.compactMap { e -> Bool? in if case .lesson(.atsVerdict(let a)) = e.kind { a } else { nil } }
        #expect(verdict.count == 1)
        let allowed = run.facts["ats"] == .string("allowed")
        #expect(verdict.first == allowed)
        #expect((rules.last?.result == .failed) == !allowed, "\(file)")
        #expect(rules.filter { $0.result == .failed }.count == (allowed ? 0 : 1))
        for r in rules where r.result == .failed || r.result == .relaxed {
            #expect(!r.relaxedBy.isEmpty, "\(file): \(r.rule) names its key")
        }
        #expect(w.host == trace.events.compactMap { e -> String? in if case .lesson(.atsPlan(let p)) = e.kind { p.host } else { nil } }.first)
    }

    @Test func atsChecksCoverEachRule() {
        let ats = ATSPolicy(exceptionDomains: ["example.com": .init(minimumTLSVersion: .tls10, requiresForwardSecrecy: false)])
        let d = ats.evaluate(.init(host: "example.com", tlsVersion: .tls10, forwardSecret: false, trust: nil))
        #expect(d.atsChecks.map(\.rule) == [.exceptionDomain, .https, .minimumVersion, .forwardSecrecy, .defaultTrust])
        #expect(d.atsChecks.map(\.result) == [.applies, .passed, .relaxed, .relaxed, .failed])
        let http = ATSPolicy().evaluate(.init(host: "example.com", usesHTTPS: false, trust: nil))
        #expect(http.atsChecks.last == ATSRuleCheck(.https, .failed, ["host": "example.com"],
                                                    relaxedBy: ["NSExceptionDomains", "example.com", "NSExceptionAllowsInsecureHTTPLoads"]))
    }

    /// Round trips before the first response byte, apart from the whole exchange: plain HTTP/1.0 2
    /// (TCP's handshake, the request); HTTPS with a full handshake 4 (two more for TLS), whether the
    /// connection carries one request (HTTP/1.0), several in sequence (keep-alive) or at once
    /// (pipelining, HTTP/2); a resumed connection 3 (the abbreviated handshake takes one); h2c 2.
    @Test func roundTripsToTheFirstByte() throws {
        func stats(_ run: BuiltInRun) throws -> RunStatistics { Simulation(try run.setup(seed: 1)).run().statistics }
        let plain = try stats(.httpPlain)
        #expect(plain.roundTripsToFirstByte == 2 && plain.roundTrips == 3, "the close is the third")
        #expect(try stats(.rsa).roundTripsToFirstByte == 4)
        #expect(try stats(.http10).roundTripsToFirstByteByConnection == [4, 4, 4])
        let keepAlive = try stats(.keepAlive)
        #expect(keepAlive.roundTripsToFirstByte == 4 && keepAlive.roundTrips == 7)
        let resumed = try stats(.resumption)
        #expect(resumed.roundTripsToFirstByteByConnection == [4, 3], "the resumed connection saves one")
        #expect(try stats(.h2).roundTripsToFirstByte == 4)
        #expect(try stats(.h2c).roundTripsToFirstByte == 2)
        let facts = try ScenarioParser.parse(text: minimal(expect: "expect:\n  round_trips_to_first_byte: 4\n"), file: "t.yaml")
        #expect(facts.firstUnmet(in: facts.run().facts) == nil)
    }
}
