import HTTP2
@testable import Simulation
import TCPSim
import TLSEngine
import Testing
import Trace
import Trust

/// HTTP/2 in the simulation (mode `h2`): streams on one connection, HPACK across requests, the
/// interleaved responses, server push, GOAWAY, what the eavesdropper can decode.
@Suite("HTTP/2 over TLS and h2c")
struct HTTP2SimulationTests {
    static func hex(_ s: String) -> [UInt8] { Hex.bytes(String(s.filter { !$0.isWhitespace })) ?? [] }

    static func run(_ name: BuiltInRun, seed: UInt64 = 5, _ change: (inout SimulationSetup) -> Void = { _ in }) throws -> Trace {
        var setup = try name.setup(seed: seed)
        change(&setup)
        return Simulation(setup).run()
    }

    static func frames(_ trace: Trace, sentBy actor: Actor) -> [HTTP2FrameTrace] {
        trace.events.compactMap { e in
            if e.actor == actor, case .http2(.frameSent(let f)) = e.kind { return f }
            return nil
        }
    }

    static func received(_ trace: Trace, by actor: Actor) -> [HTTP2FrameTrace] {
        trace.events.compactMap { e in
            if e.actor == actor, case .http2(.frameReceived(let f)) = e.kind { return f }
            return nil
        }
    }

    @Test func threeRequestsOnThreeStreamsOfOneConnection() throws {
        let trace = try Self.run(.h2)
        let st = trace.statistics
        #expect(st.connections == 1 && st.fullHandshakes == 1 && st.requests == 3 && st.responses == 3)
        #expect(trace.summary.outcome == "success")
        let keepAlive = try Self.run(.keepAlive).statistics
        #expect(st.roundTrips == 5 && keepAlive.roundTrips == 7, "h2 \(st.roundTrips), keep-alive \(keepAlive.roundTrips)")
        #expect(try #require(st.lastResponseTime) < (try #require(keepAlive.lastResponseTime)))
        #expect(st.usedHTTP2 && st.http2Streams == 3 && st.pushedResponses == 0)

        let client = Self.frames(trace, sentBy: .client)
        #expect(client.map(\.typeName) == ["SETTINGS", "HEADERS", "HEADERS", "HEADERS", "SETTINGS", "GOAWAY"])
        #expect(client.filter { $0.frame.type == .headers }.map(\.streamID) == [1, 3, 5])
        #expect(client.filter { $0.frame.type == .headers }.allSatisfy { $0.frame.flags.contains([.endStream, .endHeaders]) })
        #expect(client[4].frame.flags.contains(.ack))
        // The server: its SETTINGS, the ACK of the client's, then every HEADERS before any DATA.
        let server = Self.frames(trace, sentBy: .server)
        #expect(server.map(\.typeName) == ["SETTINGS", "SETTINGS", "HEADERS", "HEADERS", "HEADERS", "DATA", "DATA", "DATA"])
        #expect(server.filter { $0.frame.type == .data }.map(\.streamID) == [1, 3, 5])
        #expect(server.filter { $0.frame.type == .data }.allSatisfy { $0.frame.flags.contains(.endStream) })
        // Each side decodes what the other encoded: the same frames and header lists.
        #expect(Self.received(trace, by: .server).map(\.frame) == client.map(\.frame))
        #expect(Self.received(trace, by: .client).map(\.frame) == server.map(\.frame))
        #expect(Self.received(trace, by: .server).compactMap { $0.hpack?.fields } == client.compactMap { $0.hpack?.fields })
    }

    /// Over TLS, HTTP/2 is what ALPN selected (RFC 9113 §3.2): by default the client offers h2 and
    /// http/1.1 and gets h2; a server that only speaks http/1.1 gets no HTTP/2 preface at all.
    @Test func alpnSelectsH2OrThereIsNoHTTP2() throws {
        let trace = try Self.run(.h2)
        #expect(trace.summary.applicationProtocol == .h2)
        // The built-in h2 client speaks only HTTP/2 and offers only h2: a server without h2 has
        // nothing in common with it and ends the handshake with no_application_protocol.
        #expect(try BuiltInRun.h2.setup(seed: 5).client.applicationProtocols == [.h2])
        let old = try Self.run(.h2) { $0.server.applicationProtocols = [.http11] }
        #expect(old.summary.failure?.alert == .noApplicationProtocol && old.summary.failure?.sentBy == .server)
        #expect(!old.statistics.usedHTTP2 && old.statistics.requests == 0)
        // A server that ignores ALPN answers without the extension: no h2, so no HTTP/2 at all.
        let deaf = try Self.run(.h2) { $0.server.applicationProtocols = [] }
        #expect(deaf.summary.outcome == "success" && deaf.summary.applicationProtocol == nil)
        #expect(!deaf.statistics.usedHTTP2 && deaf.statistics.requests == 0)
        #expect(Self.frames(deaf, sentBy: .client).isEmpty && Self.frames(deaf, sentBy: .server).isEmpty)
        #expect(deaf.events.contains { if case .phase(.http2NotSelected) = $0.kind { return true }; return false })
        // h2c has no TLS and no ALPN: prior knowledge.
        #expect(try Self.run(.h2c).summary.applicationProtocol == nil)
    }

