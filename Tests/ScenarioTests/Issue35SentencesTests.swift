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
        #expect(!out.en.contains("link 1 (anchor)") && !out.zh.contains("深度 1（信任锚）"))
        #expect(out.en.contains("link 1 (last certificate reached, not a trusted anchor)"))
        #expect(out.zh.contains("深度 1（路径上最后一张证书，不是受信任的信任锚）"))
        // The headline does not call the path "leaf → anchor" either (no anchor was reached).
        #expect(!out.en.contains("chain, leaf → anchor") && !out.zh.contains("从叶子证书到信任锚"))
        #expect(out.en.contains("chain from the leaf up (path of 2, ending at a certificate that is not a trusted anchor)"))
        #expect(out.zh.contains("从叶子证书向上（路径长度 2，最后一张证书不是受信任的信任锚）"))
        // A path that does end at an anchor still says so.
        let valid = try Self.lesson("certs/valid-chain")
        #expect(valid.en.contains("(anchor)") && valid.zh.contains("（信任锚）"))
        #expect(valid.en.contains("chain, leaf → anchor") && valid.zh.contains("从叶子证书到信任锚"))
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

/// Issue #35, "Also wrong or confusing": offsets, the digest's name, retransmission counts, rounded
/// times, what the §7.4.7.1 countermeasure decided, the server's own secrets after a tamper, the strip
/// summary, and `--full` in the bytes view.
@Suite("Issue #35: also wrong or confusing")
struct Issue35AlsoWrongTests {
    /// A 0-based offset is "the byte at offset N" / "偏移 N 处的字节"; 第 N 个字节 names the byte before it.
    @Test func tamperLinesNameAnOffset() throws {
        let out = try Issue35SentencesTests.run(.tamperServerHello)
        #expect(!out.en.contains("changes byte ") && out.en.contains("changes the byte at offset 16 of the server's ServerHello"))
        #expect(!out.zh.contains(/第 \d+ 个字节/) && out.zh.contains("中偏移 16 处的字节："))
        for path in ["attacks/http-plain-tamper", "attacks/https-tamper-detected"] {
            let yaml = try String(contentsOfFile: Library.root + "/" + path + ".yaml", encoding: .utf8)
            #expect(!yaml.contains("byte 79") && !yaml.contains("第 79 个字节"), "\(path)")
            #expect(yaml.contains("the byte at offset 79") && yaml.contains("偏移 79 处的字节"), "\(path)")
        }
    }

    /// Hash1 is the digest (SHA-256); the signature algorithm is spelled as its OID's name,
    /// sha256WithRSAEncryption (RFC 4055 §5), ecdsa-with-SHA384 (RFC 5758 §3.2).
    @Test func hash1IsTheDigestAndTheAlgorithmIsSpelledAsItsOID() throws {
        let out = try Issue35SentencesTests.run(.rsa)
        for text in [out.en, out.zh] {
            #expect(!text.contains("SHA-256WithRSAEncryption"))
            #expect(text.contains("sha256WithRSAEncryption") && text.contains("Hash1 = SHA-256(TBSCertificate) = "))
        }
        #expect(out.en.contains("Hash1 = SHA-256 digest of the TBSCertificate (the signature algorithm is sha256WithRSAEncryption)"))
        #expect(out.zh.contains("Hash1 = TBSCertificate 的 SHA-256 摘要（签名算法是 sha256WithRSAEncryption）"))
        #expect("\(SignatureAlgorithm.ecdsa(.sha384))" == "ecdsa-with-SHA384")
        #expect("\(SignatureAlgorithm.rsaPKCS1v15(.sha1))" == "sha1WithRSAEncryption")
        #expect("\(SignatureAlgorithm.rsaPKCS1v15(.md5))" == "md5WithRSAEncryption")
    }

    /// The first retransmission is retransmission 1 (第 1 次重传), not "attempt 1" (which reads as the original send).
    @Test func retransmissionsAreCountedAsRetransmissions() throws {
        let out = try Issue35SentencesTests.run(.lossy)
        #expect(!out.en.contains("(attempt 1)") && out.en.contains("(retransmission 1)"))
        #expect(!out.zh.contains("次尝试") && out.zh.contains("（第 1 次重传）"))
    }

