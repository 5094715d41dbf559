import Foundation
import Rendering
import Testing

/// The ATS rule table of an `ats` lesson: a rule that wraps continues in the column where its text
/// began (after the number and the padded result label), in both languages and at any width.
@Suite("ATS rule table: wrapped rules stay under their text")
struct ATSRuleLayoutTests {
    @Test(arguments: ["en", "zh"], [60, 80])
    func wrappedRulesStartUnderTheirText(language: String, columns: Int) throws {
        let r = try CLI.run(["run", "ats/default-blocks-http", "--lang", language], environment: ["COLUMNS": "\(columns)"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.components(separatedBy: "\n")
        var textColumn: Int?
        var wrapped = 0
        for line in lines {
            if let match = line.firstMatch(of: /^ *\d+\.\s/) {
                // The head is the number, ". ", the result label (padded to one width in every language)
                // and two spaces; the rule's text starts after that run of spaces.
                let afterNumber = line[match.range.upperBound...]
                guard let gap = afterNumber.firstMatch(of: /\S*\s{2,}/) else { Issue.record("no gap after the label: \(line)"); continue }
                let headText = line[..<gap.range.upperBound]
                textColumn = DisplayWidth.columns(headText)
            } else if let column = textColumn, line.hasPrefix(" "), !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let indent = line.prefix { $0 == " " }.count
                #expect(indent == column, "a wrapped rule line starts at column \(indent), its text at \(column): «\(line)»")
                wrapped += 1
            } else {
                textColumn = nil
            }
        }
        #expect(wrapped > 0, "at \(columns) columns some rule wraps")
    }
}
