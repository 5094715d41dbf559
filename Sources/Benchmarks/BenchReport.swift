import Foundation
import Rendering

/// The median and min–max spread of several runs.
public struct BenchSummary: Codable, Equatable, Sendable {
    public let median: Double
    public let min: Double
    public let max: Double
    public let samples: [Double]

    public init(_ values: [Double]) {
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
    public var relativeSpread: Double { median > 0 ? (max - min) / median : 0 }
}

/// A goal a row is judged against: PASS or FAIL in the report.
public struct BenchTarget: Codable, Equatable, Sendable {
    /// What is compared: the ratio ours/OpenSSL, our own median, or our peak memory (KiB).
    public enum Measure: String, Codable, Sendable { case ratio, ours, peakMemoryKiB }
    public var measure: Measure
    /// Pass when the value is ≥ this …
    public var atLeast: Double?
    /// … or when it is < this.
    public var below: Double?
    /// As printed: "ratio ≥ 0.90×", "< 100 ms".
    public var text: String

    public static func ratio(atLeast value: Double) -> BenchTarget {
        BenchTarget(measure: .ratio, atLeast: value, below: nil, text: String(format: "ratio ≥ %.2f×", value))
    }

    public static func ours(atLeast value: Double, _ text: String) -> BenchTarget {
        BenchTarget(measure: .ours, atLeast: value, below: nil, text: text)
    }

    public static func ours(below value: Double, _ text: String) -> BenchTarget {
        BenchTarget(measure: .ours, atLeast: nil, below: value, text: text)
    }

    public static func peakMemory(belowKiB value: Int, _ text: String) -> BenchTarget {
        BenchTarget(measure: .peakMemoryKiB, atLeast: nil, below: Double(value), text: text)
    }

    /// Whether `value` meets the target.
    public func isMet(by value: Double) -> Bool {
        if let atLeast, value < atLeast { return false }
        if let below, value >= below { return false }
        return true
    }
}

/// One measured operation: our figure, OpenSSL's from the same run when there is one, and the ratio.
public struct BenchRow: Codable, Equatable, Sendable {
    public var operation: String
    /// What the numbers count: "handshakes/s", "ms", "segments/s", "MiB", …
    public var unit: String
    /// nil: not measured (the note says why).
    public var ours: BenchSummary?
    public var openssl: BenchSummary?
    /// True for times and sizes (smaller is better); false for rates.
    public var lowerIsBetter: Bool
    /// How many times faster (or smaller) we are than OpenSSL: above 1, we win. When both sides have
    /// one sample per run (the runs are paired: ours and OpenSSL's alternate), the median of the
    /// per-run ratios; otherwise the ratio of the medians.
    public var ratio: Double?
    /// The per-run ratios (median, min–max), when the runs are paired.
    public var ratioSpread: BenchSummary?
    /// The goal this row is judged against, and whether it was met (nil: no target, or not measured).
    public var target: BenchTarget?
    public var pass: Bool?
    /// Peak resident set of the process that measured our side / OpenSSL's side, KiB.
    public var peakMemoryKiB: Int?
    public var opensslPeakMemoryKiB: Int?
    public var note: String?

    public init(operation: String, unit: String, ours: BenchSummary?, openssl: BenchSummary? = nil, lowerIsBetter: Bool = false,
         peakMemoryKiB: Int? = nil, opensslPeakMemoryKiB: Int? = nil, note: String? = nil) {
        self.operation = operation
        self.unit = unit
        self.ours = ours
        self.openssl = openssl
        self.lowerIsBetter = lowerIsBetter
        self.peakMemoryKiB = peakMemoryKiB
        self.opensslPeakMemoryKiB = opensslPeakMemoryKiB
        self.note = note
        ratio = nil
        ratioSpread = nil
        if let ours, let openssl, ours.median > 0, openssl.median > 0 {
            if ours.samples.count == openssl.samples.count, ours.samples.count > 1,
               !ours.samples.contains(where: { $0 <= 0 }), !openssl.samples.contains(where: { $0 <= 0 }) {
                let perRun = zip(ours.samples, openssl.samples).map { lowerIsBetter ? $1 / $0 : $0 / $1 }
                let spread = BenchSummary(perRun)
                ratioSpread = spread
                ratio = spread.median
            } else {
                ratio = lowerIsBetter ? openssl.median / ours.median : ours.median / openssl.median
            }
        }
    }