    /// RFC 9113 §9.2.2: over TLS 1.2, a suite without an ephemeral key exchange or without an AEAD
    /// cipher is prohibited; the client ends the connection with INADEQUATE_SECURITY after its preface.
    @Test(arguments: [CipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_CBC_SHA256])
    func prohibitedSuitesGetInadequateSecurity(suite: CipherSuite) throws {
        let trace = try Self.run(.h2) { $0.client.cipherSuites = [suite]; $0.server.cipherSuites = [suite] }
        #expect(trace.summary.applicationProtocol == .h2 && trace.summary.outcome == "success")
        let client = Self.frames(trace, sentBy: .client)
        // RFC 9113 §3.4: the preface is followed by SETTINGS, even on the way out.
        #expect(client.map(\.typeName) == ["SETTINGS", "GOAWAY"])
        if case .goaway(_, let code, _) = client.last?.frame.payload { #expect(code == HTTP2ErrorCode.inadequateSecurity.rawValue) }
        else { Issue.record("no GOAWAY: \(client)") }
        #expect(trace.events.contains { if case .http2(.connectionError(.inadequateSecurity, .inadequateSecurity(.prohibitedSuite(suite, _)))) = $0.kind { true } else { false } })
        #expect(trace.statistics.requests == 0)
        // The server read the preface, then the SETTINGS and the GOAWAY.
        #expect(Self.received(trace, by: .server).map(\.typeName) == ["SETTINGS", "GOAWAY"])
        // An allowed suite: DHE with GCM.
        let dhe = try Self.run(.h2) { $0.client.cipherSuites = [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256]; $0.server.cipherSuites = [.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256] }
        #expect(dhe.statistics.requests == 3 && dhe.statistics.responses == 3)
    }

    /// RFC 9113 §9.2: HTTP/2 over TLS must use TLS 1.2 or later; below that the version is the
    /// reason given (before the suite's), still INADEQUATE_SECURITY.
    @Test func tls11GetsInadequateSecurity() throws {
        let suite = CipherSuite.TLS_RSA_WITH_AES_128_CBC_SHA
        let trace = try Self.run(.h2) {
            $0.client.maximumVersion = .tls11; $0.server.maximumVersion = .tls11
            $0.client.minimumVersion = .tls10; $0.server.minimumVersion = .tls10
            $0.client.cipherSuites = [suite]; $0.server.cipherSuites = [suite]
        }
        #expect(trace.summary.version == .tls11 && trace.summary.applicationProtocol == .h2)
        #expect(Self.frames(trace, sentBy: .client).map(\.typeName) == ["SETTINGS", "GOAWAY"])
        let why = trace.events.compactMap { e -> HTTP2Problem? in
            if case .http2(.connectionError(.inadequateSecurity, let why)) = e.kind { return why } else { return nil }
        }
        #expect(why == [.inadequateSecurity(.versionBelowTLS12(.tls11))], "the version is the reason, before the suite")
        #expect(why.first?.wireText.contains("§9.2)") == true)
        #expect(trace.statistics.requests == 0)
    }

    @Test func hpackShrinksTheLaterRequests() throws {
        let st = try Self.run(.h2).statistics
        #expect(st.requestHeaderBlocks.count == 3)
        let first = st.requestHeaderBlocks[0]
        #expect(st.requestHeaderBlocks.dropFirst().allSatisfy { $0 * 3 < first * 2 }, "\(st.requestHeaderBlocks)")
        #expect(st.hpackEncodedBytes * 3 < st.hpackRawBytes)
        let headers = Self.frames(try Self.run(.h2), sentBy: .client).compactMap(\.hpack)
        // The second request: :authority and cookie come from the dynamic table (index > 61).
        let dynamic = headers[1].representations.filter { if case .indexed(let i) = $0 { return i > 61 } else { return false } }
        #expect(dynamic.count == 2)
    }

    @Test func h2cEavesdropperDecodesTheCookieOverTLSNothing() throws {
        let plain = try Self.run(.h2c)
        #expect(plain.summary.usedTLS == false && plain.statistics.responses == 3)
        // The cookie is Huffman-coded on the wire: not there as text…
        let wire = plain.wirePayloads.flatMap { $0 }
        #expect(wire.firstRange(of: Array("session=42".utf8)) == nil)
        // …yet the eavesdropper knows it, by decoding the frames with its own HPACK decoder.
        let k = plain.knowledge
        #expect(k.decodedHTTP2)
        for secret: Secret in [.httpCookie, .httpRequest, .httpResponse] {
            #expect(k.rows.first { $0.secret == secret }?.eavesdropper == true, "\(secret)")
        }
        let tls = try Self.run(.h2).knowledge
        #expect(!tls.decodedHTTP2)
        for secret: Secret in [.httpCookie, .httpRequest, .httpResponse] {
            #expect(tls.rows.first { $0.secret == secret }?.eavesdropper == false, "\(secret)")
        }
        // h2c starts with the preface on the wire, right after TCP's handshake.
        let flow = try #require(plain.recordedFlows.first)
        #expect(flow.clientToServer.starts(with: HTTP2Frame.clientPreface))
        #expect(HTTP2PassiveDecoder.messages(try #require(try Self.run(.h2).recordedFlows.first).clientToServer, clientSide: true) == nil)
    }

    @Test func serverPushOnStreamTwo() throws {
        let trace = try Self.run(.h2) {
            $0.requests = [$0.requests![0]]
            $0.http2Push = ["/style.css"]
        }
        let st = trace.statistics
        #expect(st.requests == 1 && st.responses == 2 && st.pushedResponses == 1 && st.http2Streams == 2)
        let server = Self.frames(trace, sentBy: .server)
        let promise = try #require(server.first { $0.frame.type == .pushPromise })
        guard case .pushPromise(let promised, _) = promise.frame.payload else { Issue.record("no promise"); return }
        #expect(promise.streamID == 1 && promised == 2)
        #expect(promise.hpack?.fields.contains(HPACKHeaderField(":path", "/style.css")) == true)
        // The promise comes before the response on stream 1; the pushed response follows on stream 2.
        let order = server.map { "\($0.typeName)/\($0.streamID)" }
        #expect(order == ["SETTINGS/0", "SETTINGS/0", "PUSH_PROMISE/1", "HEADERS/1", "HEADERS/2", "DATA/1", "DATA/2"], "\(order)")
        // The client's SETTINGS allowed push, and its GOAWAY names the pushed stream.
        let client = Self.frames(trace, sentBy: .client)
        guard case .settings(let list) = client[0].frame.payload, case .goaway(let last, 0, _)? = client.last?.frame.payload else {
            Issue.record("\(client.map(\.typeName))"); return
        }
        #expect(list.contains { $0.0 == HTTP2Setting.enablePush.rawValue && $0.1 == 1 })
        #expect(last == 2)
        // Without push the client says so (SETTINGS_ENABLE_PUSH 0) and no PUSH_PROMISE comes.
        let none = Self.frames(try Self.run(.h2), sentBy: .server)
        #expect(!none.contains { $0.frame.type == .pushPromise })
    }

    @Test func longResponsesInterleaveWithinTheFlowControlWindows() throws {
        let body = String(repeating: "x", count: 40_000)
        let trace = try Self.run(.h2c) {
            $0.httpResponse = "HTTP/1.1 200 OK\r\nContent-Length: 40000\r\n\r\n" + body
        }
        #expect(!trace.events.contains { if case .http2(.connectionError) = $0.kind { true } else { false } })
        let data = Self.frames(trace, sentBy: .server).filter { $0.frame.type == .data }
        // Taken in turn, at most 16384 octets a frame: the first three frames are one per stream.
        #expect(data.prefix(3).map(\.streamID) == [1, 3, 5])
        #expect(data.allSatisfy { $0.length <= HTTP2Frame.defaultMaxFrameSize })
        for stream in [UInt32(1), 3, 5] {
            let frames = data.filter { $0.streamID == stream }
            #expect(frames.reduce(0) { $0 + $1.length } == 40_000)
            #expect(frames.map { $0.frame.flags.contains(.endStream) } == Array(repeating: false, count: frames.count - 1) + [true])
        }
        // 120000 octets do not fit the 65535-octet connection window: the server stops at the
        // window (16384 · 3 + 16383) and goes on only after the client's WINDOW_UPDATE.
        #expect(data.prefix(4).reduce(0) { $0 + $1.length } == HTTP2Defaults.initialWindowSize)
        let updates = Self.frames(trace, sentBy: .client).filter { $0.frame.type == .windowUpdate }
        #expect(!updates.isEmpty && updates.contains { $0.streamID == 0 })
        let given = updates.filter { $0.streamID == 0 }.reduce(0) { total, f in
            if case .windowUpdate(let increment) = f.frame.payload { return total + Int(increment) } else { return total }
        }
        #expect(given + HTTP2Defaults.initialWindowSize >= 120_000, "the connection window grew enough for every byte")
        let received = trace.events.compactMap { e -> String? in
            if e.actor == .client, case .http(.responseReceived(let text)) = e.kind { return text } else { return nil }
        }
        #expect(received.count == 3 && received.allSatisfy { $0.hasSuffix(body) && $0.hasPrefix(":status: 200\r\n") })
        // Small responses need no WINDOW_UPDATE.
        #expect(!Self.frames(try Self.run(.h2c), sentBy: .client).contains { $0.frame.type == .windowUpdate })
    }

    /// RFC 9113 §4.2, §6.10: a header block larger than SETTINGS_MAX_FRAME_SIZE (16384 by default)
    /// goes as HEADERS without END_HEADERS and CONTINUATION frames, END_HEADERS on the last.
    @Test func largeHeaderBlocksAreContinued() throws {
        let big = String(repeating: "x", count: 20_000)
        let trace = try Self.run(.h2c) {
            $0.requests = ["GET /big HTTP/1.1\r\nHost: example.com\r\nX-Big: \(big)\r\n\r\n"]
            $0.httpResponse = "HTTP/1.1 200 OK\r\nX-Back: \(big)\r\nContent-Length: 2\r\n\r\nok"
        }
        #expect(!trace.events.contains { if case .http2(.connectionError) = $0.kind { true } else { false } })
        for actor in [Actor.client, .server] {
            let sent = Self.frames(trace, sentBy: actor).filter { $0.frame.type == .headers || $0.frame.type == .continuation }
            #expect(sent.map(\.typeName) == ["HEADERS", "CONTINUATION"], "\(actor)")
            #expect(sent.allSatisfy { $0.length <= HTTP2Frame.defaultMaxFrameSize })
            #expect(sent.map { $0.frame.flags.contains(.endHeaders) } == [false, true])
            #expect(sent.first?.frame.flags.contains(.endStream) == (actor == .client))
        }
        let requests = trace.events.compactMap { e -> String? in
            if e.actor == .server, case .http(.requestReceived(let text)) = e.kind { return text } else { return nil }
        }
        #expect(requests == [":method: GET\r\n:scheme: http\r\n:authority: example.com\r\n:path: /big\r\nx-big: \(big)\r\n\r\n"])
        let responses = trace.events.compactMap { e -> String? in
            if e.actor == .client, case .http(.responseReceived(let text)) = e.kind { return text } else { return nil }
        }
        #expect(responses.count == 1 && responses.allSatisfy { $0.contains("x-back: \(big)\r\n") && $0.hasSuffix("ok") })
        // A PUSH_PROMISE's block is split the same way (its payload also holds the promised stream ID).
        let pushed = try Self.run(.h2c) { $0.http2Push = ["/" + big] }
        let promise = Self.frames(pushed, sentBy: .server).filter { $0.frame.type == .pushPromise || $0.frame.type == .continuation }
        #expect(promise.map(\.typeName) == ["PUSH_PROMISE", "CONTINUATION"] && promise.allSatisfy { $0.length <= 16_384 })
        #expect(promise.first?.frame.flags.isEmpty == true)
        #expect(pushed.statistics.pushedResponses == 1)
    }

    /// A request body goes in DATA frames after HEADERS without END_STREAM (RFC 9113 §8.1), within
    /// the server's windows; the server reads it and gives the window back with WINDOW_UPDATE.
    @Test func requestBodiesTravelInDataFrames() throws {
        let trace = try Self.run(.h2c) { $0.requests = ["POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"] }
        let client = Self.frames(trace, sentBy: .client).filter { $0.frame.type == .headers || $0.frame.type == .data }
        #expect(client.map(\.typeName) == ["HEADERS", "DATA"])
        #expect(client.map { $0.frame.flags.contains(.endStream) } == [false, true])
        if case .data(let d)? = client.last?.frame.payload { #expect(d == Array("hello".utf8)) }
        let requests = trace.events.compactMap { e -> String? in
            if e.actor == .server, case .http(.requestReceived(let text)) = e.kind { return text } else { return nil }
        }
        #expect(requests == [":method: POST\r\n:scheme: http\r\n:authority: h\r\n:path: /x\r\ncontent-length: 5\r\n\r\nhello"])
        #expect(trace.statistics.responses == 1)

        // 100000 octets: frames of at most 16384, the rest after the server's WINDOW_UPDATE.
        let body = String(repeating: "b", count: 100_000)
        let long = try Self.run(.h2c) { $0.requests = ["PUT /y HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n" + body] }
        #expect(!long.events.contains { if case .http2(.connectionError) = $0.kind { true } else { false } })
        let data = Self.frames(long, sentBy: .client).filter { $0.frame.type == .data }
        #expect(data.allSatisfy { $0.length <= HTTP2Frame.defaultMaxFrameSize } && data.reduce(0) { $0 + $1.length } == 100_000)
        #expect(data.prefix(4).reduce(0) { $0 + $1.length } == HTTP2Defaults.initialWindowSize)
        #expect(Self.frames(long, sentBy: .server).contains { $0.frame.type == .windowUpdate && $0.streamID == 0 })
        let received = long.events.compactMap { e -> String? in
            if e.actor == .server, case .http(.requestReceived(let text)) = e.kind { return text } else { return nil }
        }
        #expect(received.count == 1 && received.allSatisfy { $0.hasSuffix("\r\n\r\n" + body) })
        #expect(long.statistics.responses == 1)
    }

    /// RFC 9113 §8.1.1: a content-length that does not match the DATA is a malformed request,
    /// a stream error PROTOCOL_ERROR (RST_STREAM); the client gets no response and the run ends.
    @Test func contentLengthMismatchResetsTheStream() throws {
        let trace = try Self.run(.h2c) { $0.requests = ["POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\nhello"] }
        let resets = Self.frames(trace, sentBy: .server).filter { $0.frame.type == .rstStream }
        #expect(resets.map(\.streamID) == [1])
        if case .rstStream(let code)? = resets.first?.frame.payload { #expect(code == HTTP2ErrorCode.protocolError.rawValue) }
        #expect(!trace.events.contains { if case .http(.requestReceived) = $0.kind { true } else { false } })
        #expect(trace.statistics.responses == 0)
        #expect(Self.frames(trace, sentBy: .client).last?.typeName == "GOAWAY")
    }

    /// The most streams the client had open at once after it learned the server's limit (a stream
    /// opens with the client's HEADERS, closes with the response's END_STREAM or RST_STREAM).
    static func mostOpenAfterSettings(_ trace: Trace) -> Int {
        var open: Set<UInt32> = [], settings = false, most = 0
        for e in trace.events where e.actor == .client {
            switch e.kind {
            case .http2(.frameReceived(let f)) where f.frame.type == .settings && !f.frame.flags.contains(.ack):
                settings = true
            case .http2(.frameReceived(let f)) where f.streamID % 2 == 1 && (f.frame.type == .rstStream || (f.frame.type == .data || f.frame.type == .headers) && f.frame.flags.contains(.endStream)):
                open.remove(f.streamID)
            case .http2(.frameSent(let f)) where f.frame.type == .headers:
                open.insert(f.streamID)
                if settings { most = max(most, open.count) }
            default:
                break
            }
        }
        return most
    }

    /// RFC 9113 §5.1.2: the client keeps at most SETTINGS_MAX_CONCURRENT_STREAMS streams open and
    /// opens the next when one closes; a stream beyond the limit gets RST_STREAM REFUSED_STREAM,
    /// and the client sends that request again (§8.7: it was not processed).
    @Test func maxConcurrentStreamsIsRespected() throws {
        let requests = (0..<5).map { "GET /\($0) HTTP/1.1\r\nHost: h\r\n\r\n" }
        let trace = try Self.run(.h2c) { $0.requests = requests; $0.http2MaxConcurrentStreams = 2 }
        #expect(!trace.events.contains { if case .http2(.connectionError) = $0.kind { true } else { false } })
        let refused = Self.frames(trace, sentBy: .server).filter {
            if case .rstStream(let code) = $0.frame.payload { return code == HTTP2ErrorCode.refusedStream.rawValue } else { return false }
        }
        // Before the server's SETTINGS the client assumes 100 and opens five; three are refused.
        #expect(refused.map(\.streamID) == [5, 7, 9])
        #expect(Self.mostOpenAfterSettings(trace) == 2)
        let paths = trace.events.compactMap { e -> String? in
            if e.actor == .client, case .http(.responseReceived) = e.kind { return "r" } else { return nil }
        }
        #expect(paths.count == 5 && trace.statistics.responses == 5)
        let received = trace.events.compactMap { e -> String? in
            if e.actor == .server, case .http(.requestReceived(let text)) = e.kind { return text.components(separatedBy: "\r\n")[3] } else { return nil }
        }
        #expect(received.sorted() == (0..<5).map { ":path: /\($0)" })
        #expect(Self.frames(trace, sentBy: .client).last?.typeName == "GOAWAY")
        // The three refused requests go again, each naming the stream refused; they are the same
        // requests, so the run made five, not eight.
        let retried = trace.events.compactMap { e -> UInt32? in
            if e.actor == .client, case .http(.requestRetried(_, let refused)) = e.kind { return refused } else { return nil }
        }
        #expect(retried == [5, 7, 9])
        #expect(trace.statistics.requests == 5)
        #expect(trace.statistics.http2Error == nil)

        // 150 requests against the default 100: never more than 100 open, nothing refused.
        let many = try Self.run(.h2c) { $0.requests = (0..<150).map { "GET /\($0) HTTP/1.1\r\nHost: h\r\n\r\n" } }
        let firstFlight = Self.frames(many, sentBy: .client).prefix { $0.frame.type != .settings || !$0.frame.flags.contains(.ack) }
        #expect(firstFlight.filter { $0.frame.type == .headers }.count == 100)
        #expect(Self.mostOpenAfterSettings(many) <= 100)
        #expect(!Self.frames(many, sentBy: .server).contains { $0.frame.type == .rstStream })
        #expect(many.statistics.responses == 150)
    }

    /// The simulation's server with limits: a header list beyond its SETTINGS_MAX_HEADER_LIST_SIZE
    /// (announced) is answered 431, a body beyond its limit 413 (RFC 6585 §5, RFC 9110 §15.5.14);
    /// the connection goes on and the other request gets its 200.
    @Test func tooLargeRequestsGet431And413() throws {
        let trace = try Self.run(.h2c) {
            $0.requests = ["GET /a HTTP/1.1\r\nHost: h\r\nX-Big: \(String(repeating: "x", count: 500))\r\n\r\n",
                           "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 20\r\n\r\n" + String(repeating: "y", count: 20),
                           "GET /c HTTP/1.1\r\nHost: h\r\n\r\n"]
            $0.http2MaxHeaderListSize = 400
            $0.http2MaxBodySize = 10
        }
        #expect(!trace.events.contains { if case .http2(.connectionError) = $0.kind { true } else { false } })
        let settings = Self.frames(trace, sentBy: .server).first { $0.frame.type == .settings }
        if case .settings(let list)? = settings?.frame.payload {
            #expect(list.contains { $0.0 == HTTP2Setting.maxHeaderListSize.rawValue && $0.1 == 400 })
        } else {
            Issue.record("no SETTINGS from the server")
        }
        let statuses = trace.events.compactMap { e -> String? in
            if e.actor == .client, case .http(.responseReceived(let text)) = e.kind { return text.components(separatedBy: "\r\n")[0] } else { return nil }
        }
        #expect(statuses.sorted() == [":status: 200", ":status: 413", ":status: 431"], "\(statuses)")
        #expect(Self.frames(trace, sentBy: .client).last?.typeName == "GOAWAY")
        // Without limits (the default) nothing is announced and all three are answered 200.
        let plain = try Self.run(.h2c)
        if case .settings(let list)? = Self.frames(plain, sentBy: .server).first?.frame.payload {
            #expect(!list.contains { $0.0 == HTTP2Setting.maxHeaderListSize.rawValue })
        }
    }

    /// A path listed twice is pushed once.
    @Test func duplicatePushPathsArePushedOnce() throws {
        let trace = try Self.run(.h2) { $0.http2Push = ["/style.css", "/app.js", "/style.css"] }
        let promises = Self.frames(trace, sentBy: .server).compactMap { f -> UInt32? in
            if case .pushPromise(let promised, _) = f.frame.payload { return promised } else { return nil }
        }
        #expect(promises == [2, 4])
        #expect(trace.statistics.pushedResponses == 2)
    }

    @Test func sameSeedSameTrace() throws {
        let a = try Self.run(.h2c, seed: 9), b = try Self.run(.h2c, seed: 9)
        #expect(a.wirePayloads == b.wirePayloads)
        #expect(Self.frames(a, sentBy: .client).map(\.frame) == Self.frames(b, sentBy: .client).map(\.frame))
    }

    @Test func requestConversionFollowsRFC9113() {
        let fields = HTTP2Message.requestFields("GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nConnection: keep-alive\r\nCookie: s=1\r\nX-Y: z\r\n\r\n", scheme: "https")
        #expect(fields == [HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https"), HPACKHeaderField(":authority", "example.com"),
                           HPACKHeaderField(":path", "/a?b=1"), HPACKHeaderField("cookie", "s=1"), HPACKHeaderField("x-y", "z")])
        let (response, body) = HTTP2Message.response("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno")
        #expect(response == [HPACKHeaderField(":status", "404"), HPACKHeaderField("content-length", "2")] && body == Array("no".utf8))
    }
}

/// Malformed HTTP/2 input reaching an endpoint is a connection error: traced, answered with GOAWAY
/// carrying the error code, and nothing more is processed — never a crash.
@Suite("HTTP/2 connection errors")
struct HTTP2ConnectionErrorTests {
    /// A run in h2c mode with one client–server connection of plain endpoints (TCP taken as up).
    static func h2cConnection() throws -> (run: Run, leg: Leg, client: Endpoint, server: Endpoint) {
        var setup = try BuiltInRun.h2c.setup(seed: 1)
        setup.connectionMode = .h2
        let run = Run(setup: setup)
        let client = Endpoint(actor: .client, peer: .server, connection: 0, isInitiator: true, engine: .plain)
        let server = Endpoint(actor: .server, peer: .client, connection: 0, isInitiator: false, engine: .plain)
        let leg = Leg(index: 0, initiator: client, responder: server, responderAddress: setup.serverAddress)
        return (run, leg, client, server)
    }

