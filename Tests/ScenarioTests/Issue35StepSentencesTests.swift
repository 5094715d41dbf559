import Foundation
import Testing
@testable import Rendering
@testable import Scenarios
import Simulation
import Trace

/// Issue #35 items 3, 4 and 10: the step explanations of the HTML page (and the walkthrough, which
/// shares them) take the facts of the step — the forged source address, whether the run has TLS,
/// whose key decrypted — instead of assuming a TLS connection between a client and its server.
@Suite("Issue #35: step sentences follow the step")
struct Issue35StepSentencesTests {
    /// #35.3: the off-path attacker forges 10.9.9.9, a host that is not in the run, and the lesson
    /// has no TLS: neither "the attacker's address" nor "only TLS can notice" is true there.
    @Test func offPathInjectionNamesTheForgedAddressAndNoTLS() throws {
        let out = try Issue35SentencesTests.lesson("tcp/predictable-isn-injection")
        for text in [out.en, out.zh] { #expect(!text.contains("Only TLS can notice") && !text.contains("只有 TLS 能发现")) }
        #expect(!out.en.contains("from the attacker&#39;s address") && !out.en.contains("from the attacker's address"))
        #expect(out.en.contains("from 10.9.9.9, an address that is not its own"))
        #expect(out.en.contains("this connection carries no TLS"))
        #expect(out.zh.contains("用不属于自己的地址 10.9.9.9 发送这些字节"))
        #expect(out.zh.contains("这条连接没有 TLS"))
    }

    /// #35.3, the TLS cases. The injection into a TLS connection says what TLS really checks, from
    /// what the attacker injected: a replayed record carries the client's genuine tag, refused because
    /// it was computed over another sequence number (RFC 5246 §6.2.3.1, §6.2.3.3); a ChangeCipherSpec
    /// before any key exists meets no MAC at all (TLS_NULL_WITH_NULL_NULL, §6.1) and is refused by the
    /// handshake's order (§7.4: unexpected_message). The old sentence ("every record carries a MAC or
    /// AEAD tag made with keys the attacker does not have … bad_record_mac") was false for both.
    @Test(arguments: [
        ("attacks/replay", "own sequence number, and the receiver computes the tag over the next sequence number", "两个序号不同，所以重放的记录以 bad_record_mac 被拒绝"),
        ("tls/early-ccs-refused", "TLS has no MAC to check yet", "此时 TLS 还没有 MAC 可查"),
    ])
    func injectionIntoTLSSaysWhatTLSChecks(path: String, english: String, chinese: String) throws {
        let out = try Issue35SentencesTests.lesson(path)
        #expect(out.en.contains("sends these bytes from the client"), "the spoofed address is the client's")
        #expect(out.en.contains(english))
        #expect(out.zh.contains(chinese))
        #expect(!out.en.contains("every record carries a MAC or AEAD tag made with keys"))
        #expect(!out.zh.contains("每条记录都带有用攻击者没有的密钥算出的"))
    }

    /// The premaster's version bytes are checked by whoever decrypts it, against the ClientHello that
    /// party received (RFC 5246 §7.4.7.1): on mitm-trusting's client leg that is the attacker, so the
    /// sentence names it, not "the server", and no longer speaks of "an attacker" noticing itself.
    @Test func versionBytesNameTheReceiverOfThePremaster() throws {
        let mitm = try Issue35SentencesTests.run(.mitmTrusting)
        #expect(mitm.en.contains("The version bytes let the attacker check them against the client_version"))
        #expect(mitm.zh.contains("有了这两个版本字节，攻击者就能把它们和自己收到的 ClientHello 中的 client_version 对照"))
        let rsa = try Issue35SentencesTests.run(.rsa)
        #expect(rsa.en.contains("The version bytes let the server check them against the client_version"))
        for text in [mitm.en, rsa.en] { #expect(!text.contains("let the server notice an attacker")) }
    }

    /// #35.4: in mitm-trusting the attacker decrypts the premaster with its own key (the client
    /// accepted the attacker's certificate), not with "the server's private key".
    @Test func decryptionNamesTheKeyOfTheAcceptedCertificate() throws {
        let out = try Issue35SentencesTests.run(.mitmTrusting)
        #expect(!out.en.contains("holder of the server&#39;s private key") && !out.en.contains("holder of the server's private key"))
        #expect(!out.zh.contains("只有服务器私钥的持有者"))
        #expect(out.en.contains("here the attacker, with its own key"))
        #expect(out.en.contains("here the server, with its own key"))
        #expect(out.zh.contains("这里就是攻击者，用它自己的私钥"))
    }

    /// #35.5: in a run with a man in the middle, each TCP state sentence names the other end of that
    /// connection (the attacker holds one with each side), never "the network"; the attacker's
    /// SYN-ACK is the attacker's, not the server's.
    @Test(arguments: ["attacks/http-mitm-impersonation", "attacks/mitm-default-client"])
    func mitmStateSentencesNameTheRealPeer(name: String) throws {
        let out = try Issue35SentencesTests.lesson(name)
        for text in [out.en, out.en.replacingOccurrences(of: "&#39;", with: "'")] {
            #expect(!text.contains("network's initial sequence number") && !text.contains("network's FIN"), "\(name)")
            #expect(!text.contains("the network will send nothing more"), "\(name)")
        }
        #expect(!out.zh.contains("网络的初始序列号") && !out.zh.contains("收到了网络的 FIN"), "\(name)")
        let en = out.en.replacingOccurrences(of: "&#39;", with: "'")
        #expect(en.contains("knows the attacker's initial sequence number") || en.contains("knows the client's initial sequence number"))
        if name == "attacks/http-mitm-impersonation" {
            #expect(en.contains("SYN-ACK: the attacker acknowledges the client's ISN + 1") && !en.contains("SYN-ACK: the server acknowledges the client's ISN + 1"))
        }
    }

    /// #35.10: a TCP lesson without TLS says the application, not "the server's TLS layer".
    @Test(arguments: ["tcp/four-way-close", "tcp/half-close", "http/http09"])
    func plainConnectionsDoNotMentionATLSLayer(path: String) throws {
        guard FileManager.default.fileExists(atPath: Library.root + "/" + path + ".yaml") else { return }
        let out = try Issue35SentencesTests.lesson(path)
        #expect(!out.en.contains("TLS layer has acted"), "\(path)")
        #expect(!out.zh.contains("TLS 层还没来得及处理"), "\(path)")
    }

    /// #35.10, every lesson without TLS: no step sentence talks about a TLS layer.
    @Test func noPlainLessonMentionsATLSLayer() throws {
        var plain = 0
        for file in Library.files {
            guard let trace = try? ScenarioParser.parse(contentsOf: file).run().trace, !trace.summary.usedTLS else { continue }
            let page = HTMLRenderer(explanations: .english).page(name: "lesson", trace: trace)
            #expect(!page.contains("TLS layer has acted"), "\(file)")
            #expect(!page.contains("Only TLS can notice"), "\(file)")
            plain += 1
        }
        #expect(plain > 10)
    }
}

/// #35 (the decryption line): what the RFC 5246 §7.4.7.1 countermeasure decided, per case — the
/// decrypted value, the offered version in front of decrypted bytes 2–47 (only the version was
/// wrong), or 46 random bytes (padding or length wrong).
@Suite("Issue #35: the countermeasure's three outcomes")
struct CountermeasureOutcomeTests {
    static func line(decrypted: [UInt8]?, used: [UInt8], _ e: Explanations) -> String {
        let event = TraceEvent(time: 0, actor: .server, kind: .tls(.derived(.rsaPreMasterDecryption(ciphertext: [1, 2], decrypted: decrypted, preMasterSecret: used))), peer: .client)
        return TextRenderer(verbosity: .normal, width: 1000, explanations: e).render(Trace(events: [event])).joined(separator: "\n")
    }

    @Test func eachOutcomeIsSaidAsItWas() {
        let offered: [UInt8] = [3, 3] + Array(repeating: 7, count: 46)
        let lowered: [UInt8] = [3, 1] + Array(repeating: 7, count: 46)
        let used = Self.line(decrypted: offered, used: offered, .english)
        #expect(used.contains("so it is used as the premaster"))
        let replaced = Self.line(decrypted: lowered, used: offered, .english)
        #expect(replaced.contains("puts the offered version in front of the decrypted bytes 2–47"))
        #expect(!replaced.contains("46 random bytes"))
        #expect(Self.line(decrypted: lowered, used: offered, .chinese).contains("放在解密出的第 2–47 字节前面"))
        let random = Self.line(decrypted: nil, used: [3, 3] + Array(repeating: 9, count: 46), .english)
        #expect(random.contains("the offered version ‖ 46 random bytes"))
    }
}
