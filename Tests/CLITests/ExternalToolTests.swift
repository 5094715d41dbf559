import Foundation
import Testing
import TestSupport

/// The one runner for external programs: input in, output and error out however large, and a
/// program that does not end is stopped at the deadline.
@Suite("ExternalTool: the test runner for external programs")
struct ExternalToolTests {
    @Test func largeOutputOnBothStreamsDoesNotStall() throws {
        // 2 MB on each stream: far beyond a pipe's buffer, which stalls a reader of one stream at a time.
        let script = "head -c 2000000 /dev/zero | tr '\\\\0' a; head -c 2000000 /dev/zero | tr '\\\\0' b >&2"
        let result = try ExternalTool.run("/bin/sh", ["-c", script], timeout: 60)
        #expect(result.succeeded)
        #expect(result.stdout.count == 2_000_000 && result.stderr.count == 2_000_000)
    }

    @Test func inputReachesTheProgram() throws {
        let text = String(repeating: "tlslab ", count: 20_000)
        #expect(try ExternalTool.output("/bin/cat", [], stdin: Data(text.utf8)) == text)
    }

    @Test func aProgramPastItsDeadlineIsStopped() throws {
        let start = Date()
        let result = try ExternalTool.run("/bin/sleep", ["30"], timeout: 0.3)
        #expect(result.timedOut && !result.succeeded)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(throws: ExternalTool.Failed.self) { try ExternalTool.output("/bin/sh", ["-c", "echo no >&2; exit 3"]) }
    }
}