    /// A server endpoint with `bytes` in its inbox, after the h2c "handshake" (TCP is up).
    static func serve(_ bytes: [UInt8]) throws -> (events: [TraceEvent], server: Endpoint) {
        let (run, leg, _, server) = try Self.h2cConnection()
        server.handshake = .completed
        server.inbox = bytes
        run.http2Server(leg)
        return (run.events, server)
    }

    /// An empty SETTINGS frame: the rest of a peer's connection preface (RFC 9113 §3.4).
    static let settings = HTTP2Frame(streamID: 0, payload: .settings([])).encoded

    static func error(_ events: [TraceEvent]) -> (HTTP2ErrorCode, UInt32?)? {
        var code: HTTP2ErrorCode?, goaway: UInt32?
        for e in events {
            if case .http2(.connectionError(let c, _)) = e.kind { code = c }
            if case .http2(.frameSent(let f)) = e.kind, case .goaway(_, let c, _) = f.frame.payload { goaway = c }
        }
        return code.map { ($0, goaway) }
    }

    @Test func notThePreface() throws {
        let (events, server) = try Self.serve(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(Self.error(events)?.0 == .protocolError && Self.error(events)?.1 == HTTP2ErrorCode.protocolError.rawValue)
        #expect(server.h2?.error == .protocolError && server.h2?.started == false)
    }

    @Test func aMalformedFrame() throws {
        // SETTINGS of 5 octets: FRAME_SIZE_ERROR.
        let (events, server) = try Self.serve(HTTP2Frame.clientPreface + HTTP2SimulationTests.hex("000005 04 00 00000000 0003000000"))
        #expect(Self.error(events)?.0 == .frameSizeError && Self.error(events)?.1 == HTTP2ErrorCode.frameSizeError.rawValue)
        #expect(server.h2?.error == .frameSizeError)
        #expect(!events.contains { if case .http(.requestReceived) = $0.kind { true } else { false } })
    }

    @Test func aBadHeaderBlock() throws {
        // HEADERS whose block indexes entry 70 of an empty dynamic table: COMPRESSION_ERROR.
        let (events, _) = try Self.serve(HTTP2Frame.clientPreface + Self.settings + HTTP2SimulationTests.hex("000001 01 05 00000001 c6"))
        #expect(Self.error(events)?.0 == .compressionError && Self.error(events)?.1 == HTTP2ErrorCode.compressionError.rawValue)
        #expect(!events.contains { if case .http(.requestReceived) = $0.kind { true } else { false } })
    }

    @Test func continuationFrames() throws {
        var encoder = HPACKEncoder()
        let (block, _) = encoder.encode(HTTP2Message.requestFields("GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n", scheme: "http"))
        let split = block.count / 2
        let headers = HTTP2Frame(streamID: 1, flags: .endStream, payload: .headers(block: Array(block.prefix(split)), priority: nil))
        let continuation = HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .continuation(Array(block.dropFirst(split))))
        let (events, _) = try Self.serve(HTTP2Frame.clientPreface + Self.settings + headers.encoded + continuation.encoded)
        #expect(Self.error(events) == nil)
        let requests = events.compactMap { e -> String? in
            if case .http(.requestReceived(let text)) = e.kind { return text } else { return nil }
        }
        #expect(requests == [":method: GET\r\n:scheme: http\r\n:authority: example.com\r\n:path: /x\r\n\r\n"])
        // A CONTINUATION with nothing to continue, or another frame inside a header block: PROTOCOL_ERROR.
        let (lone, _) = try Self.serve(HTTP2Frame.clientPreface + Self.settings + continuation.encoded)
        #expect(Self.error(lone)?.0 == .protocolError)
        let ping = HTTP2Frame(streamID: 0, payload: .ping([0, 0, 0, 0, 0, 0, 0, 0]))
        let (inside, _) = try Self.serve(HTTP2Frame.clientPreface + Self.settings + headers.encoded + ping.encoded + continuation.encoded)
        #expect(Self.error(inside)?.0 == .protocolError)
        let (twice, _) = try Self.serve(HTTP2Frame.clientPreface + Self.settings + headers.encoded + headers.encoded + continuation.encoded)
        #expect(Self.error(twice)?.0 == .protocolError)
    }

