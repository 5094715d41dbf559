import Foundation
import Testing
import Benchmarks
import PKI
import Simulation
@testable import Rendering
@testable import tlslab

/// Issue #34: a benchmark that gives no figure says why in the reader's language. The Benchmarks module
/// throws typed data (no English of its own); the command line words every case from the catalogue
/// (`cli.bench.failure.*`, en and zh) and `tlslab` prints it in one line with exit status 1.
@Suite("bench failures worded by the catalogue")
struct BenchFailureWordsTests {
    static let short = HandshakeVariant(kind: .dhe, dhExponent: .short)
    static let systemTexts = [ENOSPC, ENOENT, EMFILE, EACCES, ENOEXEC].map { String(cString: strerror($0)) }

    /// One example of every case (a new case does not compile in `BenchWords.failure` until it is worded,
    /// and `everyKeyHasAnExample` fails until it has an example here), with the English it must give.
    static let examples: [(Error, String)] = [
        (BenchFailure.ownSignatureNotVerified, "the benchmark key does not verify its own signature"),
        (BenchFailure.verificationsFailed(count: 3), "3 verifications failed during the benchmark"),
        (BenchFailure.handshakeChildExited(short, status: 6), "bench handshake-child (dhe/short) exited with status 6"),
        (BenchFailure.handshakeChildOutputUnreadable(short, excerpt: "{\"x"), "bench handshake-child (dhe/short): unreadable output {\"x"),
        (HandshakeBench.Failure.notSuccessful(short, outcome: "incomplete"), "the dhe/short benchmark run did not succeed: incomplete"),
        (HandshakeBench.Failure.notSuccessful(HandshakeVariant(kind: .rsa), outcome: "bad_record_mac"),
         "the rsa benchmark run did not succeed: bad_record_mac"),
        (OpenSSLLoopback.Failure.setup(directory: "/tmp/tlslab-bench-1", code: ENOSPC),
         "cannot prepare the OpenSSL server: cannot write its certificate, key and DH parameters under /tmp/tlslab-bench-1: \(String(cString: strerror(ENOSPC)))"),
        (OpenSSLLoopback.Failure.setup(directory: "/tmp/tlslab-bench-1", code: nil),
         "cannot prepare the OpenSSL server: cannot write its certificate, key and DH parameters under /tmp/tlslab-bench-1"),
        (OpenSSLLoopback.Failure.noPort, "no free loopback port"),
        (OpenSSLLoopback.Failure.serverDidNotStart(.ecdhe), "openssl s_server (ecdhe) did not start listening within 5 s"),
        (OpenSSLLoopback.Failure.unparsable(excerpt: "ERROR"), "cannot read openssl s_time's output: ERROR"),
        (OpenSSLSpeed.Failure.unknownFormat(row: "rsa 2048 bits", why: .noRow, excerpt: "version: 9.9"),
         "cannot read `openssl speed` output for \"rsa 2048 bits\": no line starts with \"rsa 2048 bits\". Unknown output format; the output ended with:\nversion: 9.9"),
        (OpenSSLSpeed.Failure.unknownFormat(row: "2048 bits ffdh", why: .valuesNotNumbers(["0.0002s", "n/a"]), excerpt: "x"),
         "cannot read `openssl speed` output for \"2048 bits ffdh\": the row's values are not all numbers: 0.0002s n/a. Unknown output format; the output ended with:\nx"),
        (OpenSSLSpeed.Failure.unknownFormat(row: "rsa 2048 bits", why: .noHeader(columns: 4), excerpt: "x"),
         "cannot read `openssl speed` output for \"rsa 2048 bits\": no header line names its 4 columns. Unknown output format; the output ended with:\nx"),
        (OpenSSLSpeed.Failure.missingColumn(row: "rsa 2048 bits", column: "sign/s", header: ["sign", "verify"]),
         "`openssl speed` row \"rsa 2048 bits\" has no column \"sign/s\" (its header: sign verify)"),
        (ChildProcess.Failure.spawn("/usr/bin/openssl", ENOENT), "cannot start /usr/bin/openssl: \(String(cString: strerror(ENOENT)))"),
        (ChildProcess.Failure.pipe(EMFILE), "cannot create a pipe: \(String(cString: strerror(EMFILE)))"),
        (PseudoTerminalLaunch.Failure.noPTYFunctions, "pseudo-terminal: posix_openpt and friends are not in the C library"),
        (PseudoTerminalLaunch.Failure.pty(call: "posix_openpt", code: EACCES), "pseudo-terminal: posix_openpt failed: \(String(cString: strerror(EACCES)))"),
        (PseudoTerminalLaunch.Failure.spawn(ENOEXEC), "cannot start tlslab on a pseudo-terminal: \(String(cString: strerror(ENOEXEC)))"),
        (PseudoTerminalLaunch.Failure.noScreen(bytes: 1200), "tlslab drew no first screen on the pseudo-terminal within 10 s (got 1,200 bytes)"),
        (TCPBulkTransfer.Failure.incomplete(received: 65_536, expected: 1_048_576), "bulk transfer stopped at 65,536 of 1,048,576 bytes"),
        (TCPFloodResult.Failure.childExited(status: 137), "the tcp-flood child exited with status 137"),
        (TCPFloodResult.Failure.childOutputUnreadable(excerpt: "oops"), "the tcp-flood child's output is unreadable: oops"),
        (TCPFloodResult.Failure.notAllHalfOpen(halfOpen: 9, connections: 10), "tcp-flood: only 9 of 10 connections are half-open"),
        // A measured built-in run that cannot be set up is worded as `tlslab run` words it.
        (BuiltInRunSetupFailure(run: .dhe, cause: .demoPKI(.noCertificate(label: "demo-leaf"))),
         "the built-in run dhe cannot be set up: the PEM of the certificate demo-leaf built into TLSLab holds no CERTIFICATE block (RFC 7468 §5.1)"),
    ]

