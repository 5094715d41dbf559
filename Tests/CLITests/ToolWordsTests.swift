import Foundation
import Languages
import Rendering
import Testing
import TestSupport
import Trace
import Benchmarks
@testable import tlslab

/// Issue #34: the words of `serve`'s log, `connect`'s lines, `pin` and `bench` are the catalogue's, so
/// with `--lang zh` a reader sees Chinese; the English is what it was.
@Suite("serve log, pin and bench: catalogue words in English and Chinese")
struct ToolWordsTests {
    static func hasHan(_ s: String) -> Bool { s.unicodeScalars.contains { (0x4E00 ... 0x9FFF).contains($0.value) } }

    static let served = ServeLogEntry(peer: "127.0.0.1:50000", failure: nil, version: "TLS 1.2",
                                      suite: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", extendedMasterSecret: true,
                                      applicationProtocol: "h2", clientSubject: "CN=alice", requestLine: "GET / HTTP/1.1",
                                      statuses: ["200", "413"])

    /// The English line is, character for character, the one `serve` logged before its words moved
    /// to the catalogue; the Chinese keeps every fact and has no English word of its own.
    @Test func serveLogLineInBothLanguages() {
        #expect(Language.en.explanations.serveLogLine(Self.served)
            == "127.0.0.1:50000: TLS 1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 EMS yes ALPN h2, client CN=alice \"GET / HTTP/1.1\" → 200, 413")
        var bare = Self.served
        bare.extendedMasterSecret = false
        bare.applicationProtocol = nil
        bare.clientSubject = nil
        bare.requestLine = nil
        bare.statuses = []
        #expect(Language.en.explanations.serveLogLine(bare) == "127.0.0.1:50000: TLS 1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 EMS no → -")
        let zh = Language.zh.explanations.serveLogLine(Self.served)
        #expect(Self.hasHan(zh), "\(zh)")
        for fact in ["127.0.0.1:50000", "TLS 1.2", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "h2", "CN=alice", "GET / HTTP/1.1", "200", "413"] {
            #expect(zh.contains(fact), "\(fact) in \(zh)")
        }
        for english in ["client", " yes", "EMS no"] { #expect(!zh.contains(english), "\(english) in \(zh)") }
        // What the client sent is escaped in every language.
        var hostile = Self.served
        hostile.requestLine = "GET /\u{1B}[2J HTTP/1.1"
        #expect(!Language.zh.explanations.serveLogLine(hostile).contains("\u{1B}"))
    }

    /// A failed exchange: the peer, then the catalogue's sentence for the failure.
    @Test func aFailedExchangeIsWordedInTheLanguage() {
        var failed = Self.served
        failed.failure = .brokeSendingClientHello
        let en = Language.en.explanations.serveLogLine(failed)
        let zh = Language.zh.explanations.serveLogLine(failed)
        #expect(en == "127.0.0.1:50000: " + Language.en.explanations.exchangeFailure(.brokeSendingClientHello))
        #expect(zh.hasPrefix("127.0.0.1:50000：") && Self.hasHan(zh), "\(zh)")
    }

    /// `pin --lang zh`: the labels are Chinese, the pins the same as in English.
    @Test func pinLabelsInChinese() throws {
        let file = Fixtures.directory.appendingPathComponent("pki/ec-leaf.pem").path
        let en = try CLI.run(["pin", file])
        let zh = try CLI.run(["pin", "--lang", "zh", file])
        #expect(en.status == 0 && zh.status == 0, "\(zh.stderr)")
        #expect(en.stdout.contains("\n  certificate pin:  ") && en.stdout.contains("\n  public-key pin:   "), "\(en.stdout)")
        let enLines = en.stdout.split(separator: "\n"), zhLines = zh.stdout.split(separator: "\n")
        #expect(enLines.count == 5 && zhLines.count == 5)
        #expect(enLines.first == zhLines.first)
        for (e, z) in zip(enLines.dropFirst(), zhLines.dropFirst()) {
            // Same value after the label; a Chinese label before it.
            let value = e.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) ?? ""
            #expect(z.hasSuffix(value), "\(z)")
            #expect(Self.hasHan(String(z.prefix(10))), "\(z)")
            #expect(!z.contains("pin:") && !z.contains("subject:") && !z.contains("issuer:"), "\(z)")
        }
    }

    /// The bench table's column names and closing note in both languages; columns aligned by display width.
    @Test func benchTableHeadingsInBothLanguages() {
        let row = BenchRow(operation: .rsaPublic, unit: .operationsPerSecond, ours: BenchSummary([100, 110, 120]),
                           openssl: BenchSummary([200, 210, 220]))
        let report = BenchReport(benchmark: "crypto", settings: [:], rows: [row], notes: [])
        let en = report.table(Language.en.explanations).split(separator: "\n").map(String.init)
        #expect(en[0].hasPrefix("operation") && en[0].contains("ours/OpenSSL [min–max]") && en[0].contains("peak RSS ours / OpenSSL"))
        #expect(en.last?.hasPrefix("Ratio above 1: ours is faster") == true)
        let zh = report.table(Language.zh.explanations).split(separator: "\n").map(String.init)
        #expect(zh[0].hasPrefix("操作") && Self.hasHan(zh.last ?? ""), "\(zh)")
        for english in ["operation", "unit", "median", "target", "result", "Ratio"] {
            #expect(!zh[0].contains(english) && !(zh.last ?? "").contains(english), "\(english): \(zh)")
        }
        // Header, rule and row are as wide as each other in terminal columns.
        #expect(DisplayWidth.columns(zh[0]) == DisplayWidth.columns(zh[1]))
        #expect(DisplayWidth.columns(zh[2]) <= DisplayWidth.columns(zh[1]))
    }
}
