import Foundation
import HTTP2
import PKI
import RealPeer
import Simulation
import TLSCrypto
import TLSEngine
import Testing
import Trace
import Trust
import TestSupport

/// ALPN (RFC 7301) against OpenSSL 3: our client against `s_server -alpn`, our server against
/// `s_client -alpn`, OpenSSL's ClientHello bytes through our codec, and what each does without overlap.
@Suite("RealPeer: ALPN against openssl s_server -alpn and s_client -alpn", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ALPNInteropTests {
    static func client(port: UInt16, pki: TestPKI, offer: [ProtocolName]) throws -> RealClient {
        var client = try ClientRoleTests.client(port: port, pki: pki)
        client.configuration.applicationProtocols = offer
        return client
    }

    static func alerts(_ trace: Trace) -> (sent: [Alert], received: [Alert]) {
        var sent: [Alert] = [], received: [Alert] = []
        for case .tls(let e) in trace.events.map(\.kind) {
            if case .alertSent(let a, _) = e { sent.append(a) }
            if case .alertReceived(let a) = e { received.append(a) }
        }
        return (sent, received)
    }

    @Test("our client against s_server -alpn h2,http/1.1: h2 by the server's preference, whatever our order (then no HTTP/2 answer: s_server -www speaks HTTP/1.x); http/1.1 alone gets the page")
    func clientAgainstSServer() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-alpn", "h2,http/1.1", "-www"], pki: pki)
        defer { server.stop() }
        for offer: [ProtocolName] in [[.h2, .http11], [.http11, .h2]] {
            var client = try Self.client(port: port, pki: pki, offer: offer)
            client.timeoutMilliseconds = 1_500
            let result = client.run()
            #expect(result.applicationProtocol == .h2, "\(offer)")
            #expect(result.trace.summary.applicationProtocol == .h2)
            // With h2 chosen the client speaks HTTP/2 (RFC 7301 §3.2): its preface goes out, and
            // s_server, which only negotiated h2, never sends the SETTINGS that must come back.
            #expect(result.trace.events.contains { if case .http2(.prefaceSent) = $0.kind { true } else { false } })
            #expect(result.failureText?.contains("no complete HTTP/2 response") == true, "\(offer): \(result.failureText ?? "")")
        }
        let http = try Self.client(port: port, pki: pki, offer: [.http11]).run()
        #expect(http.failureText == nil, "\(http.failureText ?? "")")
        #expect(http.applicationProtocol == .http11)
        #expect(http.response?.hasPrefix("HTTP/1.0 200 ok") == true, "\(http.response ?? "no response")")
    }

    /// OpenSSL 3.0's s_server answers a ClientHello whose ALPN list has nothing in common with
    /// `-alpn` with the fatal alert 120 (measured: "tls_handle_alpn:no application protocol"), as
    /// RFC 7301 §3.2 says — it does not just leave ALPN out.
    @Test("no overlap with s_server -alpn: it sends no_application_protocol (120); our client reports it")
    func noOverlapFromSServer() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-alpn", "h2,http/1.1", "-www"], pki: pki)
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki, offer: ["h3", "spdy/3"]).run()
        #expect(result.failureText == "the server sent a fatal alert: no_application_protocol", "\(result.failureText ?? "succeeded")")
        #expect(Self.alerts(result.trace).received == [.fatal(.noApplicationProtocol)])
        #expect(Self.alerts(result.trace).sent.isEmpty, "a received fatal alert is not answered")
        #expect(result.applicationProtocol == nil)
        #expect(server.wait(for: "no application protocol", seconds: 3), "\(server.output)")
    }

    @Test("s_server without -alpn ignores our offer: no ALPN, and the request is answered")
    func sServerWithoutALPN() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki, offer: [.h2, .http11]).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.applicationProtocol == nil)
        #expect(result.response?.hasPrefix("HTTP/1.0 200 ok") == true)
    }

    @Test("tlslab connect --alpn h2,http/1.1 against s_server -alpn: h2 in the trace, then no HTTP/2 answer (exit 1); --alpn with an empty name is refused")
    func connectCommand() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let (server, port) = try startSServer(["-cert", "leaf.pem", "-cert_chain", "root.pem", "-key", "leaf.key",
                                               "-alpn", "h2,http/1.1", "-www"], pki: pki)
        defer { server.stop() }
        let base = ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--timeout", "5"]
        let text = try runTool(tlslab, base.dropLast(2) + ["--timeout", "2", "--alpn", "h2,http/1.1"], in: pki.dir, environment: ["NO_COLOR": "1"])
        // h2 chosen, the preface sent, and no HTTP/2 answer from s_server -www: exit 1, said plainly.
        #expect(text.status == 1, "\(text.output.suffix(1500))")
        #expect(text.output.contains("no complete HTTP/2 response"), "\(text.output.suffix(1500))")
        #expect(text.output.contains("ALPN offers: h2, http/1.1"), "\(text.output.suffix(3000))")
        #expect(text.output.contains("ALPN chose: h2"))
        #expect(text.output.contains("application protocol h2 (ALPN)"))
        let json = try runTool(tlslab, base + ["--alpn", "http/1.1", "--format", "json"], in: pki.dir)
        #expect(json.status == 0, "\(json.output.suffix(1500))")
        #expect(json.output.contains(#""event":"summary""#) && json.output.contains(#""alpn":"http/1.1""#), "\(json.output.suffix(1500))")
        let bad = try runTool(tlslab, base + ["--alpn", "h2,,http/1.1"], in: pki.dir)
        #expect(bad.status != 0 && bad.output.contains("--alpn"), "\(bad.output)")
    }

    static func sClient(_ port: UInt16, pki: TestPKI, _ extra: [String]) throws -> (status: Int32, output: String) {
        try ServerRoleTests.sClient(port, pki: pki, extra)
    }

    @Test("tlslab serve --alpn h2,http/1.1 against s_client -alpn: ALPN protocol: h2 (then HTTP/1.0 text instead of the HTTP/2 preface: GOAWAY PROTOCOL_ERROR), http/1.1 gets the page, h3 gets alert 120")
    func serveCommand() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1", "--max-connections", "4"], pki: pki)
        defer { serve.stop() }

        let h2 = try Self.sClient(port, pki: pki, ["-alpn", "h2,http/1.1", "-msg"])
        #expect(h2.output.contains("ALPN protocol: h2"), "\(h2.output.suffix(2000))")
        #expect(h2.output.contains("Verify return code: 0 (ok)"))
        #expect(!h2.output.contains("TLSLab serve: this connection"), "no HTTP/1.1 page on an h2 connection")
        // OpenSSL's ClientHello through our codec: the ALPN bytes are the known answer.
        let ch = try #require(SClientMessages.first("ClientHello", direction: ">>>", in: h2.output), "\(h2.output.prefix(2000))")
        guard case .clientHello(let hello) = try HandshakeMessage(decoding: ch, context: HandshakeDecodingContext()) else {
            Issue.record("not a ClientHello"); return
        }
        #expect(hello.extensions?.applicationProtocols == [.h2, .http11])
        #expect(hello.extensions?.first(ofType: .applicationLayerProtocolNegotiation)?.encoded
                == [0x00, 0x10, 0x00, 0x0e, 0x00, 0x0c, 0x02, 0x68, 0x32, 0x08, 0x68, 0x74, 0x74, 0x70, 0x2f, 0x31, 0x2e, 0x31])
        // Our ServerHello as OpenSSL received it: one name.
        let sh = try #require(SClientMessages.first("ServerHello", in: h2.output))
        guard case .serverHello(let serverHello) = try HandshakeMessage(decoding: sh, context: HandshakeDecodingContext()) else {
            Issue.record("not a ServerHello"); return
        }
        #expect(serverHello.extensions?.applicationProtocols == [.h2])
        // s_client then writes "GET / HTTP/1.0" where HTTP/2 expects its preface (RFC 9113 §3.4).
        #expect(serve.wait(for: "HTTP/2 connection error PROTOCOL_ERROR: the connection did not start with the HTTP/2 client preface", seconds: 3),
                "\(serve.output)")

        let http = try Self.sClient(port, pki: pki, ["-alpn", "http/1.1"])
        #expect(http.output.contains("ALPN protocol: http/1.1"), "\(http.output.suffix(2000))")
        #expect(http.output.contains("application protocol (ALPN): http/1.1"), "our page: \(http.output.suffix(1500))")
        #expect(serve.wait(for: "ALPN http/1.1", seconds: 3), "the log line: \(serve.output)")

        let none = try Self.sClient(port, pki: pki, ["-alpn", "h3"])
        #expect(none.output.contains("no application protocol") && none.output.contains("SSL alert number 120"), "\(none.output.suffix(2000))")
        #expect(serve.wait(for: "sent alert no_application_protocol", seconds: 3), "\(serve.output)")

        // A client without ALPN is served as before.
        let plain = try Self.sClient(port, pki: pki, [])
        #expect(plain.output.contains("No ALPN negotiated"), "\(plain.output.suffix(2000))")
        #expect(plain.output.contains("TLSLab serve: this connection") && !plain.output.contains("application protocol (ALPN)"))
    }
}
