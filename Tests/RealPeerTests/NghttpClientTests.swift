import Foundation
import HTTP2
import RealPeer
import Rendering
import TLSEngine
import Testing
import Trace
import TestSupport

/// Issue #37: nghttp2's client `nghttp` (an HTTP/2 implementation of its own, over OpenSSL) against
/// our server with ALPN h2 over TLS 1.3: the response arrives, and our trace and log say HTTP/2.
@Suite("RealPeer: nghttp against our server over TLS 1.3", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct NghttpClientTests {
    @Test("nghttp -v: ALPN h2 in EncryptedExtensions, the page in a DATA frame after :status 200; our trace has its preface and our frames")
    func h2OverTLS13() throws {
        let pki = try TestPKI.require()
        let nghttp = try Tools.need(Tools.find("nghttp"), "nghttp is not on the PATH (Debian: nghttp2-client)")
        var o = TLS13ServeInteropTests.Options()
        o.alpn = [.h2, .http11]
        let thread = try TLS13ServeInteropTests.server(pki: pki, o)
        defer { thread.stop() }
        let r = try runTool(nghttp, ["-v", "https://127.0.0.1:\(thread.port)/nghttp?x=1"], in: pki.dir, timeout: 20)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("The negotiated protocol: h2"), "\(r.output)")
        #expect(r.output.contains(":status: 200"), "\(r.output)")
        #expect(r.output.contains("version: TLS 1.3") && r.output.contains("application protocol (ALPN): h2"), "our page: \(r.output)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failure == nil, "\(served.failureText ?? "")")
        #expect(served.facts.version == .tls13 && served.facts.applicationProtocol == .h2)
        #expect(served.trace.events.contains { if case .http2(.prefaceReceived) = $0.kind { true } else { false } })
        let sent = served.trace.events.compactMap { e -> String? in
            if case .http2(.frameSent(let f)) = e.kind { return f.typeName } else { return nil }
        }
        #expect(sent.contains("HEADERS") && sent.contains("DATA"), "\(sent)")
        #expect(served.responseStatuses == ["200"])
        let line = Explanations.english.serveLogLine(served.logEntry)
        #expect(line.contains("TLS 1.3") && line.contains("\"GET /nghttp?x=1 HTTP/2\" → 200"), "\(line)")
    }
}
