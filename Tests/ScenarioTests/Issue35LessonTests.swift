import Foundation
import Testing
import Trace
@testable import Rendering
@testable import Scenarios
import TLSEngine

/// Issue #35, "lessons to add": each passes its expectations (`tlslab check`), is translated, sits in
/// the course order right after the lesson it builds on, and shows what it teaches in both languages.
@Suite("Issue #35: the lessons added")
struct Issue35LessonTests {
    static let added = ["tls/bleichenbacher-countermeasure", "tcp/lost-segment-mid-record", "ats/arbitrary-loads-with-exception", "tls/early-ccs-refused"]

    @Test(arguments: added)
    func passesAndIsTranslated(name: String) throws {
        let file = Library.root + "/" + name + ".yaml"
        guard case .pass = ScenarioCheck.check(file: file) else { Issue.record("\(ScenarioCheck.check(file: file).line)"); return }
        let s = try ScenarioParser.parse(contentsOf: file)
        #expect(s.expectations.count >= 2)
        #expect(s.chinese != nil && s.tryNext.count == (s.chinese?.tryNext.count ?? -1))
    }

    @Test func theCourseTakesThemInOrder() {
        let path = LessonCatalogue(directory: Library.root).path.map(\.name)
        func follows(_ name: String, _ before: String) {
            guard let i = path.firstIndex(of: name), let j = path.firstIndex(of: before) else { Issue.record("\(name) or \(before) not in the course"); return }
            #expect(i == j + 1, "\(name) right after \(before)")
        }
        follows("tcp/lost-segment-mid-record", "tcp/lost-data")
        follows("tls/bleichenbacher-countermeasure", "tls/lost-segments")
        follows("ats/arbitrary-loads-with-exception", "ats/arbitrary-loads")
        follows("tls/early-ccs-refused", "tls/bleichenbacher-countermeasure")
    }

    /// An early ChangeCipherSpec, injected before any key exists, is refused with unexpected_message
    /// (RFC 5246 §7.1, §7.2.2; CVE-2014-0224); the injected segment is not called a copy.
    @Test func earlyChangeCipherSpecIsRefused() throws {
        let out = try Issue35SentencesTests.lesson("tls/early-ccs-refused")
        #expect(out.en.contains("attacker injects a ChangeCipherSpec record (14 03 03 00 01 01) toward the server right after the ClientHello"))
        #expect(out.zh.contains("紧跟在 ClientHello 之后向服务器注入一条 ChangeCipherSpec 记录（14 03 03 00 01 01）"))
        #expect(out.en.contains("A ChangeCipherSpec before the keys exist (CVE-2014-0224)") && out.zh.contains("在密钥存在之前到达的 ChangeCipherSpec（CVE-2014-0224）"))
        #expect(out.en.contains("TLS Alert fatal unexpected_message"))
        #expect(out.en.contains("ChangeCipherSpec (made by the attacker)") && !out.en.contains("ChangeCipherSpec (a copy of an earlier record)"))
        // The server refuses it because it awaits ClientKeyExchange (RFC 5246 §7.4's order rule): the
        // error `EngineReasonWordingTests.sentencesNameTheirRule` checks the words of.
        let trace = try #require(try ScenarioParser.parse(contentsOf: Library.root + "/tls/early-ccs-refused.yaml").run().trace)
        let failure = try #require(trace.summary.failure)
        #expect(failure.sentBy == .server && failure.alert == .unexpectedMessage)
        #expect(failure.cause == .failure(.inappropriateMessage(expected: .inState(.expectClientKeyExchange), got: .content(.changeCipherSpec))))
        // Without the attacker the same world succeeds (the try_next).
        var text = try String(contentsOfFile: Library.root + "/tls/early-ccs-refused.yaml", encoding: .utf8)
        text = text.replacing("attacker: { kind: early_ccs }\n", with: "")
        let s = try ScenarioParser.parse(text: text, file: "t.yaml")
        #expect(s.run().facts["handshake"] == .string("success"))
    }

    /// The countermeasure: a substitute premaster, said nothing, Finished fails with bad_record_mac (RFC 5246 §7.4.7.1).
    @Test func bleichenbacherShowsTheCountermeasure() throws {
        let out = try Issue35SentencesTests.lesson("tls/bleichenbacher-countermeasure")
        #expect(out.en.contains(try #require(Explanations.english("tls.countermeasure")).prefix(60)))
        #expect(out.en.contains("a check failed, so the countermeasure uses a substitute premaster instead"))
        #expect(out.zh.contains("检查没有通过，所以对策改用替代的预主密钥"))
        #expect(out.en.contains("TLS Alert fatal bad_record_mac"))
        // The walkthrough's step (and so the HTML page) says what the substitute means, not that the server now has the client's premaster.
        #expect(out.en.contains("The decryption gave no valid premaster, and the server does not say so"))
        #expect(out.zh.contains("解密没有得到有效的预主密钥，服务器却不声张"))
        #expect(!out.en.contains("the server now has the premaster the client chose"))
    }

    /// The gap: the later segment is held out of order, ACKs ask for the missing byte, the retransmission fills it.
    @Test func lostSegmentIsHeldUntilTheGapFills() throws {
        let out = try Issue35SentencesTests.lesson("tcp/lost-segment-mid-record")
        #expect(out.en.contains("TCP holds seq=2781560833 len=200 out of order: it arrived ahead of a gap and waits until the gap fills"))
        #expect(out.zh.contains("TCP 把 seq=2781560833 len=200 放进乱序队列"))
        #expect(out.en.contains("nothing past the gap reaches TLS") && out.zh.contains("空缺之后的字节一个也到不了 TLS"))
        #expect(out.en.contains("(retransmission 1)") && out.zh.contains("（第 1 次重传）"))
        // A TLS record, not a stand-in: the client's TLS checks the certificate chain (whose record
        // the lost segment cut) only after the retransmission has filled the gap.
        let trace = try #require(try ScenarioParser.parse(contentsOf: Library.root + "/tcp/lost-segment-mid-record.yaml").run().trace)
        #expect(trace.summary.usedTLS)
        let retransmitted = try #require(trace.events.first { e in
            if case .tcp(.connection(_, .retransmitted)) = e.kind { e.actor == .server } else { false } }?.time)
        let chainChecked = try #require(trace.events.first { e in
            if case .tls(.certificateDecision) = e.kind { e.actor == .client } else { false } }?.time)
        #expect(chainChecked > retransmitted, "the client's TLS cannot read the Certificate before the gap fills")
    }

    /// The exception domain wins over NSAllowsArbitraryLoads for its host.
    @Test func exceptionDomainWinsOverArbitraryLoads() throws {
        let checks = try Issue35SentencesTests.ats("ats/arbitrary-loads-with-exception")
        #expect(checks.map(\.rule) == [.exceptionDomain, .https])
        #expect(checks.last?.result == .failed)
    }
}
