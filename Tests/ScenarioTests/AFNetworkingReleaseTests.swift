import Foundation
import PKI
import Rendering
@testable import Scenarios
import Testing
import Trace

/// AFNetworking 2.5.2 (issue #19): a mode-none policy's validatesDomainName defaults to NO in 2.5.2,
/// but an app that sets it to YES gets SecPolicyCreateSSL(true, domain) and the host check. The release
/// is a typed fact of the trace, named by the catalogue ("AFNetworking 2.5.2", en and zh); the internal
/// case names (v2_5_1, v2_5_2, current) never reach text, JSON or lessons.
@Suite struct AFNetworkingReleaseTests {
    static func scenario(_ yaml: String) throws -> Scenario {
        let text = "title: t\ndescription: a description long enough to teach\nclient:\n  host: mail.example.com\n  policy:\n"
            + "    afnetworking: \(yaml)\nexpect:\n  handshake: success\n"
        return try ScenarioParser.parse(text: text, file: "t.yaml")
    }

    static func policy(_ s: Scenario) -> AFSecurityPolicy? {
        guard case .tls(let w) = s.world, case .afnetworking(let p, _) = w.policy else { return nil }
        return p
    }

    @Test func validatesDomainFollowsTheReleaseUnlessTheAppSetsIt() throws {
        #expect(Self.policy(try Self.scenario("{ mode: none, version: \"2.5.2\" }"))?.validatesDomainName == false)
        #expect(Self.policy(try Self.scenario("{ mode: none, validates_domain: true, version: \"2.5.2\" }"))?.validatesDomainName == true)
        #expect(Self.policy(try Self.scenario("{ mode: none }"))?.validatesDomainName == true)
        #expect(Self.policy(try Self.scenario("{ mode: none, validates_domain: false }"))?.validatesDomainName == false)
        #expect(Self.policy(try Self.scenario("{ mode: certificate, pinned: [demo-leaf], version: \"2.5.2\" }"))?.validatesDomainName == true)
    }

    @Test func explicitValidatesDomainYESChecksTheHostIn252() throws {
        let implicit = try ScenarioParser.parse(contentsOf: Library.root + "/afnetworking/v2.5.2-no-host-check.yaml").run()
        let explicit = try ScenarioParser.parse(contentsOf: Library.root + "/afnetworking/v2.5.2-validates-domain-yes.yaml").run()
        #expect(implicit.verdict?.accepted == true)
        #expect(explicit.verdict?.accepted == false)
        #expect(explicit.verdict?.firstFailingCheck == .name)
        let reasons = explicit.verdict.map { Explanations.english.trustReasons($0.reasons) } ?? ""
        #expect(reasons.contains("SSL(host: mail.example.com)") && !reasons.contains("host not checked"), "\(reasons)")
    }

    @Test(arguments: ["v2.5.1-accepts-anything": "AFNetworking 2.5.1", "v2.5.2-no-host-check": "AFNetworking 2.5.2",
                      "v2.5.2-validates-domain-yes": "AFNetworking 2.5.2", "mode-none-default": "AFNetworking 2.5.3 or later"])
    func outputNamesTheReleaseAndNoInternalName(lesson: String, name: String) throws {
        let trace = try #require(try ScenarioParser.parse(contentsOf: Library.root + "/afnetworking/\(lesson).yaml").run().trace)
        let english = TextRenderer(verbosity: .normal, width: 1000).render(trace).joined(separator: "\n")
        let chinese = TextRenderer(verbosity: .normal, width: 1000, explanations: .chinese).render(trace).joined(separator: "\n")
        let json = JSONLinesRenderer().render(trace).joined(separator: "\n")
        #expect(english.contains("as \(name) evaluates it"), "\(lesson)")
        let chineseName = name.replacingOccurrences(of: " or later", with: " 及以后版本")
        // One space where Latin letters or digits touch Han, none after a Chinese word (review-zh 3.8).
        #expect(chinese.contains("按 " + chineseName + (chineseName.hasSuffix("版本") ? "" : " ") + "的方式评估"), "\(lesson)")
        let version: String = name.hasSuffix("or later") ? "2.5.3+" : (name.split(separator: " ").last.map(String.init) ?? "")
        #expect(json.contains("\"afnetworking_release\":\"\(version)\""), "\(lesson)")
        for output in [english, chinese, json] {
            for hidden in ["v2_5_1", "v2_5_2", "current)", "\"current\""] {
                #expect(!output.contains(hidden), "\(lesson) shows \(hidden)")
            }
        }
    }
}