    /// This row judged against `target`: `pass` is nil when the measure is missing (not measured).
    public func judged(by target: BenchTarget, failure: Bool = false) -> BenchRow {
        var row = self
        row.target = target
        let value: Double? = switch target.measure {
        case .ratio: ratio
        case .ours: ours?.median
        case .peakMemoryKiB: peakMemoryKiB.map(Double.init)
        }
        row.pass = failure ? false : value.map(target.isMet)
        return row
    }
}

/// What one benchmark command prints: its rows, the settings it ran with and notes on method.
public struct BenchReport: Codable, Equatable, Sendable {
    public var benchmark: String
    public var settings: [String: String]
    public var rows: [BenchRow]
    public var notes: [String]

    public init(benchmark: String, settings: [String: String], rows: [BenchRow], notes: [String]) {
        self.benchmark = benchmark
        self.settings = settings
        self.rows = rows
        self.notes = notes
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    public static func decode(_ text: String) throws -> BenchReport {
        try JSONDecoder().decode(BenchReport.self, from: Data(text.utf8))
    }


    // MARK: - Text

    public static func number(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    public static func ratioCell(_ row: BenchRow) -> String {
        guard let ratio = row.ratio else { return "—" }
        guard let spread = row.ratioSpread else { return String(format: "%.2f×", ratio) }
        return String(format: "%.2f× [%.2f–%.2f]", ratio, spread.min, spread.max)
    }

    public static func cell(_ summary: BenchSummary?) -> String {
        guard let summary else { return "—" }
        guard summary.samples.count > 1 else { return number(summary.median) }
        return "\(number(summary.median)) [\(number(summary.min))–\(number(summary.max))]"
    }

    public static func memory(_ kib: Int?) -> String {
        guard let kib else { return "—" }
        return kib >= 10_240 ? "\(kib / 1024) MiB" : "\(kib) KiB"
    }

    /// The table: operation, unit, ours, OpenSSL, ratio, peak memory; then the notes. Column names, the
    /// "not available" cell and the closing note are the catalogue's (`cli.bench.*`); the operations,
    /// units and notes are the measurements' own (and the JSON report's), as PASS and FAIL are.
    public func table(_ explanations: Explanations) -> String {
        func say(_ key: String) -> String { explanations(key) ?? Explanations.english(key) ?? key }
        let header = [say("cli.bench.column.operation"), say("cli.bench.column.unit"), say("cli.bench.column.ours"),
                      "OpenSSL", say("cli.bench.column.ratio"), say("cli.bench.column.peakMemory"),
                      say("cli.bench.column.target"), say("cli.bench.column.result")]
        let body = rows.map { row -> [String] in
            let peak = row.peakMemoryKiB == nil && row.opensslPeakMemoryKiB == nil ? "—"
                : "\(Self.memory(row.peakMemoryKiB)) / \(Self.memory(row.opensslPeakMemoryKiB))"
            let result = row.pass.map { $0 ? "PASS" : "FAIL" } ?? (row.target == nil ? "" : "—")
            return [row.operation, row.unit, row.ours == nil ? (row.note ?? say("cli.bench.notAvailable")) : Self.cell(row.ours),
                    Self.cell(row.openssl), Self.ratioCell(row), peak, row.target?.text ?? "", result]
        }
        // Widths in terminal columns (a Chinese character takes two).
        let widths = header.indices.map { column in ([header] + body).map { DisplayWidth.columns($0[column]) }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.columns(cell)))
                return index <= 1 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var lines = [line(header), String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))]
        lines += body.map(line)
        let rowNotes = rows.compactMap { row in row.ours != nil ? row.note.map { "\(row.operation): \($0)" } : nil }
        if !notes.isEmpty || !rowNotes.isEmpty { lines.append("") }
        lines += notes.map { "- \($0)" } + rowNotes.map { "- \($0)" }
        lines.append(say("cli.bench.ratioNote"))
        return lines.joined(separator: "\n")
    }
}
