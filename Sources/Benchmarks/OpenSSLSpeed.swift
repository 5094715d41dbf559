import Foundation

/// Runs `openssl speed` and reads its summary table by the labels of its header line, so that a
/// changed column order or extra columns (OpenSSL 3.2 adds encrypt/decrypt to the RSA table) still
/// read correctly, and a layout we do not know stops the benchmark with a clear message instead of
/// leaving the OpenSSL column silently empty.
public enum OpenSSLSpeed {
    /// Why the output could not be read, as data (worded by the command line, `cli.bench.failure.*`).
    public enum Failure: Error, Sendable, Hashable {
        /// No row with this label (e.g. "rsa 2048 bits"), or no header line above it that names its
        /// columns (`excerpt`: the output's last four lines).
        case unknownFormat(row: String, why: UnknownFormat, excerpt: String)
        /// The header has no column with this label (e.g. "sign/s").
        case missingColumn(row: String, column: String, header: [String])
    }

    /// What about the output's layout is unknown.
    public enum UnknownFormat: Sendable, Hashable {
        /// No line starts with the row's label.
        case noRow
        /// The row's values (these words) are not all numbers.
        case valuesNotNumbers([String])
        /// No header line above the row names its `columns` columns.
        case noHeader(columns: Int)
    }

    public static func locate() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/openssl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public static func run(_ openssl: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The whitespace-separated words of a line.
    public static func words(_ line: Substring) -> [String] {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// A number as `openssl speed` prints it: "4121.2", "0.000243s" (seconds per operation), "1.23k".
    public static func value(_ word: String) -> Double? {
        var text = Substring(word)
        if text.hasSuffix("s") { text = text.dropLast() }
        if text.hasSuffix("k") { return Double(text.dropLast()).map { $0 * 1000 } }
        return Double(text)
    }

    /// The row whose words begin with `label`'s words (so "rsa 2048 bits" matches "rsa  2048 bits …"),
    /// as a dictionary from the labels of the nearest header line above it (a line of as many
    /// non-numeric words as the row has values) to the row's values.
    public static func table(_ output: String, row label: String) throws(Failure) -> [String: Double] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true)
        let labelWords = label.split(separator: " ").map(String.init)
        let excerpt = lines.suffix(4).joined(separator: "\n")
        guard let rowIndex = lines.firstIndex(where: { Array(words($0).prefix(labelWords.count)) == labelWords }) else {
            throw .unknownFormat(row: label, why: .noRow, excerpt: excerpt)
        }
        let valueWords = Array(words(lines[rowIndex]).dropFirst(labelWords.count))
        let values = valueWords.compactMap(value)
        guard !values.isEmpty, values.count == valueWords.count else {
            throw .unknownFormat(row: label, why: .valuesNotNumbers(valueWords), excerpt: excerpt)
        }
        let header = lines[..<rowIndex].reversed().lazy.map(words).first { candidate in
            candidate.count == values.count && candidate.allSatisfy { Double($0) == nil }
        }
        guard let header else {
            throw .unknownFormat(row: label, why: .noHeader(columns: values.count), excerpt: excerpt)
        }
        return Dictionary(zip(header, values), uniquingKeysWith: { first, _ in first })
    }

    /// One column of a row, by its header label.
    public static func column(_ output: String, row: String, column: String) throws(Failure) -> Double {
        let table = try table(output, row: row)
        guard let value = table[column] else {
            throw .missingColumn(row: row, column: column, header: table.keys.sorted())
        }
        return value
    }

    /// Signs and verifications per second from `openssl speed rsa2048` output (the `sign/s` and `verify/s` columns).
    public static func parseRSA2048(_ output: String) throws(Failure) -> (sign: Double, verify: Double) {
        (try column(output, row: "rsa 2048 bits", column: "sign/s"), try column(output, row: "rsa 2048 bits", column: "verify/s"))
    }

    /// Agreements per second from `openssl speed ffdh2048` output (the `op/s` column).
    public static func parseFFDH2048(_ output: String) throws(Failure) -> Double {
        try column(output, row: "2048 bits ffdh", column: "op/s")
    }

    /// `openssl speed -seconds S rsa2048`.
    public static func rsa2048(openssl: String, seconds: Int, elapsed: Bool) throws -> (sign: Double, verify: Double) {
        try parseRSA2048(try run(openssl, ["speed", "-seconds", "\(seconds)"] + (elapsed ? ["-elapsed"] : []) + ["rsa2048"]))
    }

    /// `openssl speed -seconds S ffdh2048`.
    public static func ffdh2048(openssl: String, seconds: Int, elapsed: Bool) throws -> Double {
        try parseFFDH2048(try run(openssl, ["speed", "-seconds", "\(seconds)"] + (elapsed ? ["-elapsed"] : []) + ["ffdh2048"]))
    }

    /// `openssl genpkey` RSA-2048 keys per second: the children's user CPU time (or wall-clock time),
    /// less that of as many `openssl version` runs (process start-up). OpenSSL 3.0's `speed` has no
    /// key-generation test.
    public static func keygenPerSecond(openssl: String, count: Int, wallClock: Bool) throws -> Double {
        let clock = ContinuousClock()
        func cost(_ arguments: [String]) throws -> Double {
            let wallStart = clock.now, cpuStart = CPUTime.children()
            for _ in 0..<count { _ = try run(openssl, arguments) }
            return wallClock ? (clock.now - wallStart).benchSeconds : CPUTime.children() - cpuStart
        }
        let startup = try cost(["version"])
        let total = try cost(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
        return Double(count) / max(total - startup, 1e-6)
    }
}
