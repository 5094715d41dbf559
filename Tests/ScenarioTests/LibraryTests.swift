import Foundation
import HTTP2
@testable import Scenarios
import Testing
import Trace
import Trust

@Suite("The scenario library passes `tlslab check`")
struct LibraryTests {
    @Test func libraryHasAtLeastThirtyScenarios() {
        #expect(Library.files.count >= 30)
    }

    @Test(arguments: Library.files)
    func scenarioPasses(_ file: String) {
        let result = ScenarioCheck.check(file: file)
        if case .pass = result { return }
        Issue.record("\(result.line)")
    }

    @Test func everyScenarioTeaches() throws {
        for file in Library.files {
            let s = try ScenarioParser.parse(contentsOf: file)
            #expect(!s.title.isEmpty && s.description.count >= 80, "\(file): a description that teaches its point")
        }
    }

    @Test func sameSeedSameFacts() throws {
        let s = try ScenarioParser.parse(contentsOf: Library.root + "/tls/rsa-one-way.yaml")
        #expect(s.run().facts == s.run().facts)
        var other = s
        other.seed = 99
        #expect(other.run().facts["summary.client_random"] != s.run().facts["summary.client_random"])
    }

    @Test func aWrongExpectationFailsWithExpectedAndActual() throws {
        let text = minimal("client: { host: mail.example.com }\n", expect: "expect:\n  handshake: failure\n  alert: unknown_ca\n")
        let s = try ScenarioParser.parse(text: text, file: "x.yaml")
        let result = ScenarioCheck.check(s)
        #expect(result.line == "FAIL x: alert: expected unknown_ca, got bad_certificate")
    }
}

@Suite("Scenarios/README.md's annotated example is a valid, passing scenario")
struct ReadmeExampleTests {
    @Test func annotatedExamplePasses() throws {
        let readme = try String(contentsOfFile: Library.root + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "```yaml\n"))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound ..< readme.endIndex))
        let text = String(readme[start.upperBound ..< end.lowerBound])
        let scenario = try ScenarioParser.parse(text: text, file: "README.md")
        let result = ScenarioCheck.check(scenario)
        if case .pass = result { return }
        Issue.record("\(result.line)")
    }
}
