import Foundation
import HTTP2
@testable import Rendering
import Testing
import Trace
import Trust

@Suite("tlslab dissect")
struct DissectCommandTests {
    @Test func namesEveryMessageAndKeyFieldOfTheOpenSSLHandshake() throws {
        let messages = try Fixtures.opensslHandshakeHex()
        #expect(messages.count == 5)
        let result = try CLI.run(["dissect", "--width", "200", messages.joined()])
        #expect(result.status == 0)
        let out = result.stdout
        for message in ["client_hello", "server_hello", "certificate", "server_hello_done", "client_key_exchange"] {
            #expect(out.contains("handshake = \(message)"), "missing \(message)")
        }
        for field in ["client_version = TLS 1.2 (0x0303)", "random.gmt_unix_time", "random.random_bytes",
                      "cipher_suites[0] = TLS_RSA_WITH_AES_128_GCM_SHA256 (0x009c)",
                      "cipher_suite = TLS_RSA_WITH_AES_128_GCM_SHA256", "host_name = \"localhost\"",
                      "certificate_list[0] = DER certificate, 863 bytes", "encrypted_pre_master_secret.length = 256",
                      "compression_methods[0] = null"] {
            #expect(out.contains(field), "missing \(field)")
        }
        #expect(!out.contains("!"), "no notes expected on well-formed bytes")
    }

