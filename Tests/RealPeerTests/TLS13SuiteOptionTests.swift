import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Issue #37: `--suite` names TLS 1.3 suites too, for `connect` and `serve`, and restricts the TLS 1.3
/// offer and choice as it does the TLS 1.2 ones; a list of one version's suites with `--tls` set to
/// the other is an option error (RFC 8446 Appendix B.4: a TLS 1.3 suite is not used in TLS 1.2, nor
/// the other way round). Each suite against OpenSSL, the suite read from both sides.
@Suite("RealPeer: --suite with the TLS 1.3 suites", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct TLS13SuiteOptionTests {
    static let all = TLS13CipherSuite.allCases.map(\.name).joined(separator: ":")

    /// Text without its whitespace: a message the parser wrapped reads the same as the catalogue's line.
    static func unwrapped(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }

    @Test("connect --suite X against s_server -tls1_3 -serverpref with all three: X is negotiated, by the client's trace and s_server's page",
          arguments: TLS13CipherSuite.allCases)
    func connectRestrictsTheOffer(_ suite: TLS13CipherSuite) throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-ciphersuites", Self.all, "-serverpref", "-www"], pki: pki)
        defer { server.stop() }
        // The engine's offer: the client's view of what was negotiated.
        var client = try TLS13ConnectInteropTests.client(port: port, pki: pki)
        client.tls13Suites = [suite]
        let result = client.run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.version == .tls13 && result.suite == CipherSuite(rawValue: suite.rawValue), "\(String(describing: result.suite))")
        #expect(result.response?.contains("New, TLSv1.3, Cipher is \(suite.name)") == true, "\(result.response ?? "")")
        // The command line: s_server's page names the suite it chose.
        let r = try TLS13ConnectCommandTests.connect(port, ["--suite", suite.name], pki: pki)
        #expect(r.status == 0, "\(r.output.suffix(1000))")
        #expect(r.output.contains("New, TLSv1.3, Cipher is \(suite.name)"), "\(r.output.suffix(1500))")
    }

    @Test("connect --suite X against s_server -tls1_3 -ciphersuites X (OpenSSL's name is IANA's)", arguments: TLS13CipherSuite.allCases)
    func connectAgainstOneSuite(_ suite: TLS13CipherSuite) throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_3", "-ciphersuites", suite.name, "-www"], pki: pki)
        defer { server.stop() }
        let r = try TLS13ConnectCommandTests.connect(port, ["--suite", suite.name.lowercased()], pki: pki)
        #expect(r.status == 0, "\(r.output.suffix(1000))")
        #expect(r.output.contains("New, TLSv1.3, Cipher is \(suite.name)"), "\(r.output.suffix(1500))")
        // Another 1.3 suite alone: nothing in common (s_server answers handshake_failure).
        let other = TLS13CipherSuite.allCases.first { $0 != suite }!
        let refused = try TLS13ConnectCommandTests.connect(port, ["--suite", other.name], pki: pki)
        #expect(refused.status != 0 && refused.output.contains("handshake_failure"), "\(refused.output.suffix(1500))")
    }

    @Test("serve --suite X: s_client -tls1_3 offering all three gets X, and serve's log line names X; s_client -ciphersuites X alone gets X from the default serve",
          arguments: TLS13CipherSuite.allCases)
    func serveRestrictsTheChoice(_ suite: TLS13CipherSuite) throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--suite", suite.name], pki: pki)
        defer { serve.stop() }
        let out = try TLS13ServeInteropTests.sClient(port, pki: pki, ["-tls1_3", "-ciphersuites", Self.all])
        #expect(out.contains("New, TLSv1.3, Cipher is \(suite.name)"), "\(out)")
        #expect(serve.wait(for: "→ 200"), "\(serve.output)")
        #expect(serve.output.contains("\(suite.name) x25519"), "\(serve.output)")
        // A client without X: no suite in common.
        let others = TLS13CipherSuite.allCases.filter { $0 != suite }.map(\.name).joined(separator: ":")
        let refused = try TLS13ServeInteropTests.sClient(port, pki: pki, ["-tls1_3", "-ciphersuites", others])
        #expect(refused.contains("handshake failure"), "\(refused)")

        let (both, port2) = try startServe([], pki: pki)
        defer { both.stop() }
        let one = try TLS13ServeInteropTests.sClient(port2, pki: pki, ["-tls1_3", "-ciphersuites", suite.name])
        #expect(one.contains("New, TLSv1.3, Cipher is \(suite.name)"), "\(one)")
        #expect(both.wait(for: "→ 200"), "\(both.output)")
        #expect(both.output.contains("\(suite.name) x25519"), "\(both.output)")
    }

    @Test("A list of one version's suites leaves the other version out: serve with only a 1.2 suite answers s_client -tls1_3 with protocol_version, connect with only a 1.3 suite offers 1.3 alone")
    func aListLeavesAVersionOut() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--suite", "ECDHE-RSA-AES128-GCM-SHA256"], pki: pki)
        defer { serve.stop() }
        #expect(try TLS13ServeInteropTests.sClient(port, pki: pki, ["-tls1_3"]).contains("alert protocol version"))
        #expect(try TLS13ServeInteropTests.sClient(port, pki: pki, []).contains("New, TLSv1.2, Cipher is ECDHE-RSA-AES128-GCM-SHA256"))
        let (server, sPort) = try TLS13ConnectInteropTests.sServer(["-tls1_2", "-www"], pki: pki)
        defer { server.stop() }
        let only13 = try TLS13ConnectCommandTests.connect(sPort, ["--suite", "TLS_AES_128_GCM_SHA256"], pki: pki)
        #expect(only13.status != 0 && only13.output.contains("protocol_version"), "\(only13.output.suffix(1500))")
        let only12 = try TLS13ConnectCommandTests.connect(sPort, ["--suite", "ECDHE-RSA-AES128-GCM-SHA256"], pki: pki)
        #expect(only12.status == 0 && only12.output.contains("New, TLSv1.2, Cipher is ECDHE-RSA-AES128-GCM-SHA256"), "\(only12.output.suffix(1500))")
    }

    @Test("--suite of one version with --tls the other: an option error in English and Chinese, for connect and serve")
    func wrongVersionIsAnOptionError() throws {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let dir = FileManager.default.temporaryDirectory
        let cases: [([String], String, String)] = [
            (["connect", "127.0.0.1:9", "--suite", "TLS_AES_128_GCM_SHA256", "--tls", "1.2"],
             "--suite names only TLS 1.3 suites (TLS_AES_128_GCM_SHA256) and --tls 1.2 leaves no version they belong to",
             "--suite 只列出了 TLS 1.3 的密码套件（TLS_AES_128_GCM_SHA256），而 --tls 1.2 不包含它们所属的版本"),
            (["connect", "127.0.0.1:9", "--suite", "ECDHE-RSA-AES128-GCM-SHA256", "--tls", "1.3"],
             "--suite names only TLS 1.2 suites (ECDHE-RSA-AES128-GCM-SHA256) and --tls 1.3 leaves no version they belong to",
             "--suite 只列出了 TLS 1.2 的密码套件（ECDHE-RSA-AES128-GCM-SHA256），而 --tls 1.3 不包含它们所属的版本"),
            (["serve", "--port", "0", "--cert", "c.pem", "--key", "k.pem", "--suite", "TLS_CHACHA20_POLY1305_SHA256", "--tls", "1.2"],
             "--suite names only TLS 1.3 suites (TLS_CHACHA20_POLY1305_SHA256) and --tls 1.2 leaves no version they belong to",
             "--suite 只列出了 TLS 1.3 的密码套件（TLS_CHACHA20_POLY1305_SHA256），而 --tls 1.2 不包含它们所属的版本"),
            (["serve", "--port", "0", "--cert", "c.pem", "--key", "k.pem", "--suite", "AES128-SHA", "--tls", "1.3"],
             "--suite names only TLS 1.2 suites (AES128-SHA) and --tls 1.3 leaves no version they belong to",
             "--suite 只列出了 TLS 1.2 的密码套件（AES128-SHA），而 --tls 1.3 不包含它们所属的版本"),
        ]
        for (arguments, english, chinese) in cases {
            let en = try runTool(tlslab, arguments + ["--lang", "en"], in: dir, timeout: 20)
            // The parser wraps its message: compared without the line breaks and spaces.
            #expect(en.status != 0 && Self.unwrapped(en.output).contains(Self.unwrapped(english))
                    && Self.unwrapped(en.output).contains("RFC8446AppendixB.4"), "\(en.output)")
            let zh = try runTool(tlslab, arguments + ["--lang", "zh"], in: dir, timeout: 20)
            #expect(zh.status != 0 && Self.unwrapped(zh.output).contains(Self.unwrapped(chinese))
                    && Self.unwrapped(zh.output).contains("RFC8446附录B.4"), "\(zh.output)")
        }
        // 0-RTT data is TLS 1.3's: --early-data with only TLS 1.2 suites is refused too.
        let early = try runTool(tlslab, ["connect", "127.0.0.1:9", "--session-in", "t.txt", "--early-data", "r.txt",
                                         "--suite", "ECDHE-RSA-AES128-GCM-SHA256", "--lang", "en"], in: dir, timeout: 20)
        #expect(early.status != 0 && Self.unwrapped(early.output).contains(Self.unwrapped("--early-data needs --suite TLS_AES_128_GCM_SHA256")),
                "\(early.output)")
        // An unknown name still lists what is known, the TLS 1.3 suites among them.
        let unknown = try runTool(tlslab, ["connect", "127.0.0.1:9", "--suite", "TLS_AES_128_CCM_SHA256", "--lang", "en"], in: dir, timeout: 20)
        #expect(unknown.status != 0 && unknown.output.contains("TLS_CHACHA20_POLY1305_SHA256"), "\(unknown.output)")
    }
}
