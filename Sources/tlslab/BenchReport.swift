import ArgumentParser
import Foundation

/// How a benchmark prints its report: `--format text|json`. The root command declares `--format`
/// (its option group `RenderOptions`) and consumes it wherever it appears on the command line;
/// ArgumentParser hands a parent's option group to a subcommand that declares the same type, so the
/// bench commands read it from there.
enum BenchFormat: String, CaseIterable {
    case text, json

    init(_ format: RenderOptions.Format) {
        self = format == .json ? .json : .text
    }
}

/// The median and min–max spread of several runs.
struct BenchSummary: Codable, Equatable {
    let median: Double
    let min: Double
    let max: Double
    let samples: [Double]

    init(_ values: [Double]) {
        let sorted = values.sorted()
        samples = values
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        if sorted.isEmpty {
            median = 0
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// (max − min) / median: the relative spread of the runs.
    var relativeSpread: Double { median > 0 ? (max - min) / median : 0 }
}

/// One measured operation: our figure, OpenSSL's from the same run when there is one, and the ratio.
struct BenchRow: Codable, Equatable {
    var operation: String
    /// What the numbers count: "handshakes/s", "ms", "segments/s", "MiB", …
    var unit: String
    /// nil: not measured (the note says why).
    var ours: BenchSummary?
    var openssl: BenchSummary?
    /// True for times and sizes (smaller is better); false for rates.
    var lowerIsBetter: Bool
    /// How many times faster (or smaller) we are than OpenSSL: above 1, we win.
    var ratio: Double?
    /// Peak resident set of the process that measured our side / OpenSSL's side, KiB.
    var peakMemoryKiB: Int?
    var opensslPeakMemoryKiB: Int?
    var note: String?

    init(operation: String, unit: String, ours: BenchSummary?, openssl: BenchSummary? = nil, lowerIsBetter: Bool = false,
         peakMemoryKiB: Int? = nil, opensslPeakMemoryKiB: Int? = nil, note: String? = nil) {
        self.operation = operation
        self.unit = unit
        self.ours = ours
        self.openssl = openssl
        self.lowerIsBetter = lowerIsBetter
        self.peakMemoryKiB = peakMemoryKiB
        self.opensslPeakMemoryKiB = opensslPeakMemoryKiB
        self.note = note
        if let ours, let openssl, ours.median > 0, openssl.median > 0 {
            ratio = lowerIsBetter ? openssl.median / ours.median : ours.median / openssl.median
        } else {
            ratio = nil
        }
    }
}

/// What one benchmark command prints: its rows, the settings it ran with and notes on method.
struct BenchReport: Codable, Equatable {
    var benchmark: String
    var settings: [String: String]
    var rows: [BenchRow]
    var notes: [String]

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> BenchReport {
        try JSONDecoder().decode(BenchReport.self, from: Data(text.utf8))
    }

    func print(_ format: BenchFormat) throws {
        switch format {
        case .json: Swift.print(try json())
        case .text: Swift.print(table())
        }
    }

    // MARK: - Text

    static func number(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    static func cell(_ summary: BenchSummary?) -> String {
        guard let summary else { return "—" }
        guard summary.samples.count > 1 else { return number(summary.median) }
        return "\(number(summary.median)) [\(number(summary.min))–\(number(summary.max))]"
    }

    static func memory(_ kib: Int?) -> String {
        guard let kib else { return "—" }
        return kib >= 10_240 ? "\(kib / 1024) MiB" : "\(kib) KiB"
    }

    /// The table: operation, unit, ours, OpenSSL, ratio, peak memory; then the notes.
    func table() -> String {
        let header = ["operation", "unit", "ours median [min–max]", "OpenSSL", "ours/OpenSSL", "peak RSS ours / OpenSSL"]
        let body = rows.map { row -> [String] in
            let peak = row.peakMemoryKiB == nil && row.opensslPeakMemoryKiB == nil ? "—"
                : "\(Self.memory(row.peakMemoryKiB)) / \(Self.memory(row.opensslPeakMemoryKiB))"
            return [row.operation, row.unit, row.ours == nil ? (row.note ?? "not available") : Self.cell(row.ours),
                    Self.cell(row.openssl), row.ratio.map { String(format: "%.2f×", $0) } ?? "—", peak]
        }
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index <= 1 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var lines = [line(header), String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))]
        lines += body.map(line)
        let rowNotes = rows.compactMap { row in row.ours != nil ? row.note.map { "\(row.operation): \($0)" } : nil }
        if !notes.isEmpty || !rowNotes.isEmpty { lines.append("") }
        lines += notes.map { "- \($0)" } + rowNotes.map { "- \($0)" }
        lines.append("Ratio above 1: ours is faster (or smaller). Spread: min–max over the runs.")
        return lines.joined(separator: "\n")
    }
}
