import Foundation
import PKI
@testable import Scenarios
import Testing

/// `reason_includes` names a decision step by its identifier (PKI's `TrustReason.identifier`): the
/// lesson matches the step, not the catalogue's words for it; English words are refused with advice.
@Suite("reason_includes: trust reason identifiers")
struct ReasonIdentifierTests {
    static func ats(_ reason: String) -> String {
        "title: t\ndescription: a description long enough to teach\nkind: ats\nats: {}\n"
            + "connection: { host: example.com, tls_version: TLSv1.0 }\nexpect:\n  ats: blocked\n  reason_includes: \(reason)\n"
    }

    @Test func anIdentifierMatchesTheStep() throws {
        let scenario = try ScenarioParser.parse(text: Self.ats("ats.versionBelowMinimum"), file: "t.yaml")
        let run = scenario.run()
        #expect(scenario.firstUnmet(in: run.facts) == nil)
        let other = try ScenarioParser.parse(text: Self.ats("ats.notForwardSecret"), file: "t.yaml")
        let unmet = other.firstUnmet(in: other.run().facts)
        #expect(unmet?.key == "reason_includes", "a step the run did not take does not hold")
        #expect(unmet?.actual.map(\.description)?.contains("ats.versionBelowMinimum") == true, "\(String(describing: unmet))")
    }

    @Test func englishWordsAreRefusedWithTheWayToSayIt() {
        let e = validationError(Self.ats("\"TLSv1.0 is below the minimum TLSv1.2\""))
        #expect(e?.path == "expect.reason_includes")
        #expect(e?.message.contains("not its English words") == true && e?.message.contains("Scenarios/README.md") == true,
                "\(e.map { "\($0)" } ?? "valid")")
    }

    @Test func aMisspelledIdentifierGetsASuggestion() {
        let e = validationError(Self.ats("ats.versionBelowMinimun"))
        #expect(e?.message.hasSuffix("did you mean 'ats.versionBelowMinimum'?") == true, "\(e.map { "\($0)" } ?? "valid")")
    }

    /// The scenario format's documentation lists every identifier a lesson may write.
    @Test func theFormatDocumentationListsEveryIdentifier() throws {
        let readme = try String(contentsOfFile: Library.root + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "#### Trust reason identifiers").last)
        for id in TrustReason.identifiers {
            let parts = id.split(separator: ".", maxSplits: 1)
            // An ATS or AFSecurityPolicy step is listed after its prefix ("`ats.` followed by: `httpBlocked`").
            let listed = ["ats", "af"].contains(String(parts[0])) && parts.count == 2 ? "`\(parts[1])`" : "`\(id)`"
            #expect(section.contains(listed), "\(id) is not in Scenarios/README.md")
        }
    }
}
