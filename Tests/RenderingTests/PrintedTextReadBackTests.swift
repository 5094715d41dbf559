import Foundation
import Testing

/// The walkthrough and the HTML page are printers of the run's document (`RunDocument`): they read
/// its typed entries and never the text renderer's printed lines. Read from the sources: no call
/// of the text renderer's line output (`render(trace)`, `render(event, state:)`), no match against ladder glyphs or arrows, no
/// indentation or word-count rule that classifies a printed line, no re-joining of wrapped rows.
@Suite("Walkthrough and HTML read the document, not printed text")
struct PrintedTextReadBackTests {
    static var sources: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Sources/Rendering")
    }

    /// The files that print the document for the walkthrough and the page.
    static func surfaceFiles() throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasPrefix("Walkthrough") }
        let html = try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent("HTML").path)
        return names.map { sources.appendingPathComponent($0) } + html.map { sources.appendingPathComponent("HTML/" + $0) }
    }

    /// Ladder glyphs: rails, arrow heads, the lost cross, the mark, the heading rule.
    static let glyphs = "│├┤┼─▶◀✗●"

    /// What reading printed text back looks like, each with why it is refused.
    static var rules: [(pattern: Regex<AnyRegexOutput>, why: String)] { [
        (try! Regex(#"TextRenderer\([^)\n]*\)\.render\(|(?:^|[^A-Za-z0-9_])(?:renderer|normal|bytes|text|r)\.render\(|\.render\([^)\n]*state:|render\(_ event"#),
         "calls the text renderer's line output"),
        (try! Regex(#"joinedWords|func words\(|\.words\(|rowText|markRecorder|LadderMarkRecorder"#), "re-joins or re-matches printed rows"),
        (try! Regex("(hasPrefix|hasSuffix|contains|starts|firstIndex|lastIndex|range|split|components|trimming|replacing)\\([^)\\n]{0,16}\"[^\"\\n]*[\(glyphs)]"),
         "matches ladder glyphs"),
        (try! Regex("(==|!=)\\s*\"[^\"\\n]*[\(glyphs)]"), "compares with ladder glyphs"),
        (try! Regex("\"[\(glyphs)]\"\\s*,\\s*\""), "keeps a list of ladder glyphs"),
        (try! Regex("──▶|◀──"), "matches the text ladder's arrow words"),
        (try! Regex(#"hasPrefix\("\s+"\)|hasPrefix\(time\)|dropFirst\(ladderPrefixWidth"#), "classifies a printed line by its indentation or its time column"),
        (try! Regex(#"split\(separator: " "\)\.count"#), "decides by counting words what is a sentence"),
        (try! Regex(#"(?:^|[^A-Za-z0-9_])TextRenderer(?:[^A-Za-z0-9_]|$)"#), "depends on the text renderer (build with RunDocumentBuilder, print ladder lines with LadderPrinter)"),
    ] }

    static func offences(in text: String) -> [String] {
        // Comments may name what the code no longer does.
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
        var out: [String] = []
        for rule in rules {
            for match in code.matches(of: rule.pattern) {
                let lineNumber = code[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1
                out.append("line \(lineNumber): \(rule.why): \(code[match.range])")
            }
        }
        return out
    }

    @Test func theSurfacesReadNoPrintedLine() throws {
        let files = try Self.surfaceFiles()
        #expect(files.count >= 10, "\(files.map(\.lastPathComponent))")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let offences = Self.offences(in: text)
            #expect(offences.isEmpty, "\(file.lastPathComponent): \(offences)")
        }
    }

    /// The rules catch what the surfaces did before they read the document (lines of the old
    /// `Walkthrough.swift`, `HTMLRenderer+Steps.swift` and `HTMLRenderer+Ladder.swift`).
    @Test(arguments: [
        #"let graphic: Set<Character> = [" ", "│", "├", "┤", "─", "┼", "▶", "◀", "✗", "●", ".", "m", "s"]"#,
        #"} else if line.hasPrefix("  "), !line.hasPrefix("    ") || line.hasPrefix("            ") {"#,
        #"if text.hasPrefix("── ") {"#,
        #"for prefix in ["\(sender) ──▶ \(receiver)", "\(receiver) ◀── \(sender)"] where words.hasPrefix(prefix) {"#,
        #"if trace.isLessonOnly, !step.detail.contains(where: { $0.split(separator: " ").count >= 4 }) {"#,
        #"let words = walk.words(step.ladder).trimming([" ", "─"])"#,
        #"let plain = normal.render(event, state: &normalState)"#,
        #"let sentence = Self.rowText(step.ladder, renderer: normal, rails: !trace.isATSDecision)"#,
        #"if first.hasPrefix(time) || first.hasPrefix("──") || trace.isATSDecision {"#,
        #"let lines = TextRenderer(width: width).render(trace)"#,
        #"let ladder = renderer.render(trace)"#,
        #"let panels = !trace.isLessonOnly && !TextRenderer.isOneSided(trace) && !trace.events.isEmpty"#,
        #"static func step(_ entry: RunDocument.Step, _ event: TraceEvent, trace: Trace, renderer: TextRenderer) -> Step? {"#,
    ])
    func theRulesCatchTheOldReadBack(line: String) {
        #expect(!Self.offences(in: line).isEmpty, "not caught: \(line)")
    }

    /// The document is built outside the terminal printer: `Sources/Rendering/Document` (the
    /// document, its builder and the wording of every step) names neither the text renderer nor
    /// the ladder printer, and draws no rails (the section rule's `─` is a heading's words).
    @Test func theDocumentIsBuiltWithoutThePrinter() throws {
        let folder = Self.sources.appendingPathComponent("Document")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(names.contains("RunDocumentBuilder.swift"), "\(names)")
        let printer = try Regex(#"(?:^|[^A-Za-z0-9_])(?:TextRenderer|LadderPrinter)(?:[^A-Za-z0-9_]|$)|(?:^|[^A-Za-z0-9_])rails\(|columnHeader\(|fitToWidth|\.print\("#)
        // The rule catches what the builder did while it was the text renderer's extension.
        #expect("let r = TextRenderer(width: 100).prepared(for: trace)".contains(printer))
        #expect("lines += LadderPrinter.wrapWords(text, width: 80, indent: 2)".contains(printer))
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            for (i, line) in code.enumerated() {
                #expect(!line.contains(printer), "Document/\(name):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }
}
