import Foundation
import Testing

/// Issue #34, "Done means" 1: every finding of the 2026-11-28 review of the Chinese (55: 1.1–1.8,
/// 2.1–2.12, 3.1–3.20, 4.1–4.7, 5.1–5.8) has one line in docs/review-zh.md's final table, fixed in a
/// named commit or answered with the reason it is not changed.
@Suite("docs/review-zh.md answers every finding of the Chinese review")
struct ReviewRecordTests {
    static let findings: [String] = [(1, 8), (2, 12), (3, 20), (4, 7), (5, 8)].flatMap { section, count in
        (1 ... count).map { "\(section).\($0)" }
    }

    @Test func everyFindingHasOneLineWithACommitOrAReason() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { root.deleteLastPathComponent() }
        let record = try String(contentsOf: root.appendingPathComponent("docs/review-zh.md"), encoding: .utf8)
        let table = try #require(record.range(of: "### Final status of the 55 findings").map { String(record[$0.upperBound...]) })
        var rows: [String: String] = [:]
        for line in table.split(separator: "\n") {
            guard let m = line.wholeMatch(of: /\| (\d\.\d+) \| (.+) \|/) else { continue }
            #expect(rows[String(m.output.1)] == nil, "\(m.output.1) twice")
            rows[String(m.output.1)] = String(m.output.2)
        }
        #expect(Self.findings.count == 55)
        #expect(Set(rows.keys) == Set(Self.findings), "missing \(Set(Self.findings).subtracting(rows.keys).sorted()), extra \(Set(rows.keys).subtracting(Self.findings).sorted())")
        for (finding, status) in rows {
            let fixed = status.hasPrefix("fixed") && status.contains(/\b[0-9a-f]{7}\b/)
            let answered = status.hasPrefix("answered") && status.count > 20
            #expect(fixed || answered, "\(finding): \(status)")
            #expect(!status.contains("<"), "\(finding): a commit placeholder left in '\(status)'")
        }
    }
}
