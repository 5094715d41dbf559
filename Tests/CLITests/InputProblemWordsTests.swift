import Foundation
import Testing

/// Issue #34: the input the command line refuses after parsing — a bad HOST:PORT, an unknown suite,
/// a file that is not a certificate, key or session file, text that is not hex, an unknown handler —
/// is worded by the catalogue in the command line's language, and exits 2.
@Suite("The command line's input errors, in English and in Chinese")
struct InputProblemWordsTests {
    /// (arguments, the English sentence's start, the Chinese sentence's start), both on stderr.
    static func cases(_ directory: String) -> [([String], String, String)] {
        let notPEM = directory + "/not.pem", session = directory + "/session.txt", key = directory + "/key.pem"
        return [
            (["connect", "example.org"], "expected HOST:PORT, got 'example.org'", "应为 HOST:PORT，收到的是“example.org”"),
            (["connect", "example.org:0"], "expected HOST:PORT with a port 1…65535", "应为 HOST:PORT，端口在 1…65535 之间"),
            (["connect", "example.org:443", "--suite", "NO_SUCH_SUITE"], "unknown or unimplemented suite 'NO_SUCH_SUITE'", "未知或未实现的密码套件“NO_SUCH_SUITE”"),
            (["connect", "example.org:443", "--ca", notPEM], "\(notPEM): not a certificate", "\(notPEM)：不是证书"),
            (["connect", "example.org:443", "--ca", directory + "/missing.pem"], "cannot read \(directory)/missing.pem", "无法读取 \(directory)/missing.pem"),
            (["connect", "127.0.0.1:9", "--session-in", session], "--session-in \(session): line 2: expected name: value",
             "--session-in \(session)：第 2 行：应为 name: value 格式"),
            (["serve", "--port", "0", "--cert", notPEM, "--key", key], "\(notPEM): not a certificate", "\(notPEM)：不是证书"),
            (["dissect", "16 03 0g"], "the argument: not hex: 'g' at line 1, column 8", "参数：不是十六进制：第 1 行第 8 列的“g”"),
            (["dissect", "160"], "the argument: an odd number of hex digits (3)", "参数：十六进制数字的个数为奇数（3 个）"),
            (["dissect", "no/such.file"], "no such file, and not hex either: no/such.file", "没有这个文件，也不是十六进制：no/such.file"),
            (["dissect", "--suite", "NOPE", "16"], "unknown cipher suite 'NOPE'", "未知的密码套件“NOPE”"),
            (["run", "rsa", "--seed", "x"], "--seed takes a whole number or 'random', not 'x'", "--seed 接受一个整数或 random，而不是“x”"),
            (["run", "rsa#nobody"], "rsa#nobody: '#' names one handler of a lesson with handlers, and rsa has none",
             "rsa#nobody：“#”用于从带 handlers 的课程中选出一个处理方式，而 rsa 没有 handlers"),
            (["lessons", "zzzzqqqq"], "no lesson matches zzzzqqqq", "没有课程与 zzzzqqqq 匹配"),
        ]
    }

    static func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-input-words-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("just text\n".utf8).write(to: URL(fileURLWithPath: directory + "/not.pem"))
        try Data("just text\n".utf8).write(to: URL(fileURLWithPath: directory + "/key.pem"))
        try Data("TLSLab TLS 1.2 session (RFC 5246 §7.3, RFC 5077); holds the master secret: keep it private\nno colon here\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/session.txt"))
        return directory
    }

    @Test func everyInputErrorIsWordedInTheChosenLanguage() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (arguments, english, chinese) in Self.cases(directory) {
            let en = try CLI.run(arguments)
            #expect(en.status == 2, "\(arguments): \(en.status) \(en.stderr)")
            #expect(en.stderr.contains(english), "\(arguments): \(en.stderr)")
            let zh = try CLI.run(["--lang", "zh"] + arguments)
            #expect(zh.status == 2, "\(arguments): \(zh.status) \(zh.stderr)")
            #expect(zh.stderr.contains(chinese), "\(arguments): \(zh.stderr)")
            #expect(ChineseCLITests.englishSentences(in: zh.stderr).isEmpty, "\(arguments): English left in \(zh.stderr)")
        }
    }

    @Test func dissectsWidthIsAnOptionProblemInBothLanguages() throws {
        let en = try CLI.run(["dissect", "--width", "10", "16"])
        #expect(en.status != 0 && en.stderr.contains("--width takes 40…1000 columns, got 10"), "\(en.stderr)")
        let zh = try CLI.run(["dissect", "--lang", "zh", "--width", "10", "16"])
        #expect(zh.stderr.contains("--width 的取值范围是 40…1000 列，收到的是 10"), "\(zh.stderr)")
    }

    @Test func printableTextThatIsNotHexIsReadAsBinaryWithANoteInTheLanguage() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/request.txt"
        try Data("GET / HTTP/1.1\r\n\r\n".utf8).write(to: URL(fileURLWithPath: file))
        let zh = try CLI.run(["dissect", "--lang", "zh", file])
        #expect(zh.stderr.contains("tlslab dissect：\(file) 不是十六进制"), "\(zh.stderr)")
        let en = try CLI.run(["dissect", file])
        #expect(en.stderr.contains("tlslab dissect: \(file) is not hex (not hex: 'G' at line 1, column 1); reading its 18 bytes as binary"), "\(en.stderr)")
    }
}
