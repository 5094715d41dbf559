import Foundation
import Testing

/// Issue #34: a malformed certificate or key file is explained from the parser's typed facts (which
/// field, which ASN.1 type, which rule), in the command line's language: under `--lang zh` no English
/// sentence of the DER or key parser is left inside the Chinese one.
@Suite("Malformed certificate and key files, worded in English and in Chinese")
struct MalformedPKIFileTests {
    static func pem(_ label: String, _ der: [UInt8]) -> String {
        "-----BEGIN \(label)-----\n\(Data(der).base64EncodedString())\n-----END \(label)-----\n"
    }

    /// (file name, contents, arguments with FILE, the English detail, the Chinese detail).
    static var cases: [(String, String?, [UInt8], (String) -> [String], String, String)] { [
        // DER that ends inside its first element (X.690 §8.1).
        ("truncated.der", nil, [0x30, 0x03, 0x02, 0x01], { ["pin", $0] },
         "the DER ends inside an element (X.690 §8.1)", "DER 编码在某个元素中间就结束了（X.690 §8.1）"),
        // A CERTIFICATE block whose SEQUENCE holds one INTEGER: not the three elements of RFC 5280 §4.1.
        ("short.pem", pem("CERTIFICATE", [0x30, 0x03, 0x02, 0x01, 0x05]), [], { ["pin", $0] },
         "certificate 1 of the file: Certificate has another number of elements than its definition",
         "文件中的第 1 张证书：Certificate 的元素个数与其定义不符"),
        // Three elements, but the signatureAlgorithm SEQUENCE is empty (RFC 5280 §4.1.1.2: it names an algorithm).
        ("algorithm.der", nil, [0x30, 0x09, 0x02, 0x01, 0x01, 0x30, 0x00, 0x03, 0x02, 0x00, 0x00], { ["pin", $0] },
         "AlgorithmIdentifier is empty where its definition requires at least one element", "AlgorithmIdentifier 为空，而其定义要求至少有一个元素"),
        ("public.pem", pem("PUBLIC KEY", [0x30, 0x00]), [], { ["pin", $0] },
         "its PEM blocks are PUBLIC KEY, none of them CERTIFICATE", "其中的 PEM 块是 PUBLIC KEY，没有一个是 CERTIFICATE"),
        ("key.pem", pem("PRIVATE KEY", [0x30, 0x03, 0x02, 0x01, 0x00]), [], { ["serve", "--port", "0", "--cert", PeerCommandTests.file("server.cert.pem"), "--key", $0] },
         "its PRIVATE KEY block holds no RSA, EC or Ed25519 private key TLSLab can read",
         "它的 PRIVATE KEY 块中没有 TLSLab 能读取的 RSA、EC 或 Ed25519 私钥"),
        ("encrypted.pem", pem("ENCRYPTED PRIVATE KEY", [0x30, 0x00]), [], { ["serve", "--port", "0", "--cert", PeerCommandTests.file("server.cert.pem"), "--key", $0] },
         "it is an ENCRYPTED PRIVATE KEY (RFC 5958 §3)", "它是 ENCRYPTED PRIVATE KEY（RFC 5958 §3）"),
        ("certificate-as-key.pem", pem("CERTIFICATE", [0x30, 0x00]), [], { ["serve", "--port", "0", "--cert", PeerCommandTests.file("server.cert.pem"), "--key", $0] },
         "its PEM blocks are CERTIFICATE, none of them PRIVATE KEY", "其中的 PEM 块是 CERTIFICATE，没有一个是 PRIVATE KEY"),
        ("text.pem", "just some words\n", [], { ["serve", "--port", "0", "--cert", PeerCommandTests.file("server.cert.pem"), "--key", $0] },
         "it has no PEM block", "其中没有 PEM 块"),
    ] }

    @Test func theParsersFactsAreWordedInTheChosenLanguage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-malformed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, text, bytes, arguments, english, chinese) in Self.cases {
            let path = directory + "/" + name
            try (text.map { Data($0.utf8) } ?? Data(bytes)).write(to: URL(fileURLWithPath: path))
            let en = try CLI.run(arguments(path))
            #expect(en.status == 2, "\(name): \(en.status) \(en.stderr)")
            #expect(en.stderr.contains(english), "\(name): \(en.stderr)")
            let zh = try CLI.run(["--lang", "zh"] + arguments(path))
            #expect(zh.status == 2, "\(name): \(zh.status) \(zh.stderr)")
            #expect(zh.stderr.contains(chinese), "\(name): \(zh.stderr)")
            #expect(ChineseCLITests.englishSentences(in: zh.stderr).isEmpty, "\(name): English left in \(zh.stderr)")
        }
    }
}
