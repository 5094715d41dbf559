import Foundation

/// The table of `docs/glossary-zh.md`: one Chinese term per concept and the renderings it rules out.
/// Shared by the catalogue test and the tests that hold lessons and rendered runs to the same rows.
public enum ChineseGlossary {
    public struct Row: Sendable {
        public var english: String
        public var chinese: String
        public var avoid: [String]
        public var keys: [String]
        /// "单向认证 / 双向认证": the terms of one row.
        public var terms: [String] { chinese.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    public static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/glossary-zh.md")

    /// The glossary's table: `| English | 中文 | not | keys |`, code spans unwrapped, lists split at commas.
    public static func rows() throws -> [Row] {
        let text = try String(contentsOf: file, encoding: .utf8)
        func cells(_ line: Substring) -> [String] {
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces).replacing("`", with: "") }
        }
        func list(_ cell: String) -> [String] {
            cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "—" }
        }
        return text.split(separator: "\n").filter { $0.hasPrefix("|") && !$0.hasPrefix("|---") }.dropFirst().compactMap { line in
            let c = cells(line)
            guard c.count >= 4 else { return nil }
            return Row(english: c[0], chinese: c[1], avoid: list(c[2]), keys: list(c[3]))
        }
    }

    /// The forbidden renderings `text` uses, as "variant (the glossary says term for concept)". A variant that
    /// is part of a longer glossary term (序列号 in 证书序列号) is that term, not the variant.
    public static func forbiddenVariants(in text: String, rows: [Row]) -> [String] {
        let allTerms = rows.flatMap(\.terms)
        var found: [String] = []
        for row in rows {
            for avoided in row.avoid where text.contains(avoided) {
                let longer = allTerms.filter { $0 != avoided && $0.contains(avoided) }
                let rest = longer.reduce(text) { $0.replacing($1, with: "□") }
                if rest.contains(avoided) { found.append("\(avoided) (the glossary says \(row.chinese) for \(row.english))") }
            }
        }
        return found
    }
}
