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
        #expect(rows.count == 5)
        #expect(rows.prefix(2).allSatisfy { $0["unit"] as? String == "segments/s" && (Self.median($0) ?? 0) > 0 })
        // The segments/s row is judged against ≥ 10^6/s.
        #expect((rows.first?["target"] as? [String: Any])?["text"] as? String == "≥ 1,000,000/s")
        #expect(rows.first?["pass"] is Bool)
        let floods = rows[2..<4]
        #expect(floods.map { $0["operation"] as? String } == ["SYN flood, 50 half-open connections", "SYN flood, 100 half-open connections"])
        #expect(floods.allSatisfy { ($0["peakMemoryKiB"] as? Int ?? 0) > 0 && $0["lowerIsBetter"] as? Bool == true })
        // The linearity row: bytes per connection at the largest size ÷ at the smallest.
        #expect((rows.last?["operation"] as? String)?.hasPrefix("SYN flood memory linearity: bytes per connection at 100 ÷ at 50") == true)
        let notes = report["notes"] as? [String] ?? []
        #expect(notes.contains { $0.hasPrefix("Linearity: time per connection at 100 is") })
    }

    @Test func cryptoMeasuresTheShippedPathsWithTargets() throws {
        let report = try Self.report(["bench", "crypto", "--seconds", "1", "--runs", "1", "--keys", "1", "--no-openssl",
                                      "--format", "json"])
        let rows = Self.rows(report)
        #expect(rows.compactMap { $0["operation"] as? String } == [
            "RSA-2048 private op (CRT, mpz_powm_sec)", "RSA-2048 private op (CRT, mpz_powm)",
            "RSA-2048 private op (CRT, mpz_powm, base blinding)", "RSA-2048 public op (e = 65537, PKCS#1 v1.5 verify)",
            "ffdhe2048 agreement (256-bit exponent)", "RSA-2048 key generation",
        ])
        #expect(rows.allSatisfy { (Self.median($0) ?? 0) > 0 })
        // Targets are attached (the crypto issue's), but without OpenSSL there is no ratio to judge.
        #expect(rows.prefix(5).allSatisfy { $0["target"] != nil && $0["pass"] == nil })
        #expect((rows[3]["target"] as? [String: Any])?["text"] as? String == "ratio ≥ 0.90×")
    }

    @Test func handshakeReportsBothDHEExponentSizes() throws {
        let report = try Self.report(["bench", "handshake", "--kx", "dhe", "--iterations", "1", "--runs", "1",
                                      "--no-openssl", "--format", "json"])
        let operations = Self.rows(report).compactMap { $0["operation"] as? String }
        #expect(operations == [
            "full handshake, DHE ffdhe2048, 256-bit exponents (wall clock)",
            "full handshake, DHE ffdhe2048, 256-bit exponents (CPU time, both ends)",
            "full handshake, DHE ffdhe2048, full-size exponents (wall clock)",
            "full handshake, DHE ffdhe2048, full-size exponents (CPU time, both ends)",
        ])
        // The target (≥ 1.0×) sits on the rows that do OpenSSL's work (short exponents); the
        // full-size rows are shown without one, as OpenSSL does not use full-size exponents.
        #expect(Self.rows(report).map { $0["target"] != nil } == [true, true, false, false])
        // Each row's measurement ran in its own child: its peak memory is reported.
        #expect(Self.rows(report).enumerated().allSatisfy { index, row in index % 2 == 1 || (row["peakMemoryKiB"] as? Int ?? 0) > 0 })
        let one = try Self.report(["bench", "handshake", "--kx", "dhe", "--dh-exponent", "full", "--iterations", "1",
                                   "--runs", "1", "--no-openssl", "--format", "json"])
        #expect(Self.rows(one).count == 2)
        #expect((report["settings"] as? [String: String])?["dhExponent"] == "short,full")
        #expect((one["settings"] as? [String: String])?["dhExponent"] == "full")
        #expect(try CLI.run(["bench", "handshake", "--dh-exponent", "huge"]).status == 2)
    }

    @Test func aFailingCheckRunFailsItsRow() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-bench-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("this: is not [a scenario\n".utf8).write(to: directory.appendingPathComponent("broken.yaml"))
        let report = try Self.report(["bench", "check", "--scenarios", directory.path, "--runs", "1", "--format", "json"])
        let row = try #require(Self.rows(report).first)
        #expect(row["pass"] as? Bool == false)
        #expect((row["note"] as? String)?.hasPrefix("FAILED") == true)
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

    /// Issue #34: under `--lang zh` the bench table — operations, units, targets, notes — and its progress
    /// lines are Chinese (the same detector as the help screens'); the JSON keeps typed identifiers and
    /// their English words whatever the language.
    @Test func benchTablesAreChineseUnderLangZh() throws {
        let commands: [[String]] = [
            ["bench", "handshake", "--kx", "dhe", "--iterations", "1", "--runs", "1", "--seconds", "1", "--no-openssl"],
            ["bench", "tcp", "--megabytes", "1", "--runs", "1", "--connections", "20", "40"],
            ["bench", "check", "--scenarios", "/nonexistent/scenarios"],
            ["bench", "all", "--only", "tcp", "check", "--runs", "1", "--megabytes", "1", "--connections", "20"],
        ]
        for command in commands {
            let result = try CLI.run(["--lang", "zh"] + command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stdout.hasPrefix("操作"), "\(result.stdout)")
            let english = ChineseCLITests.englishSentences(in: result.stdout + "\n" + result.stderr)
            #expect(english.isEmpty, "\(command): English \(english) in:\n\(result.stdout)\n\(result.stderr)")
        }
        let zh = try CLI.run(["--lang", "zh", "bench", "handshake", "--kx", "ecdhe", "--iterations", "1", "--runs", "1",
                              "--seconds", "1", "--no-openssl"])
        #expect(zh.stdout.contains("完整握手，ECDHE X25519（墙钟时间）") && zh.stdout.contains("次握手/秒"), "\(zh.stdout)")
        #expect(zh.stdout.contains("比值 ≥ 1.00×"), "\(zh.stdout)")
        #expect(zh.stderr.contains("第 1/1 次运行…"), "\(zh.stderr)")
        let json = try Self.report(["--lang", "zh", "bench", "handshake", "--kx", "ecdhe", "--iterations", "1", "--runs", "1",
                                    "--no-openssl", "--format", "json"])
        let row = try #require(Self.rows(json).first)
        #expect(row["operation"] as? String == "full handshake, ECDHE X25519 (wall clock)")
        #expect(((row["operationID"] as? [String: Any])?["fullHandshake"]) != nil, "\(row)")
    }

    @Test func badBenchArgumentsAreExitCode2() throws {
        #expect(try CLI.run(["bench", "handshake", "--runs", "0"]).status == 2)
        #expect(try CLI.run(["bench", "handshake", "--kx", "dsa"]).status == 2)
        #expect(try CLI.run(["bench", "all", "--only", "nope"]).status == 2)
        #expect(try CLI.run(["bench", "tcp", "--connections", "0"]).status == 2)
    }
}