    /// Times are rounded to the nearest tenth of a millisecond, not truncated.
    @Test func timesAreRounded() {
        #expect(TextRenderer.timeText(882) == "0.9ms")
        #expect(TextRenderer.timeText(160_882) == "160.9ms")
        #expect(TextRenderer.timeText(160_849) == "160.8ms")
        #expect(TextRenderer.timeText(949) == "0.9ms" && TextRenderer.timeText(950) == "1.0ms")
        #expect(TextRenderer.timeText(60_000) == "60.0ms" && TextRenderer.timeText(99_960, unit: false) == "100.0")
    }

    /// The decryption line says what the RFC 5246 §7.4.7.1 countermeasure decided.
    @Test func decryptionSaysWhatTheCountermeasureDecided() throws {
        let out = try Issue35SentencesTests.run(.rsa)
        #expect(!out.en.contains("(uses ") && !out.zh.contains("（使用 "))
        #expect(out.en.contains("the PKCS#1 padding is valid, the value is 48 bytes and starts with the version the client offered, so it is used as the premaster"))
        #expect(out.zh.contains("PKCS#1 填充有效，长度是 48 字节，开头是客户端提供的版本，所以这个值被用作预主密钥"))
        var setup = try BuiltInRun.tamperServerHello.setup(seed: 1)
        setup.attack = .tamper(TamperTarget(message: "ClientKeyExchange", sender: .client, offset: 10))
        let tampered = Issue35SentencesTests.outputs(Simulation(setup).run())
        #expect(tampered.en.contains("a check failed, so the countermeasure uses a substitute premaster instead, the offered version ‖ 46 random bytes = "))
        #expect(tampered.zh.contains("检查没有通过，所以对策改用替代的预主密钥——客户端提供的版本 ‖ 46 个随机字节 = "))
        #expect(!tampered.en.contains("so it is used as the premaster"))
    }

    /// After a changed server_random the server derived a master secret and keys of its own: the
    /// table says so instead of showing it knowing none.
    @Test func knowledgeTableShowsTheServersOwnSecrets() throws {
        let trace = Simulation(try BuiltInRun.tamperServerHello.setup(seed: 1)).run()
        let rows = trace.knowledge.rows
        let master = try #require(rows.firstIndex { $0.secret == .masterSecret && !$0.derivedDifferently })
        #expect(rows[master].client && !rows[master].server)
        #expect(rows[master + 1].secret == .masterSecret && rows[master + 1].derivedDifferently && rows[master + 1].server && !rows[master + 1].client)
        let out = Issue35SentencesTests.outputs(trace)
        #expect(out.en.contains("  server's own value") && out.en.contains("A server's own value: both sides derived this secret"))
        #expect(out.zh.contains("  服务器自己的值") && out.zh.contains("服务器自己的值：双方都推导出了这个秘密"))
        // Without a tamper nothing splits.
        #expect(!Simulation(try BuiltInRun.rsa.setup(seed: 1)).run().knowledge.hasDifferentValues)
    }

    /// `tlslab list`: strip ends in decrypt_error because extended master secret is off in that run;
    /// the lesson attacks/strip-suites has it on and ends in bad_record_mac (RFC 7627 §4).
    @Test func stripSummarySaysExtendedMasterSecretIsOff() throws {
        #expect(Explanations.english("run.summary.strip")?.contains("extended master secret is off here; with it on, as in attacks/strip-suites, bad_record_mac") == true)
        #expect(Explanations.chinese("run.summary.strip")?.contains("这里关闭了扩展主密钥") == true)
    }

    /// `--full`: the bytes view shows every byte of a 256-byte field.
    @Test func fullShowsEveryByteOfALongField() throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        var renderer = TextRenderer(verbosity: .bytes, width: 100_000)
        renderer.fullValues = true
        let text = renderer.render(trace).joined(separator: "\n")
        let ciphertext = try #require(trace.events.lazy.compactMap { e -> [UInt8]? in
            if case .tls(.derived(.rsaPreMasterEncryption(_, _, let c, _, _, _))) = e.kind { c } else { nil } }.first)
        #expect(ciphertext.count == 256)
        #expect(text.contains(ciphertext.map { String(format: "%02x", $0) }.joined(separator: " ")))
        #expect(!text.contains("… (256 bytes)"))
        // Without --full the field is still shortened.
        let short = TextRenderer(verbosity: .bytes, width: 100_000).render(trace).joined(separator: "\n")
        #expect(short.contains("… (256 bytes)") || short.contains(" … "))
    }
}
