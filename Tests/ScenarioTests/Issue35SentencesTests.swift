import Foundation
import PKI
import Testing
import Trace
@testable import Rendering
@testable import Scenarios
import Simulation
import TLSEngine

/// Issue #35: sentences a new learner found false or misleading. Each test renders the run or lesson
/// where the sentence was printed — text and HTML, English and Chinese — and checks that the old
/// sentence is gone and the new one is there.
@Suite("Issue #35: only true sentences")
struct Issue35SentencesTests {
    /// The outputs a learner reads: text (normal and bytes verbosity) and the HTML page, in both languages.
    static func outputs(_ trace: Trace, name: String = "run") -> (en: String, zh: String) {
        func all(_ e: Explanations) -> String {
            [TextRenderer(verbosity: .normal, width: 1000, explanations: e).render(trace).joined(separator: "\n"),
             TextRenderer(verbosity: .bytes, width: 1000, explanations: e).render(trace).joined(separator: "\n"),
             HTMLRenderer(explanations: e).page(name: name, trace: trace)].joined(separator: "\n")
        }
        return (all(.english), all(.chinese))
    }

    static func lesson(_ path: String) throws -> (en: String, zh: String) {
        let trace = try #require(try ScenarioParser.parse(contentsOf: Library.root + "/" + path + ".yaml").run().trace)
        return outputs(trace, name: path)
    }

    static func run(_ run: BuiltInRun, seed: UInt64 = 1) throws -> (en: String, zh: String) {
        outputs(Simulation(try run.setup(seed: seed)).run(), name: run.rawValue)
    }

    static func ats(_ path: String) throws -> [ATSRuleCheck] {
        let trace = try #require(try ScenarioParser.parse(contentsOf: Library.root + "/" + path + ".yaml").run().trace)
        return trace.events.compactMap { e -> ATSRuleCheck? in if case .lesson(.atsRule(let c)) = e.kind { c } else { nil } }
    }

    // MARK: 1. ATS attribution

