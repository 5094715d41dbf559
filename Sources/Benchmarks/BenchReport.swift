import Foundation

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

/// A goal a row is judged against: PASS or FAIL in the report. The renderer words it from its
/// measure, threshold and the row's unit ("ratio ≥ 0.90×", "< 100 ms").
public struct BenchTarget: Codable, Equatable, Sendable {
    /// What is compared: the ratio ours/OpenSSL, our own median, or our peak memory (KiB).
    public enum Measure: String, Codable, Sendable { case ratio, ours, peakMemoryKiB }
    public var measure: Measure
    /// Pass when the value is ≥ this …
    public var atLeast: Double?
    /// … or when it is < this.
    public var below: Double?

    public static func ratio(atLeast value: Double) -> BenchTarget {
        BenchTarget(measure: .ratio, atLeast: value, below: nil)
    }

    public static func ours(atLeast value: Double) -> BenchTarget {
        BenchTarget(measure: .ours, atLeast: value, below: nil)
    }

    public static func ours(below value: Double) -> BenchTarget {
        BenchTarget(measure: .ours, atLeast: nil, below: value)
    }

    public static func peakMemory(belowKiB value: Int) -> BenchTarget {
        BenchTarget(measure: .peakMemoryKiB, atLeast: nil, below: Double(value))
    }

    /// Whether `value` meets the target.
    public func isMet(by value: Double) -> Bool {
        if let atLeast, value < atLeast { return false }
        if let below, value >= below { return false }
        return true
    }
}

/// One measured operation: our figure, OpenSSL's from the same run when there is one, and the ratio.
public struct BenchRow: Equatable, Sendable {
    public var operation: BenchOperation
    /// What the numbers count: handshakes/s, ms, segments/s, …
    public var unit: BenchUnit
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
    public var note: BenchNote?

    public init(operation: BenchOperation, unit: BenchUnit, ours: BenchSummary?, openssl: BenchSummary? = nil, lowerIsBetter: Bool = false,
         peakMemoryKiB: Int? = nil, opensslPeakMemoryKiB: Int? = nil, note: BenchNote? = nil) {
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

/// The JSON form: the typed identifiers (`operationID`, `noteID`, the target's measure and
/// threshold), and, when the encoder carries a `BenchWording`, their English words beside them
/// (`operation`, `note`, `target.text`) for people and scripts. Decoding reads the identifiers.
extension BenchRow: Codable {
    enum Keys: String, CodingKey {
        case operation, operationID, unit, ours, openssl, lowerIsBetter, ratio, ratioSpread, target, pass,
             peakMemoryKiB, opensslPeakMemoryKiB, note, noteID
    }

    enum TargetKeys: String, CodingKey { case measure, atLeast, below, text }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        operation = try c.decode(BenchOperation.self, forKey: .operationID)
        unit = try c.decode(BenchUnit.self, forKey: .unit)
        ours = try c.decodeIfPresent(BenchSummary.self, forKey: .ours)
        openssl = try c.decodeIfPresent(BenchSummary.self, forKey: .openssl)
        lowerIsBetter = try c.decode(Bool.self, forKey: .lowerIsBetter)
        ratio = try c.decodeIfPresent(Double.self, forKey: .ratio)
        ratioSpread = try c.decodeIfPresent(BenchSummary.self, forKey: .ratioSpread)
        target = try c.decodeIfPresent(BenchTarget.self, forKey: .target)
        pass = try c.decodeIfPresent(Bool.self, forKey: .pass)
        peakMemoryKiB = try c.decodeIfPresent(Int.self, forKey: .peakMemoryKiB)
        opensslPeakMemoryKiB = try c.decodeIfPresent(Int.self, forKey: .opensslPeakMemoryKiB)
        note = try c.decodeIfPresent(BenchNote.self, forKey: .noteID)
    }

    public func encode(to encoder: Encoder) throws {
        let wording = encoder.userInfo[BenchWording.userInfoKey] as? BenchWording
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(operation, forKey: .operationID)
        if let wording { try c.encode(wording.operation(operation), forKey: .operation) }
        try c.encode(unit, forKey: .unit)
        try c.encodeIfPresent(ours, forKey: .ours)
        try c.encodeIfPresent(openssl, forKey: .openssl)
        try c.encode(lowerIsBetter, forKey: .lowerIsBetter)
        try c.encodeIfPresent(ratio, forKey: .ratio)
        try c.encodeIfPresent(ratioSpread, forKey: .ratioSpread)
        if let target {
            var t = c.nestedContainer(keyedBy: TargetKeys.self, forKey: .target)
            try t.encode(target.measure, forKey: .measure)
            try t.encodeIfPresent(target.atLeast, forKey: .atLeast)
            try t.encodeIfPresent(target.below, forKey: .below)
            if let wording { try t.encode(wording.target(target, unit), forKey: .text) }
        }
        try c.encodeIfPresent(pass, forKey: .pass)
        try c.encodeIfPresent(peakMemoryKiB, forKey: .peakMemoryKiB)
        try c.encodeIfPresent(opensslPeakMemoryKiB, forKey: .opensslPeakMemoryKiB)
        try c.encodeIfPresent(note, forKey: .noteID)
        if let wording, let note { try c.encode(wording.note(note), forKey: .note) }
    }
}

/// What one benchmark command prints: its rows, the settings it ran with and notes on method.
public struct BenchReport: Equatable, Sendable {
    public var benchmark: String
    public var settings: [String: String]
    public var rows: [BenchRow]
    public var notes: [BenchNote]

    public init(benchmark: String, settings: [String: String], rows: [BenchRow], notes: [BenchNote]) {
        self.benchmark = benchmark
        self.settings = settings
        self.rows = rows
        self.notes = notes
    }

    /// The report as JSON: typed identifiers, and with `wording` their words beside them.
    public func json(wording: BenchWording? = nil) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let wording { encoder.userInfo[BenchWording.userInfoKey] = wording }
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    public static func decode(_ text: String) throws -> BenchReport {
        try JSONDecoder().decode(BenchReport.self, from: Data(text.utf8))
    }

    // MARK: - Numbers

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
}

/// The JSON form: `notes` in words when the encoder carries a `BenchWording`, `noteIDs` typed.
extension BenchReport: Codable {
    enum Keys: String, CodingKey { case benchmark, settings, rows, notes, noteIDs }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        benchmark = try c.decode(String.self, forKey: .benchmark)
        settings = try c.decode([String: String].self, forKey: .settings)
        rows = try c.decode([BenchRow].self, forKey: .rows)
        notes = try c.decode([BenchNote].self, forKey: .noteIDs)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(benchmark, forKey: .benchmark)
        try c.encode(settings, forKey: .settings)
        try c.encode(rows, forKey: .rows)
        try c.encode(notes, forKey: .noteIDs)
        if let wording = encoder.userInfo[BenchWording.userInfoKey] as? BenchWording {
            try c.encode(notes.map(wording.note), forKey: .notes)
        }
    }
}
