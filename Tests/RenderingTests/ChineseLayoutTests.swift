import Foundation
@testable import Rendering
import PKI
import Simulation
import Testing
import Trace
import TLSEngine

/// Chinese in a terminal: two columns a character. Widths, wrapping, the ladder's rails, tables
/// and the walkthrough measured in display columns at 60, 80 and 120 columns.
@Suite("CJK-aware layout")
struct ChineseLayoutTests {
    static func trace(_ run: BuiltInRun, seed: UInt64 = 1) throws -> Trace {
        Simulation(try run.setup(seed: seed)).run()
    }

    static func lines(_ entries: [String]) -> [String] {
        entries.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    // MARK: Display width

    @Test func displayWidthCountsWideCharactersTwiceAndMarksNone() {
        #expect(DisplayWidth.columns("client") == 6)
        #expect(DisplayWidth.columns("客户端") == 6)
        #expect(DisplayWidth.columns("TLS 握手") == 8)
        #expect(DisplayWidth.columns("（RFC 5246）：") == 14)            // fullwidth punctuation is F
        #expect(DisplayWidth.columns("e\u{301}") == 1)                    // a combining acute accent takes no column
        #expect(DisplayWidth.columns("a\u{200B}b") == 2)                  // zero width space
        #expect(DisplayWidth.columns("│─▶◀✗●…‖") == 8)                     // the ladder's graphics: one column each
        #expect(DisplayWidth.columns("한국어") == 6)
        #expect(DisplayWidth.columns("\u{20000}") == 2)                   // CJK Extension B
        #expect(DisplayWidth.padded("密钥", to: 6) == "密钥  ")
        #expect(DisplayWidth.leftPadded("密钥", to: 5) == " 密钥")
        #expect(DisplayWidth.truncated("预主密钥和主密钥", to: 9) == "预主密钥…")
        #expect(DisplayWidth.columns(DisplayWidth.truncated("预主密钥和主密钥", to: 9)) <= 9)
    }

    @Test func chineseBreaksBetweenCharactersButNotBeforeClosingPunctuation() {
        #expect(DisplayWidth.canBreak(between: "握", and: "手"))
        #expect(DisplayWidth.canBreak(between: "的", and: "C"))
        #expect(!DisplayWidth.canBreak(between: "握", and: "，"))
        #expect(!DisplayWidth.canBreak(between: "（", and: "R"))
        #expect(!DisplayWidth.canBreak(between: "a", and: "b"))
        #expect(DisplayWidth.breakablePieces("ClientHello") == ["ClientHello"])
        #expect(DisplayWidth.breakablePieces("客户端：ClientHello。") == ["客", "户", "端：", "ClientHello。"])
    }

    /// Mixed Chinese and ASCII at narrow widths: no line passes the width, nothing is lost.
    @Test(arguments: [8, 12, 20, 33, 60])
    func wrappingMixedTextFitsAndKeepsEveryCharacter(width: Int) {
        let text = "ClientHello：客户端说明它支持的最高 TLS 版本，列出密码套件 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 和扩展（其中包括 SNI），并带上客户端随机数 client_random。"
        let words = TextRenderer.wrapWords(text, width: width, indent: 2)
        for line in words { #expect(DisplayWidth.columns(line) <= max(width, 10), "\(width): \(line)") }
        #expect(words.map { $0.dropFirst(2) }.joined().filter { $0 != " " } == text.filter { $0 != " " })
        let hex = HexdumpRenderer(width: max(40, width)).wrap("    " + text, continuationIndent: 6)
        for line in hex { #expect(DisplayWidth.columns(line) <= max(40, width), "\(width): \(line)") }
        #expect(hex.joined().filter { $0 != " " } == text.filter { $0 != " " })
    }

    @Test func englishWrapsExactlyAsBefore() {
        // Spaces only: the same breaks as a character count gives.
        let text = "The key block is expanded from the master secret with the label \"key expansion\""
        #expect(TextRenderer.wrapWords(text, width: 30, indent: 2) == [
            "  The key block is expanded", "  from the master secret with", "  the label \"key expansion\""])
    }

    // MARK: The ladder in Chinese

    @Test(arguments: [60, 80, 120])
    func chineseLadderFitsTheWidthAndKeepsTheRails(width: Int) throws {
        for run in [BuiltInRun.rsa, .dhe, .mitm, .keyTheftRSA, .h2] {
            let trace = try Self.trace(run)
            for verbosity in TextRenderer.Verbosity.allCases {
                let renderer = TextRenderer(verbosity: verbosity, width: width, color: false, explanations: .chinese)
                let lines = Self.lines(renderer.render(trace))
                for line in lines {
                    #expect(DisplayWidth.columns(line) <= width, "\(run) \(verbosity) at \(width): \(DisplayWidth.columns(line)) columns: \(line)")
                }
                // Every ladder line has its rails in the same columns as the English ladder's.
                let layout = renderer.prepared(for: trace).layout
                let english = TextRenderer(verbosity: verbosity, width: width, color: false).prepared(for: trace).layout
                #expect(layout.timeWidth == english.timeWidth && layout.ladderWidth == english.ladderWidth)
                let left = layout.timeWidth + 2, right = left + layout.ladderWidth - 1
                let rails: Set<Character> = ["│", "├", "┤", "┼", "●", "▶", "◀", "─", "✗"]
                var ladderLines = 0
                for line in lines {
                    let chars = Array(line)
                    // A ladder row: the time column (digits, "ms" or blank), then the rails; headings are not.
                    guard chars.count > right, rails.contains(chars[left]),
                          chars[..<left].allSatisfy({ $0 == " " || $0.isNumber || $0 == "." || $0 == "m" || $0 == "s" }) else { continue }
                    ladderLines += 1
                    #expect(DisplayWidth.columns(chars[..<left]) == left, "the time column is ASCII: \(line)")
                    #expect(rails.contains(chars[right]), "\(run) at \(width): the server rail is off its column: \(line)")
                    #expect(chars[right + 1] == " ", "\(run) at \(width): text touches the rail: \(line)")
                }
                #expect(ladderLines > 10, "\(run): the ladder is drawn")
            }
        }
    }

    @Test func chineseColumnHeaderNamesSitOverTheirRails() throws {
        let trace = try Self.trace(.mitm)
        let renderer = TextRenderer(verbosity: .normal, width: 100, color: false, explanations: .chinese).prepared(for: trace)
        let header = renderer.columnHeader()[0]
        #expect(header.contains("时间") && header.contains("客户端") && header.contains("攻击者") && header.contains("服务器"))
        // The server's name ends on the server's rail column (display columns).
        let serverEnd = renderer.layout.timeWidth + 2 + renderer.layout.ladderWidth
        #expect(DisplayWidth.columns(header) == serverEnd, "\(header)")
        #expect(header.hasPrefix(DisplayWidth.leftPadded("时间", to: renderer.layout.timeWidth) + "  客户端"))
    }

    /// The knowledge table: each mark starts in the column of its heading, in display columns.
    @Test func chineseKnowledgeTableColumnsAlign() throws {
        for run in [BuiltInRun.rsa, .keyTheftRSA, .mitmTrusting, .tamperServerHello] {
            let trace = try Self.trace(run)
            let panel = TextRenderer(verbosity: .normal, width: 120, color: false, explanations: .chinese)
                .knowledgePanel(trace.knowledge, remarks: false)
            let header = try #require(panel.first { $0.hasPrefix("密钥 / 数据") })
            func starts(_ line: String, of words: [String]) -> [Int] {
                words.compactMap { word in line.range(of: word).map { DisplayWidth.columns(line[..<$0.lowerBound]) } }
            }
            let headings = ["客户端", "服务器", "窃听者", "事后", "攻击者"].filter { header.contains($0) }
            let columns = starts(header, of: headings)
            #expect(columns.count == headings.count && columns == columns.sorted())
            let rows = panel.drop { $0 != header }.dropFirst()
            #expect(rows.count >= 6, "\(run): the table has its rows")
            for row in rows {
                // Cut the row at each heading's column: every cell starts with a mark.
                let chars = Array(row)
                for column in columns {
                    var used = 0, index = 0
                    while index < chars.count, used < column { used += DisplayWidth.columns(chars[index]); index += 1 }
                    #expect(used == column, "\(run): a character straddles column \(column): \(row)")
                    let cell = String(chars[index...])
                    #expect(cell.hasPrefix("知道") || cell.hasPrefix(" —"), "\(run): no mark at column \(column): \(row)")
                }
            }
        }
    }

    // MARK: The walkthrough in Chinese

    @Test(arguments: [60, 80, 120])
    func chineseWalkthroughScreensFit(width: Int) throws {
        for run in [BuiltInRun.rsa, .dhe] {
            let w = Walkthrough(title: run.rawValue, trace: try Self.trace(run), width: width, explanations: .chinese)
            var cursor = Walkthrough.Cursor()
            for toggles in [(false, false), (true, false), (false, true), (true, true)] {
                cursor.showKnowledge = toggles.0
                cursor.showBytes = toggles.1
                for step in stride(from: 0, to: w.steps.count, by: 3) {
                    cursor.step = step
                    let screen = w.screen(cursor, width: width, height: 24)
                    #expect(screen.count == 24)
                    for line in screen { #expect(DisplayWidth.columns(line) <= width, "\(run) step \(step) at \(width): \(line)") }
                }
            }
            let first = w.screen(Walkthrough.Cursor(), width: width, height: 24)
            #expect(first[0].hasPrefix("TLSLab · \(run.rawValue) · 第 1/"))
            #expect(first[23].contains("帮助") && first[23].contains("退出"), "\(first[23])")
        }
    }

    // MARK: No English sentence left

    /// Text the engines and drivers still write in English (not the renderer's): the free-text parts
    /// of an alert's cause (a certificate refusal's account, a decoder's reason), each chain check's
    /// detail and the certificate decision's summary. They come from
    /// the trace itself, so the test names exactly what is exempt.
    static func engineText(_ trace: Trace) -> [String] {
        var out: [String] = []
        for e in trace.events {
            switch e.kind {
            case .tls(.alertSent(_, let cause)): out += freeText(cause)
            case .tls(.certificateDecision(_, _, _, let account, _)): out += freeText(account)
            default: break
            }
        }
        if let cause = trace.summary.failure?.cause { out += freeText(cause) }
        return out.sorted { $0.count > $1.count }
    }

    /// The parts of a cause the engine still words itself (the rest is the catalogue's).
    static func freeText(_ cause: AlertCause) -> [String] {
        guard case .failure(let error) = cause else { return [] }
        switch error {
        case .certificateRejected(_, let account): return freeText(account)
        default: return []
        }
    }

    /// The parts of a certificate account still in the evaluator's or the validator's own words.
    static func freeText(_ account: CertificateAccount) -> [String] {
        switch account {
        // Chain checks (alone or quoted by a policy step) carry typed findings, a chain that is not trusted
        // its TrustResult and a certificate that does not parse its typed malformation: all in the catalogue's words.
        default: return []
        }
    }

    /// Runs of three or more English words (letters only) outside quotes, after the exempt text is removed.
    static func englishRuns(in line: String, loneWords: Bool = true) -> [String] {
        // Quoted labels ("key expansion") and distinguished names (O=The Real Example) are values.
        let unquoted = line.replacing(/"[^"]*"/, with: " ").replacing(/\b(CN|OU|O|C|L|ST)=[^,)]*/, with: " ")
        var runs: [String] = [], current: [Substring] = []
        func flush() {
            if current.count >= 3 { runs.append(current.joined(separator: " ")) }
            current = []
        }
        for token in unquoted.split(separator: " ", omittingEmptySubsequences: false) {
            let word = token.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:()"))
            let hexPair = word.count == 2 && word.allSatisfy(\.isHexDigit)      // annotated bytes: "ff ff ff"
            if !hexPair, word.count >= 2, word.allSatisfy({ $0.isASCII && $0.isLetter }), word.dropFirst().allSatisfy(\.isLowercase) {
                current.append(Substring(word))
            } else {
                flush()
            }
        }
        flush()
        // A lone English function word ("(96 bytes)", "of the") is a sentence fragment too.
        for token in unquoted.split(separator: " ") where loneWords {
            let word = token.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:()"))
            if stopWords.contains(word), !runs.contains(where: { $0.contains(word) }) { runs.append(word) }
        }
        return runs
    }

    static let stopWords: Set<String> = [
        "the", "of", "to", "and", "bytes", "with", "from", "for", "is", "are", "was", "by", "at", "an", "or", "not", "its",
        "this", "that", "has", "have", "after", "before", "then", "only", "each", "every", "into", "when", "which", "who",
        "what", "than", "it", "on", "no", "none", "sent", "received", "drops", "knows", "secret", "link", "leaf",
    ]

    @Test(arguments: BuiltInRun.allCases)
    func chineseRunsPrintNoEnglishSentence(run: BuiltInRun) throws {
        let trace = try Self.trace(run)
        let exempt = Self.engineText(trace)
        for verbosity in TextRenderer.Verbosity.allCases {
            // Wide enough that nothing wraps, so an exempt text is found whole.
            var lines = TextRenderer(verbosity: verbosity, width: 100_000, color: false, explanations: .chinese).render(trace)
            lines = lines.map { line in exempt.reduce(line) { $0.replacing($1, with: " ") } }
            for line in lines {
                // At the bytes level the annotated fields' values are the dissector's (TLSEngine's) own
                // words ("256 bytes: …"): only whole English phrases count there.
                let runs = Self.englishRuns(in: line, loneWords: verbosity != .bytes)
                #expect(runs.isEmpty, "\(run) \(verbosity): English words \(runs) in: \(line)")
            }
        }
    }

    @Test func theEnglishRunDetectorFindsEnglish() {
        #expect(Self.englishRuns(in: "client trusts the chain") == ["client trusts the chain"])
        #expect(Self.englishRuns(in: "客户端 ──▶ 服务器  TLS ClientHello  (96 bytes)") == ["bytes"])
        #expect(Self.englishRuns(in: "客户端信任这条证书链：ClientHello, TLS_RSA_WITH_AES_128_GCM_SHA256").isEmpty)
        #expect(Self.englishRuns(in: "PRF(premaster, \"extended master secret\", session_hash)").isEmpty)
        #expect(Self.englishRuns(in: "链：O=The Real Example, CN=example.com；字节 ff ff ff ff").isEmpty)
    }
}
