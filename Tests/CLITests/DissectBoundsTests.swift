import Foundation
import TestSupport
import Testing

/// Issue #38 defect 10: dissect on a handshake message cut into tiny records was quadratic (a note
/// naming every record on every reassembled field, wrapped line by line) and used ~240× its input.
/// Now the note names a long run of records by its ends, lines that fit are not re-measured, and
/// more than 1 MiB of TLS bytes (4 MiB of hex, or a pipe that never ends) is a clear error.
@Suite("dissect: linear work, a clear input limit", .serialized)
struct DissectBoundsTests {
    /// A ClientHello with `suites` cipher suites, one byte per record.
    static func tinyRecords(suites: Int) -> [UInt8] {
        var body: [UInt8] = [3, 3] + [UInt8](repeating: 0, count: 32) + [0]
        body += [UInt8(truncatingIfNeeded: (2 * suites) >> 8), UInt8(truncatingIfNeeded: 2 * suites)]
        for _ in 0 ..< suites { body += [0x00, 0x2f] }
        body += [1, 0]
        let message: [UInt8] = [1, UInt8(body.count >> 16), UInt8(truncatingIfNeeded: body.count >> 8), UInt8(truncatingIfNeeded: body.count)] + body
        return message.flatMap { [22, 3, 3, 0, 1, $0] }
    }

    func write(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dissect-\(UUID().uuidString).bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a ClientHello of 2,000 suites in 4,000+ one-byte records: reassembled, the note names the run by its ends")
    func reassemblyNoteIsShort() throws {
        let path = try write(Self.tinyRecords(suites: 2_000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["dissect", "--width", "120", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("cipher_suites[1999] = TLS_RSA_WITH_AES_128_CBC_SHA"))
        let records = 4 + 2 + 32 + 1 + 2 + 4_000 + 2
        #expect(result.stdout.contains("reassembled from record[0] … record[\(records - 1)] (\(records) records)"), "\(result.stdout.suffix(2000))")
        #expect(!result.stdout.contains("record[5], record[6]"))
    }

    @Test("over 1 MiB of TLS bytes, or an endless pipe, is refused in one sentence (exit 2)")
    func inputIsBounded() throws {
        let big = try write([UInt8](repeating: 0x17, count: (1 << 20) + 1))
        defer { try? FileManager.default.removeItem(atPath: big) }
        let file = try CLI.run(["dissect", big])
        #expect(file.status == 2 && file.stderr.contains("holds more than 1048576 bytes of TLS"), "\(file.stderr)")
        guard let binary = CLI.binary else { throw CLI.CLIRunnerError.binaryNotFound }
        let start = Date()
        let shell = try ExternalTool.run("/bin/sh", ["-c", "exec \"$0\" dissect - < /dev/zero", binary.path], timeout: 60)
        #expect(shell.status == 2 && shell.stderrText.contains("standard input holds more than"), "\(shell.stderrText)")
        #expect(!shell.timedOut && Date().timeIntervalSince(start) < 30)
        // Just under the limit is read.
        let fits = try write(Array(Self.tinyRecords(suites: 100)))
        defer { try? FileManager.default.removeItem(atPath: fits) }
        #expect(try CLI.run(["dissect", fits]).status == 0)
    }
}
