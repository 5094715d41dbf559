@testable import Rendering
import Simulation
import Testing
import TLSEngine

/// A bytes table's rows travel in one attribute (`data-rows`: a line per field, tab-separated cells
/// of HTML) that the page's script turns into table rows: every field of the dissection is there,
/// in order, and no value can break a row or a cell, or reach the page as markup.
@Suite("The page's field rows: every field once, each cell whole and escaped")
struct HTMLFieldRowsTests {
    /// The attribute's text as the browser reads it (the entities HTMLText writes, undone).
    static func attributeText(_ html: String) -> String {
        html.replacing("&quot;", with: "\"").replacing("&#39;", with: "'").replacing("&lt;", with: "<")
            .replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }

    static func flattened(_ fields: [DissectedField], depth: Int = 0) -> [(Int, DissectedField)] {
        fields.flatMap { [(depth, $0)] + flattened($0.children, depth: depth + 1) }
    }

    @Test("a value with tabs, line breaks and markup stays in its own cell; each note has one")
    func hostileValuesStayInTheirCells() {
        let field = DissectedField(offset: 0, length: 3, name: "na\tme", value: .text("a\tb\nc\r<script>&\"'"), notes: [.notDissected, .truncated(needed: 2, available: 1)],
                                   children: [DissectedField(offset: 0, length: 1, name: "inner", value: .text("1"))])
        var rows = ""
        HTMLRenderer().fieldRows(field, depth: 0, input: [1, 2, 3], into: &rows)
        let lines = rows.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "two fields, each one line: \(rows.debugDescription)")
        let cells = lines[0].split(separator: "\t", omittingEmptySubsequences: false)
        #expect(cells.count == 9, "seven cells, then a cell per note")
        #expect(Array(cells.prefix(4)) == ["0", "0", "3", "0"])
        #expect(cells[4] == "na&#9;me")
        #expect(cells[7] == Substring(HTMLText.escaped(Explanations.english.dissectionNote(.notDissected))))
        #expect(!cells[8].isEmpty)
        #expect(cells[5] == "a&#9;b&#10;c&#10;&lt;script&gt;&amp;&quot;&#39;")
        #expect(lines[1].split(separator: "\t", omittingEmptySubsequences: false) == ["1", "0", "1", "1", "inner", "1", "01"])
    }

    @Test("every table of a page lists its dissection's fields in order, at their depths", arguments: [BuiltInRun.rsa, .h2, .tls13])
    func everyFieldOnce(_ run: BuiltInRun) throws {
        let trace = Simulation(try run.setup(seed: 1)).run()
        let html = HTMLRenderer().page(name: run.rawValue, trace: trace)
        let walk = Walkthrough(title: run.rawValue, trace: trace, width: 100_000, fullValues: true, surface: .page)
        var tables: [[Substring]] = []
        var rest = html[...]
        while let start = rest.range(of: "<tbody data-rows=\"") {
            let end = rest[start.upperBound...].firstIndex(of: "\"")!
            tables.append(Self.attributeText(String(rest[start.upperBound..<end])).split(separator: "\n"))
            rest = rest[end...]
        }
        var expected: [[(Int, DissectedField)]] = []
        var shown = Set<[UInt8]>()
        for step in walk.steps {
            if let message = step.message, shown.insert(message.bytes).inserted { expected.append(Self.flattened(message.dissection.fields)) }
            if let segment = step.segment { expected.append(Self.flattened(segment.dissection.fields)) }
            for record in step.records where record.wire.bytes.count >= 5 {
                expected.append(Self.flattened(record.wire.dissection.fields))
                if let p = record.protection { expected.append(Self.flattened(p.plaintext.dissection.fields)) }
            }
        }
        #expect(tables.count == expected.count && !tables.isEmpty)
        for (rows, fields) in zip(tables, expected) {
            #expect(rows.count == fields.count)
            for (row, (depth, field)) in zip(rows, fields) {
                let cells = row.split(separator: "\t", omittingEmptySubsequences: false)
                #expect(cells[0] == "\(depth)" && cells[1] == "\(field.offset)" && cells[2] == "\(field.length)")
                #expect(cells[4] == Substring(HTMLText.escaped(field.name)))
            }
        }
    }
}