    /// #35.1: under NSAllowsArbitraryLoads the http:// rule is lifted by that key, not by an
    /// NSExceptionDomains key the Info.plist does not hold (Apple, NSAppTransportSecurity › NSAllowsArbitraryLoads).
    @Test func arbitraryLoadsNamesTheKeyThatRelaxedTheLoad() throws {
        let out = try Self.lesson("ats/arbitrary-loads")
        for text in [out.en, out.zh] { #expect(!text.contains("NSExceptionAllowsInsecureHTTPLoads")) }
        #expect(out.en.contains("(relaxed by NSAllowsArbitraryLoads)"))
        #expect(out.zh.contains("（由 NSAllowsArbitraryLoads 放宽）"))
        #expect(!out.en.contains("none of its rules is checked"))
        #expect(!out.zh.contains("所以不检查任何规则"))
        // The same for an https load over TLS 1.0: the lowered minimum is the exemption's doing.
        let d = ATSPolicy(allowsArbitraryLoads: true).evaluate(.init(host: "api.example.com", tlsVersion: .tls10, forwardSecret: false, trust: nil))
        let minimum = try #require(d.atsChecks.first { $0.rule == .minimumVersion })
        #expect(minimum.result == .relaxed && minimum.relaxedBy == ["NSAllowsArbitraryLoads"])
    }

    /// #35.1, every ATS lesson: a rule that was relaxed names a key that the lesson's Info.plist holds.
    @Test(arguments: Library.files.filter { (try? ScenarioParser.parse(contentsOf: $0).kind) == "ats" })
    func aRelaxedRuleNamesAKeyTheInfoPlistHolds(file: String) throws {
        let yaml = try String(contentsOfFile: file, encoding: .utf8)
        let trace = try #require(try ScenarioParser.parse(contentsOf: file).run().trace)
        let rules = trace.events.compactMap { e -> ATSRuleCheck? in if case .lesson(.atsRule(let c)) = e.kind { c } else { nil } }
        for r in rules where r.result == .relaxed {
            let key = try #require(r.relaxedBy.last)
            #expect(yaml.contains(key), "\(file): \(r.rule) relaxed by \(r.relaxedBy), not in the Info.plist")
        }
    }

    // MARK: 9. ATS forward secrecy is ECDHE

    /// #35.9: ATS counts only ECDHE suites as forward secret (Apple, NSExceptionRequiresForwardSecrecy).
    @Test(arguments: ["ats/tls10-blocked", "ats/pinned-leaf", "ats/tls10-exception"])
    func atsForwardSecrecyIsECDHE(path: String) throws {
        let out = try Self.lesson(path)
        #expect(!out.en.contains("((EC)DHE)") && !out.zh.contains("（(EC)DHE）"))
        #expect(out.en.contains("(ECDHE"))
        #expect(out.zh.contains("（ECDHE"))
    }

    // MARK: 2, 6, 7. TCP attributions and sections

    /// #35.2: 64,000 per connection is 4.3BSD's counter (TCP_ISSINCR = 125·1024, half per connection);
    /// 4.2BSD added 128 a second and 64 per connection (its TCP_ISSINCR was 128; Morris 1985).
    @Test func predictableISNAttributesEachFigureToItsStack() throws {
        let out = try Self.lesson("tcp/predictable-isn-injection")
        #expect(!out.en.contains("(4.2BSD's counter)") && !out.zh.contains("（4.2BSD 的计数器）"))
        #expect(out.en.contains("+ 64000 = ") && out.en.contains("the counter of 4.3BSD") && out.en.contains("added 128 and 64"))
        #expect(out.zh.contains("+ 64000 = ") && out.zh.contains("4.3BSD 及其衍生协议栈的计数器") && out.zh.contains("加的是 128 和 64"))
    }

    /// #35.6: the return to LISTEN is Reset Processing, RFC 9293 §3.5.3 (not §3.5.2, Reset Generation).
    @Test func resetToListenCitesResetProcessing() throws {
        let out = try Self.lesson("tcp/old-duplicate-syn")
        #expect(!out.en.contains("returns to LISTEN (RFC 9293 §3.5.2") && !out.zh.contains("回到 LISTEN（RFC 9293 §3.5.2"))
        #expect(out.en.contains("returns to LISTEN (RFC 9293 §3.5.3, Figure 8)"))
        #expect(out.zh.contains("回到 LISTEN（RFC 9293 §3.5.3，图 8）"))
    }

    /// #35.7: TIME-WAIT and its 2·MSL are RFC 9293 §3.6 (Closing a Connection), not §3.4.2 (quiet time).
    @Test(arguments: ["tcp/time-wait-expires", "tcp/half-close", "tcp/four-way-close", "tcp/simultaneous-close"])
    func timeWaitCitesClosingAConnection(path: String) throws {
        let out = try Self.lesson(path)
        #expect(!out.en.contains("§3.4.2") && !out.zh.contains("§3.4.2"))
        #expect(out.en.contains("can be used again (RFC 9293 §3.6)"))
        #expect(out.zh.contains("旧重复报文段在网络中消失（RFC 9293 §3.6）"))
    }

    // MARK: 8. A chain's last link is an anchor only when an anchor ended the path

    @Test(arguments: ["certs/bundled-anchor-other-ca", "afnetworking/renewal-certificate-pinning"])
    func unanchoredTopIsNotCalledAnAnchor(path: String) throws {
        let out = try Self.lesson(path)
        #expect(!out.en.contains("link 1 (anchor)") && !out.zh.contains("第 1 级（信任锚）"))
        #expect(out.en.contains("link 1 (last certificate reached, not a trusted anchor)"))
        #expect(out.zh.contains("第 1 级（路径上最后一张证书，不是受信任的信任锚）"))
        // A path that does end at an anchor still says so.
        let valid = try Self.lesson("certs/valid-chain")
        #expect(valid.en.contains("(anchor)") && valid.zh.contains("（信任锚）"))
    }

    // MARK: 11. Who could still get the premaster depends on the key exchange

    @Test(arguments: [BuiltInRun.dhe, .ecdhe, .h2, .keyTheftECDHE])
    func ephemeralRunsDoNotBlameAStolenRSAKey(run: BuiltInRun) throws {
        let out = try Self.run(run)
        // The old sentences (with and without extended master secret), and the RSA one.
        #expect(!out.en.contains("(a stolen RSA key, a guessable generator)") && !out.en.contains("by stealing the server's key later"))
        #expect(!out.zh.contains("（偷到的 RSA 私钥、可猜测的随机数生成器）") && !out.zh.contains("日后偷到服务器的私钥"))
        #expect(!out.en.contains("by stealing the server's private key") && !out.zh.contains("偷到服务器的私钥（哪怕是日后）"))
        #expect(out.en.contains("A stolen server key would not give it: with (EC)DHE that key only signed the parameters"))
        #expect(out.zh.contains("偷到服务器的私钥也给不出预主密钥：在 (EC)DHE 中，这把私钥只用来签名参数"))
    }

    @Test func rsaRunStillNamesTheStolenKey() throws {
        let out = try Self.run(.rsa)
        #expect(out.en.contains("by stealing the server's private key, even later"))
        #expect(out.zh.contains("偷到服务器的私钥（哪怕是日后）"))
        #expect(!out.en.contains("A stolen server key would not give it"))
        #expect(!out.en.contains("{unless}") && !out.zh.contains("{unless}"))
    }
}
