import Foundation
import Testing

/// `tlslab bench`: argument parsing and the report's shape, with tiny workloads (nothing here is timed).
@Suite("tlslab bench")
struct BenchCommandTests {
    /// The JSON report a bench command printed.
    static func report(_ arguments: [String]) throws -> [String: Any] {
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object, "\(arguments) printed no JSON object: \(result.stdout.prefix(200))")
    }

    static func rows(_ report: [String: Any]) -> [[String: Any]] { report["rows"] as? [[String: Any]] ?? [] }

    static func median(_ row: [String: Any], _ side: String = "ours") -> Double? {
        (row[side] as? [String: Any])?["median"] as? Double
    }

    @Test func handshakeWithAFixedCountReportsOursOnly() throws {
        let report = try Self.report(["bench", "handshake", "--kx", "ecdhe", "--iterations", "2", "--runs", "1",
                                      "--no-openssl", "--format", "json"])
        #expect(report["benchmark"] as? String == "handshake")
        let rows = Self.rows(report)
        #expect(rows.map { $0["unit"] as? String } == ["handshakes/s", "handshakes/s"])
        #expect(rows.allSatisfy { ($0["operation"] as? String)?.contains("ECDHE X25519") == true })
        #expect(rows.allSatisfy { (Self.median($0) ?? 0) > 0 })
        #expect(rows.allSatisfy { $0["openssl"] == nil && $0["ratio"] == nil })
        #expect((report["settings"] as? [String: String])?["iterations"] == "2")
    }

    @Test func tcpReportsThroughputAndOneFloodRowPerSize() throws {
        let report = try Self.report(["bench", "tcp", "--megabytes", "1", "--runs", "1", "--connections", "50", "100",
                                      "--format", "json"])
        let rows = Self.rows(report)
        #expect(rows.count == 4)
        #expect(rows.prefix(2).allSatisfy { $0["unit"] as? String == "segments/s" && (Self.median($0) ?? 0) > 0 })
        let floods = rows.suffix(2)
        #expect(floods.map { $0["operation"] as? String } == ["SYN flood, 50 half-open connections", "SYN flood, 100 half-open connections"])
        #expect(floods.allSatisfy { ($0["peakMemoryKiB"] as? Int ?? 0) > 0 && $0["lowerIsBetter"] as? Bool == true })
        let notes = report["notes"] as? [String] ?? []
        #expect(notes.contains { $0.hasPrefix("Linearity: time per connection at 100 is") })
    }

    @Test func floodChildPrintsItsOwnMeasurement() throws {
        let result = try CLI.run(["bench", "tcp-flood", "--connections", "30"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["connections"] as? Int == 30)
        #expect(object?["steps"] as? Int == 60)  // each SYN delivered, each SYN-ACK dropped for want of a route
    }

    @Test func checkWithoutAScenarioDirectoryIsNotAvailable() throws {
        let report = try Self.report(["bench", "check", "--scenarios", "/nonexistent/scenarios", "--format", "json"])
        let rows = Self.rows(report)
        #expect(rows.count == 1)
        #expect(rows.first?["ours"] == nil)
        #expect((rows.first?["note"] as? String)?.hasPrefix("not available") == true)
    }

    @Test func startupTimesTheFirstByteAndTheTextTableHasItsColumns() throws {
        let result = try CLI.run(["bench", "startup", "--runs", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("operation") == true)
        #expect(lines.first?.contains("ours/OpenSSL") == true)
        #expect(lines.contains { $0.hasPrefix("tlslab (default walkthrough): first output byte") && $0.contains(" ms ") })
    }

    @Test func allMergesTheChosenBenchmarks() throws {
        let report = try Self.report(["bench", "all", "--only", "tcp", "check", "--runs", "1", "--megabytes", "1",
                                      "--connections", "20", "--format", "json"])
        #expect(report["benchmark"] as? String == "all")
        let operations = Self.rows(report).compactMap { $0["operation"] as? String }
        #expect(operations.contains("SYN flood, 20 half-open connections"))
        #expect(operations.contains { $0.hasPrefix("tlslab check") })
        #expect(!operations.contains { $0.contains("handshake") })
        #expect((report["notes"] as? [String] ?? []).contains { $0.hasPrefix("tcp: ") })
    }

    @Test func badBenchArgumentsAreExitCode2() throws {
        #expect(try CLI.run(["bench", "handshake", "--runs", "0"]).status == 2)
        #expect(try CLI.run(["bench", "handshake", "--kx", "dsa"]).status == 2)
        #expect(try CLI.run(["bench", "all", "--only", "nope"]).status == 2)
        #expect(try CLI.run(["bench", "tcp", "--connections", "0"]).status == 2)
    }
}