    @Test func everyFailureIsWordedInEnglishAsBefore() {
        let words = BenchWords(Explanations.english)
        for (error, english) in Self.examples {
            #expect(words.failure(error) == english)
        }
        // An error that is not a benchmark's is left to the caller.
        #expect(words.failure(CocoaError(.fileNoSuchFile)) == nil)
    }

    /// The Chinese keeps every value (numbers, names, the program's own output) and has no English
    /// sentence around them (the same detector as the help screens).
    @Test func everyFailureIsChineseUnderLangZh() {
        let words = BenchWords(Explanations.chinese)
        for (error, english) in Self.examples {
            let chinese = words.failure(error) ?? ""
            #expect(chinese != english && !chinese.hasPrefix("cli.bench."), "\(chinese)")
            #expect(chinese.unicodeScalars.contains { (0x4E00 ... 0x9FFF).contains($0.value) }, "\(chinese)")
            // The C library's text for an errno (strerror) is the system's own: checked without it.
            let own = Self.systemTexts.reduce(chinese) { $0.replacing($1, with: "") }
            #expect(ChineseCLITests.englishSentences(in: own).isEmpty, "English in: \(chinese)")
        }
        #expect(words.failure(TCPFloodResult.Failure.notAllHalfOpen(halfOpen: 9, connections: 10)) as String == "tcp-flood：10 条连接中只有 9 条处于半开状态")
        #expect(words.failure(HandshakeBench.Failure.notSuccessful(Self.short, outcome: "incomplete")) as String == "dhe/short 的基准测试运行没有成功：未完成")
    }

    /// Every `cli.bench.failure.*` key is in both catalogues and worded by some example.
    @Test func everyKeyHasAnExample() {
        let english = Set(Explanations.englishBenchFailures.keys), chinese = Set(Explanations.chineseBenchFailures.keys)
        #expect(english == chinese)
        let worded = Self.examples.map { BenchWords(Explanations.english).failure($0.0) ?? "" }
        for key in english {
            let fixed = String((Explanations.english(key) ?? "").prefix { $0 != "{" })
            #expect(fixed.isEmpty || worded.contains { $0.contains(fixed) }, "\(key): no example shows '\(fixed)'")
        }
    }

    /// What a child or `openssl` printed is escaped before it reaches the terminal.
    @Test func quotedOutputIsEscaped() {
        let text = BenchWords(Explanations.chinese).failure(TCPFloodResult.Failure.childOutputUnreadable(excerpt: "\u{1B}[2Jgone"))
        #expect(!text.contains("\u{1B}"), "\(text)")
    }

    /// The Benchmarks module holds facts only: no `description` sentences, no English in its errors.
    @Test func theBenchmarksModuleHoldsNoSentences() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { root.deleteLastPathComponent() }
        let folder = root.appendingPathComponent("Sources/Benchmarks")
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) where file.pathExtension == "swift" {
            let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            for line in code {
                #expect(!line.contains("var description"), "\(file.lastPathComponent): \(line)")
                for literal in line.matches(of: /"([^"\\]|\\.)*"/) {
                    #expect(ChineseCLITests.englishSentences(in: String(literal.output.0.dropFirst().dropLast())).isEmpty,
                            "\(file.lastPathComponent): \(line)")
                }
            }
        }
    }
}