    @Test func dataBeyondTheWindowIsAFlowControlError() throws {
        let (run, leg, client, _) = try Self.h2cConnection()
        client.handshake = .completed
        leg.requests = ["GET / HTTP/1.1\r\nHost: h\r\n\r\n"]
        run.http2Client(leg)  // the preface, SETTINGS and the request on stream 1
        // The server's SETTINGS, the response's HEADERS, then five full DATA frames on stream 1:
        // 81920 octets against a 65535-octet window.
        var encoder = HPACKEncoder()
        let response = HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .headers(block: encoder.encode([HPACKHeaderField(":status", "200")]).block, priority: nil))
        let frame = HTTP2Frame(streamID: 1, payload: .data([UInt8](repeating: 0x61, count: HTTP2Frame.defaultMaxFrameSize)))
        client.inbox = Self.settings + response.encoded + Array((0..<5).map { _ in frame.encoded }.joined())
        run.http2Client(leg)
        #expect(Self.error(run.events)?.0 == .flowControlError && Self.error(run.events)?.1 == HTTP2ErrorCode.flowControlError.rawValue)
        #expect(client.h2?.error == .flowControlError)
    }

    @Test func aWellFormedRequestIsAnswered() throws {
        var encoder = HPACKEncoder()
        let (block, _) = encoder.encode(HTTP2Message.requestFields("GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n", scheme: "http"))
        let frame = HTTP2Frame(streamID: 1, flags: [.endStream, .endHeaders], payload: .headers(block: block, priority: nil))
        let (events, _) = try Self.serve(HTTP2Frame.clientPreface + HTTP2Frame(streamID: 0, payload: .settings([])).encoded + frame.encoded)
        #expect(Self.error(events) == nil)
        let sent = events.compactMap { e -> String? in
            if case .http2(.frameSent(let f)) = e.kind { return "\(f.typeName)/\(f.streamID)" } else { return nil }
        }
        #expect(sent == ["SETTINGS/0", "SETTINGS/0", "HEADERS/1", "DATA/1"])
    }
}
