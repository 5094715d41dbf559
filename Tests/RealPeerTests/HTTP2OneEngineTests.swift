import Foundation
import HTTP2
@testable import RealPeer
import TLSCrypto
import TLSEngine
import Rendering
import Testing
import Trace
import Trust
import TestSupport

/// `connect` and `serve` run the same ``HTTP2Connection`` as the simulation, so what the
/// simulation could do they can: push, and MAX_CONCURRENT_STREAMS announced, enforced and
/// respected with refused requests sent again — here over real sockets, our engine at both ends.
@Suite("RealPeer: HTTP/2 push and stream limits in connect and serve", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct HTTP2OneEngineTests {
    static func server(pki: TestPKI, _ change: (RealServer) -> Void) throws -> ServerThread {
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let real = RealServer(listener: try TCPListener(port: 0), page: englishPage) {
            var c = TLSServerConfiguration(identity: identity, random: SystemRandom())
            c.applicationProtocols = [.h2, .http11]
            return c
        }
        change(real)
        return ServerThread(real, maxConnections: 1, concurrency: 1, keepTraces: true)
    }

    static func client(port: UInt16, pki: TestPKI) throws -> RealClient {
        let roots = try PeerFiles.certificates(at: pki.path("root.pem"))
        var configuration = TLSClientConfiguration(certificateEvaluator: PeerFiles.chainEvaluator(anchors: roots, storeName: .file("test root")),
                                                   random: SystemRandom(), serverName: "localhost")
        configuration.applicationProtocols = [.h2]
        return RealClient(host: "127.0.0.1", port: port, configuration: configuration,
                          request: "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", timeoutMilliseconds: 5_000)
    }

    static func frames(_ trace: Trace, _ actor: Actor, sent: Bool) -> [HTTP2FrameTrace] {
        trace.events.compactMap { e in
            guard e.actor == actor, case .http2(let h) = e.kind else { return nil }
            switch h {
            case .frameSent(let f) where sent: return f
            case .frameReceived(let f) where !sent: return f
            default: return nil
            }
        }
    }

    static func http(_ trace: Trace, _ actor: Actor) -> [HTTPEvent] {
        trace.events.compactMap { if $0.actor == actor, case .http(let h) = $0.kind { h } else { nil } }
    }

    @Test("push: serve promises /style.css with the page; connect, having enabled push, takes both; without push nothing is promised")
    func push() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki) { $0.http2Push = ["/style.css"] }
        defer { thread.stop() }
        var client = try Self.client(port: thread.port, pki: pki)
        client.acceptsPush = true
        let result = client.run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        #expect(result.response?.contains("TLSLab serve") == true)
        let promises = Self.frames(result.trace, .client, sent: false).compactMap { f -> UInt32? in
            if case .pushPromise(let promised, _) = f.frame.payload { promised } else { nil }
        }
        #expect(promises == [2])
        let responses = Self.http(result.trace, .client).filter { if case .responseReceived = $0 { true } else { false } }
        #expect(responses.count == 2, "the page and the pushed response")
        // GOAWAY names the pushed stream as the last processed — unless serve's close_notify came
        // first (it ends the connection right after its own GOAWAY), and then the trace says so.
        if let goaway = Self.frames(result.trace, .client, sent: true).last(where: { $0.frame.type == .goaway }) {
            #expect(goaway.frame.payload == .goaway(lastStreamID: 2, errorCode: 0, debug: []))
        } else {
            let phases = result.trace.events.compactMap { if case .phase(let p) = $0.kind { Explanations.english.phaseName(p) } else { nil } }
            #expect(phases.contains { $0.contains("not sent:") && $0.contains("GOAWAY") }, "\(phases)")
        }

        let second = try Self.server(pki: pki) { $0.http2Push = ["/style.css"] }
        defer { second.stop() }
        let plain = try Self.client(port: second.port, pki: pki).run()
        #expect(plain.failureText == nil, "\(plain.failureText ?? "")")
        #expect(!Self.frames(plain.trace, .client, sent: false).contains { $0.frame.type == .pushPromise })
    }

    @Test("MAX_CONCURRENT_STREAMS: serve announces 1 and refuses streams beyond it; connect sends those requests again, one at a time, and every one is answered")
    func refusedStreamsAreRetried() throws {
        let pki = try TestPKI.require()
        let thread = try Self.server(pki: pki) { $0.http2MaxConcurrentStreams = 1 }
        defer { thread.stop() }
        var client = try Self.client(port: thread.port, pki: pki)
        client.additionalRequests = ["GET /2 HTTP/1.1\r\nHost: localhost\r\n\r\n", "GET /3 HTTP/1.1\r\nHost: localhost\r\n\r\n"]
        let result = client.run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")")
        let retried = Self.http(result.trace, .client).compactMap { if case .requestRetried(_, let refused) = $0 { refused } else { nil } }
        #expect(retried == [3, 5], "\(retried)")
        #expect(Self.http(result.trace, .client).filter { if case .responseReceived = $0 { true } else { false } }.count == 3)
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failureText == nil, "\(served.failureText ?? "")")
        let sent = Self.frames(served.trace, .server, sent: true)
        if case .settings(let list)? = sent.first?.frame.payload {
            #expect(list.contains { $0.0 == HTTP2Setting.maxConcurrentStreams.rawValue && $0.1 == 1 })
        } else {
            Issue.record("the server's first frame is not SETTINGS")
        }
        let refused = sent.filter { $0.frame.payload == .rstStream(HTTP2ErrorCode.refusedStream.rawValue) }.map(\.streamID)
        #expect(refused == [3, 5])
        #expect(Self.http(served.trace, .server).filter { if case .requestReceived = $0 { true } else { false } }.count == 3)
        #expect(sent.last?.frame.payload == .goaway(lastStreamID: 9, errorCode: 0, debug: []), "GOAWAY once every request, the retried ones too, is answered")
    }

    @Test("the flags: connect --h2-push --h2-request against serve --h2-max-streams 1 --h2-push: a refused request sent again, a pushed response taken")
    func commandLine() throws {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--alpn", "h2,http/1.1", "--h2-max-streams", "1", "--h2-push", "/style.css", "--max-connections", "1"], pki: pki)
        defer { serve.stop() }
        let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem", "--alpn", "h2", "--h2-push",
                                     "--h2-request", "GET /2 HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n", "--format", "json", "--timeout", "5"], in: pki.dir)
        #expect(r.status == 0, "\(r.output.suffix(1500))")
        let objects = r.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let received = objects.filter { $0["event"] as? String == "http2" && $0["action"] as? String == "frame_received" }.compactMap { $0["type"] as? String }
        #expect(received.contains("PUSH_PROMISE") && received.contains("RST_STREAM"), "\(received)")
        let summary = try #require(objects.last { $0["event"] as? String == "summary" })
        #expect(summary["outcome"] as? String == "success" && summary["responses"] as? Int == 3, "two answers and the pushed response: \(summary)")
    }
}