    @Test func recordsFromStdinAndColonHexAndTruncationNote() throws {
        // A ClientHello record cut short: the dissector says where the bytes stop.
        let result = try CLI.run(["dissect", "-"], stdin: "16:03:03:00:2f:01:00:00:2b:03:03\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("read as TLS records"))
        #expect(result.stdout.contains("declares 47 bytes"))
        #expect(result.stdout.contains("client_version = TLS 1.2"))
    }

    /// An oversized record that is also cut short gets both notes (issue #22).
    @Test func oversizedAndTruncatedRecordGetsBothNotes() throws {
        let result = try CLI.run(["dissect", "--as", "records", "-"], stdin: "17 03 03 ff ff 01 02 03\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("exceeds 16384: record_overflow"), "\(result.stdout)")
        #expect(result.stdout.contains("declares 65535 bytes, only 3 present"), "\(result.stdout)")
    }

    /// Issue #34: `--lang zh` (or TLSLAB_LANG=zh) words the heading, the values and the notes in Chinese;
    /// field names stay as the RFC spells them.
    @Test func chineseUnderLangAndEnvironment() throws {
        let input = "16:03:03:00:2f:01:00:00:2b:03:03\n"
        for (arguments, environment) in [(["dissect", "--lang", "zh", "-"], [:]), (["dissect", "-"], ["TLSLAB_LANG": "zh"])] {
            let r = try CLI.run(arguments, stdin: input, environment: environment)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("11 字节，按 TLS 记录读取："), "\(r.stdout)")
            #expect(r.stdout.contains("声明了 47 字节，实际只有 6 字节"), "\(r.stdout)")
            #expect(r.stdout.contains("client_version = TLS 1.2 (0x0303)"), "\(r.stdout)")
            #expect(!r.stdout.contains("declares") && !r.stdout.contains("read as"), "\(r.stdout)")
        }
    }

    /// A ClientHello offering a cipher suite (0x00d4), an extension (0x00fe) and a group (0x01ff) TLSLab
    /// has no name for, and GREASE values (RFC 8701 §2) in the suites and extensions: the engine records
    /// the numbers, the catalogue words them in each language (issue #34: no `unknown(0x…)`).
    static let unnamedValuesHello = "01 00003f 0303" + String(repeating: "11", count: 32) + " 00"
        + " 0006 00d4 0a0a 009c  01 00  0010  00fe 0000  1a1a 0000  000a 0004 0002 01ff"

    @Test func unnamedCodePointsAreWordedInEachLanguage() throws {
        let zh = try CLI.run(["dissect", "--lang", "zh", "--width", "200", "--as", "handshake", Self.unnamedValuesHello])
        #expect(zh.status == 0, "\(zh.stderr)")
        for words in ["cipher_suites[0] = TLSLab 不认识的值（0x00d4）", "cipher_suites[1] = RFC 8701 为 GREASE 保留的值（0x0a0a）",
                      "extension_type = TLSLab 不认识的值（0x00fe）", "extension_type = RFC 8701 为 GREASE 保留的值（0x1a1a）",
                      "named_group_list[0] = TLSLab 不认识的值（0x01ff）", "cipher_suites[2] = TLS_RSA_WITH_AES_128_GCM_SHA256 (0x009c)"] {
            #expect(zh.stdout.contains(words), "missing \(words) in:\n\(zh.stdout)")
        }
        #expect(!zh.stdout.contains("unknown("), "\(zh.stdout)")
        #expect(ChineseCLITests.englishSentences(in: zh.stdout).isEmpty, "\(ChineseCLITests.englishSentences(in: zh.stdout))")
        let en = try CLI.run(["dissect", "--lang", "en", "--width", "200", "--as", "handshake", Self.unnamedValuesHello])
        #expect(en.status == 0, "\(en.stderr)")
        for words in ["cipher_suites[0] = not a value TLSLab knows (0x00d4)", "cipher_suites[1] = a value RFC 8701 reserves for GREASE (0x0a0a)",
                      "extension_type = not a value TLSLab knows (0x00fe)", "extension_type = a value RFC 8701 reserves for GREASE (0x1a1a)",
                      "named_group_list[0] = not a value TLSLab knows (0x01ff)"] {
            #expect(en.stdout.contains(words), "missing \(words) in:\n\(en.stdout)")
        }
        #expect(!en.stdout.contains("unknown("), "\(en.stdout)")
    }

    @Test func widthOutOfRangeIsRefused() throws {
        for width in ["0", "-5", "39", "100000"] {
            let result = try CLI.run(["dissect", "--width=\(width)", "15 03 03 00 02 02 28"])
            #expect(result.status == 2, "--width=\(width): \(result.stdout)")
            #expect(result.stderr.contains("--width takes 40…1000 columns"), "\(result.stderr)")
        }
        #expect(try CLI.run(["dissect", "--width=40", "15 03 03 00 02 02 28"]).status == 0)
    }

    @Test func binaryFileInput() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-dissect-\(UUID()).bin")
        try Data([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["dissect", file.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("handshake_failure"))
    }

    /// RFC 4492 §5.4's explicit_prime curve (RFC 8422 removes it): the engine's codec reads curve_type,
    /// refuses it with illegal_parameter and reads no further; the dissection shows the same (issue #32:
    /// the dissector reads with the engine's codec, so it no longer lays out fields the engine never reads).
    @Test func explicitPrimeCurveIsRefusedWhereTheEngineRefusesIt() throws {
        let ske = "0c000018 01 0117 0101 0102 0103 0105 0101 0404010203 0401 0002 aabb"
        let char2 = "0c000006 02 0102030405"
        for (input, type) in [(ske, "explicit_prime (0x01)"), (char2, "explicit_char2 (0x02)")] {
            let r = try CLI.run(["dissect", "--width", "400", "--as", "handshake", "--suite", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", input])
            #expect(r.status == 0)
            #expect(r.stdout.contains("curve_type = \(type)"), "\(r.stdout)")
            #expect(r.stdout.contains("RFC 8422 §5.4 deprecates explicit curves") && r.stdout.contains("illegal_parameter"), "\(r.stdout)")
            #expect(r.stdout.contains("not read: the receiver refuses the message at the fault above"), "\(r.stdout)")
            #expect(!r.stdout.contains("namedcurve") && !r.stdout.contains("prime_p") && !r.stdout.contains("signed_params"), "\(r.stdout)")
        }
    }

    /// RFC 7366 §3: `--etm` reads a CBC record as IV ‖ ciphertext ‖ MAC (the MAC in the clear).
    @Test func encryptThenMACRecordsWithTheFlag() throws {
        let iv = String(repeating: "11", count: 16), ciphertext = String(repeating: "22", count: 32)
        let mac = String(repeating: "33", count: 20)
        let input = "140303000101 1703030044 " + iv + ciphertext + mac  // 0x44 = 68 = 16 + 32 + 20
        let etm = try CLI.run(["dissect", "--width", "400", "--suite", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "--etm", input])
        #expect(etm.status == 0, "\(etm.stderr)")
        #expect(etm.stdout.contains("MAC = " + mac), "\(etm.stdout)")
        #expect(etm.stdout.contains("HMAC-SHA1 over seq_num"), "\(etm.stdout)")
        #expect(etm.stdout.contains("ciphertext = " + ciphertext), "\(etm.stdout)")
        #expect(!etm.stdout.contains("only"), "the record is whole: \(etm.stdout)")
        let mte = try CLI.run(["dissect", "--suite", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", input])
        #expect(mte.stdout.contains("block_ciphered") && !mte.stdout.contains("MAC = "), "\(mte.stdout)")
    }

    /// A file of printable bytes that are not hex is binary input that happens to be printable.
    @Test func printableBinaryFileIsReadAsBytes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-dissect-\(UUID()).bin")
        try Data("HELLO THERE\r\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["dissect", file.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("13 bytes, read as"), "\(r.stdout)")
        #expect(r.stderr.contains("is not hex") && r.stderr.contains("reading its 13 bytes as binary"), "\(r.stderr)")
    }

    @Test func badInputIsOneLineAndExitCode2() throws {
        let notHex = try CLI.run(["dissect", "16 03 zz"])
        #expect(notHex.status == 2)
        #expect(notHex.stderr == "tlslab: the argument: not hex: 'z' at line 1, column 7\n")
        let missing = try CLI.run(["dissect", "no/such/file.bin"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file"))
        let badSuite = try CLI.run(["dissect", "--suite", "TLS_BOGUS", "00"])
        #expect(badSuite.status == 2)
        #expect(badSuite.stderr.contains("unknown cipher suite 'TLS_BOGUS'"))
        let badOption = try CLI.run(["dissect", "--as", "bogus", "00"])
        #expect(badOption.status == 2)
    }
}

@Suite("Hex input and hexdump rendering")
struct HexInputTests {
    @Test func acceptedSpellings() throws {
        #expect(try HexInput.parse("16 03 03") == [0x16, 3, 3])
        #expect(try HexInput.parse("16:03:03") == [0x16, 3, 3])
        #expect(try HexInput.parse("0x16, 0x03,0x03") == [0x16, 3, 3])
        #expect(try HexInput.parse("1603 # a comment\n03") == [0x16, 3, 3])
        #expect(try HexInput.parse("ABcd") == [0xab, 0xcd])
        #expect(try HexInput.parse("00 00") == [0, 0])
    }

    @Test func rejections() {
        #expect(throws: HexInput.Failure.oddDigitCount(3)) { try HexInput.parse("160") }
        #expect(throws: HexInput.Failure.empty) { try HexInput.parse("  # nothing\n") }
        #expect(throws: HexInput.Failure.invalidCharacter("g", line: 2, column: 2)) { try HexInput.parse("16\n0g") }
    }

    @Test func wrapKeepsWidthAndIndentation() {
        let renderer = HexdumpRenderer(width: 40)
        let line = "    12    name = " + String(repeating: "abcd ", count: 20)
        let lines = renderer.wrap(line, continuationIndent: 12)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines[0].hasPrefix("    12    name ="))
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 12)) })
        // nothing lost
        #expect(lines.joined(separator: " ").split(separator: " ") == line.split(separator: " "))
    }
}
