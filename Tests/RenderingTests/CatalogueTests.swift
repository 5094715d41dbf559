import Foundation
import Languages
@testable import Rendering
import Simulation
import Testing
import TestSupport
import Trace

/// The catalogues: every key in every language, with the same placeholders; the Chinese one uses
/// the glossary's terms; English and Chinese tables do not overlap by accident.
@Suite("Catalogue: every key in English and Chinese")
struct CatalogueTests {
    static func placeholders(_ text: String) -> Set<String> {
        var out: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) { out.insert(String(name)) }
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    @Test func everyEnglishKeyHasAChineseText() {
        let english = Explanations.english.text
        let chinese = Explanations.chineseText
        let missing = english.keys.filter { chinese[$0] == nil }.sorted()
        #expect(missing.isEmpty, "keys without a Chinese text (add them to Explanations+zh*.swift): \(missing)")
        let extra = chinese.keys.filter { english[$0] == nil }.sorted()
        #expect(extra.isEmpty, "Chinese keys the English catalogue does not have: \(extra)")
        for (key, text) in chinese {
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(key): empty Chinese text")
        }
    }

    @Test func placeholdersAreTheSameInBothLanguages() {
        for (key, english) in Explanations.english.text {
            guard let chinese = Explanations.chineseText[key] else { continue }
            #expect(Self.placeholders(english) == Self.placeholders(chinese),
                    "\(key): English {\(Self.placeholders(english).sorted())} vs Chinese {\(Self.placeholders(chinese).sorted())}")
        }
    }

    @Test func theTablesOfEachLanguageDoNotOverlap() {
        let english = Explanations.englishTables
        let chinese = Explanations.chineseSlices
        for tables in [english, chinese] {
            var seen: [String: Int] = [:]
            for (i, table) in tables.enumerated() {
                for key in table.keys {
                    #expect(seen[key] == nil, "\(key) is in two tables (\(seen[key] ?? -1) and \(i)): one would hide the other")
                    seen[key] = i
                }
            }
        }
    }

    /// Sentences mostly Chinese: a Chinese text that is the English one unchanged is a forgotten
    /// translation, except labels that are identifiers in both languages.
    @Test func chineseTextsAreTranslated() {
        let identifiers: Set<String> = [
            "actor.client", "secret.client_random", "secret.server_random", "secret.client_write_key", "secret.server_write_key",
            "secret.HTTP_cookie", "ats.setting", "ats.result.applies", "chain.role.ca", "chain.kind.keyCertSign",
            "ladder.agreed.alpn", "derived.master", "chain.check", "ladder.tcp.state", "tcp.script.connect",
            "afNetworking.release.v2_5_1", "afNetworking.release.v2_5_2",  // product names with a version number
            "signature.hashesEqual", "pssFailure.hashMismatch",               // formulas (RFC 8017 §8.1.2, §9.1.2)
            "chain.hash1",                                                   // a formula: Hash1 = SHA-256(TBSCertificate)
            // TLS 1.3: message names and the key schedule's secrets as RFC 8446 §7.1 names them.
            "tls13.messages.clientHello", "tls13.messages.serverHello", "secret.tls13_handshake_secret",
            "secret.tls13_client_handshake_traffic_secret", "secret.tls13_server_handshake_traffic_secret",
            "secret.tls13_client_application_traffic_secret_0", "secret.tls13_server_application_traffic_secret_0",
            // bench: key exchanges by their algorithm names.
            "cli.bench.kx.dhe", "cli.bench.kx.ecdhe",
        ]
        for (key, english) in Explanations.english.text where !identifiers.contains(key) {
            guard let chinese = Explanations.chineseText[key], chinese == english else { continue }
            // Texts with no letters at all (punctuation and placeholders) may stay.
            let words = english.replacing(/\{[a-zA-Z]+\}/, with: "").filter(\.isLetter)
            #expect(words.isEmpty, "\(key): the Chinese text is the English one")
        }
    }

    @Test func builtInRunSummariesAreTheCatalogues() {
        for run in BuiltInRun.allCases {
            #expect(Explanations.english("run.summary.\(run.rawValue)") != nil, "\(run.rawValue)")
            #expect(Explanations.chineseText["run.summary.\(run.rawValue)"] != nil, "\(run.rawValue)")
        }
    }

    @Test func languagesNameTheirCatalogues() {
        #expect(Language.en.explanations.language == .en)
        #expect(Language.zh.explanations.language == .zh)
        #expect(Language.zh.tag == "zh-Hans")
        #expect(Explanations.catalogue(for: .zh)("actor.client") == "客户端")
    }

    /// Party names inside a simulation's sentence are worded too.
    @Test func sentencesWordTheirParties() {
        let s = Sentence("dropped.stoppedReading", ["receiver": "server"])
        #expect(Explanations.english.sentence(s) == "the server had stopped reading TLS records")
        #expect(Explanations.chinese.sentence(s).hasPrefix("服务器"))
    }

    // MARK: The glossary

    typealias GlossaryRow = ChineseGlossary.Row

    static func glossary() throws -> [GlossaryRow] { try ChineseGlossary.rows() }

    @Test func theGlossaryIsReadable() throws {
        let rows = try Self.glossary()
        #expect(rows.count >= 30, "the glossary lists the key terms (\(rows.count) rows)")
        for term in ["握手", "客户端随机数", "预主密钥", "主密钥", "密钥块", "证书链", "信任锚", "前向安全", "中间人", "证书锁定",
                     "三次握手", "四次挥手", "序号", "确认号", "证书序列号", "私有指数", "共享秘密", "密钥用法", "重传"] {
            #expect(rows.contains { $0.terms.contains(term) }, "the glossary lists \(term)")
        }
    }

    /// Each glossary term is used where the glossary says, and no text uses a rendering it rules out.
    @Test func theCatalogueUsesTheGlossaryTerms() throws {
        let chinese = Explanations.chineseText
        for row in try Self.glossary() {
            for key in row.keys {
                guard let text = chinese[key] else {
                    Issue.record("glossary: \(row.english) names \(key), which is not a catalogue key")
                    continue
                }
                #expect(row.terms.contains { text.contains($0) }, "\(key) should say \(row.chinese) (\(row.english)): \(text)")
            }
        }
        let rows = try Self.glossary()
        for (key, text) in chinese.sorted(by: { $0.key < $1.key }) {
            for variant in ChineseGlossary.forbiddenVariants(in: text, rows: rows) {
                Issue.record("\(key) uses \(variant)")
            }
        }
    }
}
