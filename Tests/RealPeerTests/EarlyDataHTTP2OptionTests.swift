import Foundation
import Testing
import TestSupport

/// Issue #37: `connect --early-data FILE` sends FILE as an HTTP/1.1 request in 0-RTT data, before the
/// server confirms the application protocol (RFC 8446 §4.2.10); with h2 in `--alpn` the server could
/// select HTTP/2 and read those bytes as a connection that must begin with the preface (RFC 9113
/// §3.4). The combination is refused before connecting, with the reason, in English and Chinese.
@Suite("CLI: connect --early-data with h2 in --alpn is refused")
struct EarlyDataHTTP2OptionTests {
    @Test(arguments: ["h2", "h2,http/1.1", "http/1.1,h2"])
    func refusedWithTheReason(alpn: String) throws {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let dir = FileManager.default.temporaryDirectory
        let arguments = ["connect", "127.0.0.1:9", "--session-in", "missing-ticket.txt", "--early-data", "missing-request.txt", "--alpn", alpn]
        let en = try runTool(tlslab, arguments + ["--lang", "en"], in: dir, timeout: 20)
        #expect(en.status != 0, "\(en.output)")
        // The parser wraps its message: compared without the line breaks and spaces.
        #expect(unwrapped(en.output).contains(unwrapped("with h2 in --alpn the server may select HTTP/2")) && unwrapped(en.output).contains("RFC9113§3.4"), "\(en.output)")
        let zh = try runTool(tlslab, arguments + ["--lang", "zh"], in: dir, timeout: 20)
        #expect(zh.status != 0 && unwrapped(zh.output).contains(unwrapped("--alpn 中有 h2 时，服务器可能选 HTTP/2")), "\(zh.output)")
    }

    /// Without h2 the same command gets past the option check (and fails later, on the missing file).
    @Test func http11AloneIsAccepted() throws {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let dir = FileManager.default.temporaryDirectory
        let r = try runTool(tlslab, ["connect", "127.0.0.1:9", "--session-in", "missing-ticket.txt", "--early-data", "missing-request.txt",
                                     "--alpn", "http/1.1", "--lang", "en"], in: dir, timeout: 20)
        #expect(r.status != 0 && !unwrapped(r.output).contains(unwrapped("--alpn the server may select HTTP/2")) && r.output.contains("missing-request.txt"), "\(r.output)")
    }

    /// Text without its whitespace: a message the parser wrapped reads the same as the catalogue's line.
    func unwrapped(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }
}
