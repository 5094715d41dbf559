import Foundation
@testable import Rendering
import Simulation
import Testing
import Trace

/// `--lang zh` output of every built-in run holds no English word the catalogue did not put there on
/// purpose: every ASCII word must be a protocol, message, alert, field or suite name, a flag, hex, an RFC
/// reference, a host name or a number — the allow-list below. The only exemption is the text the
/// engines still write themselves (``ChineseLayoutTests/engineText(_:)``), which this test names.
@Suite("Chinese output: ASCII words only from the allow-list")
struct ChineseASCIIWordTests {
    /// Lowercase words that are names in both languages (TCP fields, alert levels, protocol ids, labels).
    static let allowedLowercase: Set<String> = [
        "seq", "ack", "len", "win", "ms", "fatal", "warning", "h2", "h2c", "premaster", "none", "unspecified",
        "proceed", "http", "https", "seed", "x", "y", "p", "g", "n", "e", "r", "s", "k", "d", "q", "z",
        // Formula terms shown as written in the RFCs: PRF(master, …), g^x mod p, peer^x, [sha256], x25519, modp2048.
        "master", "mod", "peer", "sha256", "sha384", "x25519", "secp256r1", "modp2048", "p-1", "nonce",
        // HTTP header names and HTTP/2 terms (RFC 9113): cookie, last-stream-id, prior knowledge.
        "cookie", "last-stream-id", "prior", "knowledge",
        // The runs' cookie value (Cookie: session=42), learned by the eavesdropper.
        "session",
        // The padding extension's name (RFC 7685), ECDSA's verify(Hash1, r, s), RFC 5280 §6.1.4's steps (l)–(m).
        "padding", "verify", "l", "m",
        // TLS record content types as RFC 8446 §5.1 names them (a 1.3 record's inner type).
        "handshake", "alert",
    ]
    /// Capitalised words that are message, record or protocol names (not sentence starts).
    static let allowedCapitalised: Set<String> = [
        "Hash", "Hash1", "Hash2", "Huffman", "Certificate", "Finished", "Alert", "Hello", "Wireshark", "Demo", "Root", "Example", "Real", "Not", "The",
        "HPACK", "GET", "POST", "Host", "Cookie", "Content", "Length", "Type", "Connection", "Date", "Server", "User", "Agent",
        // The hand-written challenge handler's mode names (ChallengeHandlingPolicies.ChallengeMode).
        "None", "Simple", "Full",
        // Apple's feature name, as the ATS lessons' heading writes it.
        "App", "Transport", "Security",
        // The company whose trust evaluation the policy lessons model.
        "Apple",
        // The MAC of ChaCha20-Poly1305 (RFC 8439), an algorithm's name.
        "Poly1305",
    ]

    static func disallowedWords(in line: String) -> [String] {
        // Quoted labels ("key expansion") and distinguished names (CN=…, O=…) are values.
        let text = line.replacing(/"[^"]*"/, with: " ").replacing(/\b(CN|OU|O|C|L|ST)=[^,)）]*/, with: " ")
        var out: [String] = []
        for match in text.matches(of: /[A-Za-z\/:][A-Za-z0-9_\-\/\.:']*/) {
            // A path (/profile) or an HTTP/2 pseudo-header (:path) is a value.
            if match.output.first == "/" || match.output.first == ":" { continue }
            var word = String(match.output).trimmingCharacters(in: CharacterSet(charactersIn: ".:-/'"))
            if word.hasSuffix("'s") { word = String(word.dropLast(2)) }
            guard !word.isEmpty else { continue }
            if word.contains("_") || word.contains(".") || word.contains("/") || word.contains(":") { continue }  // snake_case, suites, hosts, paths
            if word.allSatisfy({ $0.isHexDigit }) { continue }                                          // hex
            if word.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "-" }) { continue }             // TLS, RSA, SHA256, RFC, SYN, P-256
            let uppercase = word.filter(\.isUppercase).count
            if uppercase >= 2 || (uppercase == 1 && !word.first!.isUppercase) { continue }            // ClientHello, keyCertSign, dNSName
            if word.first!.isUppercase, allowedCapitalised.contains(word) { continue }
            if allowedLowercase.contains(word) || word.first!.isNumber { continue }
            out.append(word)
        }
        return out
    }

    @Test(arguments: BuiltInRun.allCases)
    func builtInRunsInChinese(run: BuiltInRun) throws {
        let trace = try ChineseLayoutTests.trace(run)
        let exempt = ChineseLayoutTests.engineText(trace)
        var found: [String: String] = [:]
        for verbosity in [TextRenderer.Verbosity.summary, .normal] {
            var lines = TextRenderer(verbosity: verbosity, width: 100_000, color: false, explanations: .chinese).render(trace)
            lines = lines.map { line in exempt.reduce(line) { $0.replacing($1, with: " ") } }
            for line in lines {
                for word in Self.disallowedWords(in: line) where found[word] == nil { found[word] = line }
            }
        }
        for (word, line) in found.sorted(by: { $0.key < $1.key }) {
            Issue.record("\(run.rawValue): English word \"\(word)\" in: \(line)")
        }
    }

    @Test func theDetectorKeepsNamesAndFindsWords() {
        #expect(Self.disallowedWords(in: "客户端 ──▶ 服务器  TLS ClientHello  seq=1 ack=2 len=0").isEmpty)
        #expect(Self.disallowedWords(in: "TLS_RSA_WITH_AES_128_GCM_SHA256，bad_record_mac，RFC 5246 §7.2.2，ff 0a").isEmpty)
        #expect(Self.disallowedWords(in: "证书：O=TLSLab Demo, CN=example.com，keyCertSign，dNSName") == [])
        #expect(Self.disallowedWords(in: "客户端 trusts the chain") == ["trusts", "the", "chain"])
    }
}
