import Foundation
import Testing
import Trace
@testable import Rendering
@testable import Scenarios
import Simulation
import TLSEngine

/// Issue #35, "the why still missing": each explanation is present where the step is shown, in
/// English and Chinese, text and HTML, and carries the facts of the run.
@Suite("Issue #35: the why, where the step is shown")
struct Issue35WhyTests {
    /// The record header's version beside ClientHello.client_version (RFC 5246 Appendix E.1), under the segment that carries it.
    @Test func recordVersionBesideClientVersion() throws {
        let trace = Simulation(try BuiltInRun.rsa.setup(seed: 1)).run()
        let en = TextRenderer(verbosity: .bytes, width: 1000).render(trace).joined(separator: "\n")
        let zh = TextRenderer(verbosity: .bytes, width: 1000, explanations: .chinese).render(trace).joined(separator: "\n")
        // The client writes 03 01 in its first record header and offers 03 03 (the engine's choice, RFC 5246 E.1).
        let first = try #require(trace.events.lazy.compactMap { e -> RecordTrace? in
            if e.actor == .client, case .tls(.recordSent(let r)) = e.kind { r } else { nil } }.first)
        #expect(Array(first.wire.prefix(3)) == [0x16, 0x03, 0x01])
        #expect(en.contains("starts with a 5-byte header, 16 03 01 00 60: content type 16 (handshake), record version 03 01, length 96 — so TCP carries 101 bytes for it"))
        #expect(en.contains("the offer is ClientHello.client_version, 03 03.") && en.contains("(RFC 5246 Appendix E.1)"))
        #expect(zh.contains("5 字节的记录头 16 03 01 00 60 开头：内容类型 16（握手）、记录版本 03 01、长度 96——所以 TCP 为它传输 101 个字节") && zh.contains("RFC 5246 附录 E.1"))
        // Under the segment that carries the ClientHello, also in the walkthrough and its HTML page.
        let out = Issue35SentencesTests.outputs(trace)
        #expect(out.en.contains("so TCP carries 101 bytes for it") && out.zh.contains("所以 TCP 为它传输 101 个字节"))
        let html = HTMLRenderer().page(name: "rsa", trace: trace)
        #expect(html.contains("so TCP carries 101 bytes for it"))
    }

    /// One sentence per extension the ClientHello carries, under its bytes, in both languages.
    @Test(arguments: [BuiltInRun.rsa, .h2, .resumption])
    func eachExtensionIsExplainedWhereTheBytesShowIt(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let en = TextRenderer(verbosity: .bytes, width: 1000).render(trace).joined(separator: "\n")
        let zh = TextRenderer(verbosity: .bytes, width: 1000, explanations: .chinese).render(trace).joined(separator: "\n")
        let hello = try #require(trace.events.lazy.compactMap { e -> ClientHello? in
            if e.actor == .client, case .tls(.handshakeSent(.clientHello(let ch), _)) = e.kind { ch } else { nil } }.first)
        let keys: [(ExtensionType, String)] = [(.serverName, "ext.server_name"), (.signatureAlgorithms, "ext.signature_algorithms"),
                                               (.supportedGroups, "ext.supported_groups"), (.ecPointFormats, "ext.ec_point_formats"),
                                               (.extendedMasterSecret, "ext.extended_master_secret"), (.renegotiationInfo, "ext.renegotiation_info"),
                                               (.sessionTicket, "ext.session_ticket"), (.applicationLayerProtocolNegotiation, "ext.alpn"),
                                               (.encryptThenMAC, "ext.encrypt_then_mac")]
        // The page says them too, beside the ClientHello's bytes (#35: "where the bytes view shows it").
        let enPage = HTMLRenderer().page(name: run.rawValue, trace: trace)
        let zhPage = HTMLRenderer(explanations: .chinese).page(name: run.rawValue, trace: trace)
        let sent = Set((hello.extensions ?? []).map(\.type))
        #expect(!sent.isEmpty)
        for (type, key) in keys {
            // The first words of the sentence (before the wrap could split it) name the extension and its RFC.
            let enStart = String(try #require(Explanations.english(key)).prefix(30))
            let zhStart = String(try #require(Explanations.chinese(key)).prefix(20))
            #expect(en.contains(enStart) == sent.contains(type), "\(run) \(key)")
            #expect(zh.contains(zhStart) == sent.contains(type), "\(run) \(key)")
            #expect(enPage.contains(HTMLText.escaped(enStart)) == sent.contains(type), "page: \(run) \(key)")
            #expect(zhPage.contains(HTMLText.escaped(zhStart)) == sent.contains(type), "page: \(run) \(key)")
        }
    }

    /// ChangeCipherSpec is its own record type (RFC 5246 §7.1), not in the Finished hash, and CVE-2014-0224.
    @Test func changeCipherSpecSaysWhyItIsItsOwnRecordType() throws {
        let out = try Issue35SentencesTests.run(.ecdhe)
        #expect(out.en.contains("It is a record type of its own (content type 20), not a handshake message (RFC 5246 §7.1)"))
        #expect(out.en.contains("so it is not in the Finished hash") && out.en.contains("CVE-2014-0224"))
        #expect(out.zh.contains("它是一种独立的记录类型（内容类型 20），而不是握手消息（RFC 5246 §7.1）") && out.zh.contains("CVE-2014-0224"))
    }

    /// The first protected record's nonce and additional data as values, checked against the trace's facts.
    @Test(arguments: [BuiltInRun.rsa, .ecdhe])
    func firstGCMRecordShowsNonceAndAdditionalData(run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let clientIV = try #require(trace.events.lazy.compactMap { e -> [UInt8]? in
            if e.actor == .client, case .tls(.derived(.keyBlock(_, _, _, let k))) = e.kind { k.clientWriteIV } else { nil } }.first)
        let record = try #require(trace.events.lazy.compactMap { e -> RecordTrace? in
            if e.actor == .client, case .tls(.recordSent(let r)) = e.kind, r.crypto != nil { r } else { nil } }.first)
        let salt = Hex.string(clientIV), explicit = Hex.string(Array(record.wire[5..<13]))
        let length = record.wire.count - 5 - 8 - 16
        let aad = "0000000000000000 ‖ 16 ‖ 0303 ‖ " + Hex.string([UInt8(length >> 8), UInt8(length & 0xff)])
        let out = Issue35SentencesTests.outputs(trace)
        #expect(out.en.contains("AES-GCM nonce = salt ‖ explicit = \(salt) ‖ \(explicit) = \(salt)\(explicit)"))
        #expect(out.en.contains("Additional data = seq_num ‖ type ‖ version ‖ length = \(aad)"))
        #expect(out.zh.contains("AES-GCM nonce = 盐值 ‖ 显式部分 = \(salt) ‖ \(explicit) = \(salt)\(explicit)"))
        #expect(out.zh.contains("附加数据 = seq_num ‖ 类型 ‖ 版本 ‖ 长度 = \(aad)"))
    }

    /// keyUsage where the chain checks show it, by who uses the key for what in this handshake.
    @Test func keyUsageIsExplainedByTheKeyExchange() throws {
        let rsa = try Issue35SentencesTests.run(.rsa)
        #expect(rsa.en.contains("With RSA key exchange, as here, the server's key decrypts the premaster the client encrypted to it: keyEncipherment"))
        #expect(rsa.zh.contains("像这里这样用 RSA 密钥交换时，服务器的密钥要解密客户端用它加密的预主密钥：keyEncipherment"))
        let ecdhe = try Issue35SentencesTests.run(.ecdhe)
        #expect(ecdhe.en.contains("With (EC)DHE, as here, the server's key only signs the (EC)DH parameters in ServerKeyExchange: digitalSignature"))
        #expect(ecdhe.zh.contains("像这里这样用 (EC)DHE 时，服务器的密钥只给 ServerKeyExchange 中的 (EC)DH 参数签名：digitalSignature"))
        for text in [rsa.en, ecdhe.en] { #expect(text.contains("A CA's key signs certificates and needs keyCertSign")) }
    }

    /// AFSecurityPolicy's early NO says what a host check on an unvouched certificate would and would not prove.
    @Test func mustUsePinningSaysWhy() throws {
        let out = try Issue35SentencesTests.lesson("afnetworking/must-use-pinning")
        #expect(out.en.contains("A host-name check on it would prove only that the certificate spells the name, not that the server holds a key anyone vouched for"))
        #expect(out.zh.contains("对它做域名校验，只能证明证书上写着这个域名，不能证明服务器持有一把有人担保过的密钥"))
    }
}
