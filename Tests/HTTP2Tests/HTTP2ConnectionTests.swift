import HTTP2
import Testing

/// Helpers: frames out of bytes, requests as frames, a client and a server joined by hand.
enum H2 {
    static func frames(_ bytes: [UInt8]) throws -> [HTTP2Frame] {
        var rest = bytes[...], out: [HTTP2Frame] = []
        while let (frame, used) = try HTTP2Frame.decode(rest) { out.append(frame); rest = rest.dropFirst(used) }
        return out
    }

    static let settings = HTTP2Frame(streamID: 0, payload: .settings([])).encoded

    static func fields(_ path: String, method: String = "GET") -> [HPACKHeaderField] {
        [HPACKHeaderField(":method", method), HPACKHeaderField(":scheme", "https"), HPACKHeaderField(":authority", "h"), HPACKHeaderField(":path", path)]
    }

    static func request(_ path: String, stream: UInt32 = 1, encoder: inout HPACKEncoder, endStream: Bool = true) -> [UInt8] {
        let block = encoder.encode(fields(path)).block
        return HTTP2Frame(streamID: stream, flags: endStream ? [.endHeaders, .endStream] : .endHeaders, payload: .headers(block: block, priority: nil)).encoded
    }

    static func request(_ path: String, stream: UInt32 = 1) -> [UInt8] {
        var encoder = HPACKEncoder()
        return request(path, stream: stream, encoder: &encoder)
    }

    /// A server answering ":status 200" and "ok", as `tlslab serve` ends: GOAWAY once everything is answered.
    static func server(_ change: (inout HTTP2Connection.Configuration) -> Void = { _ in }) -> HTTP2Connection {
        var c = HTTP2Connection.Configuration()
        c.goAwayWhenAnswered = true
        c.respond = { _, _ in ([HPACKHeaderField(":status", "200")], Array("ok".utf8)) }
        change(&c)
        return HTTP2Connection(server: c)
    }

    /// Passes bytes both ways, `split` at a time, until the client's exchange is complete.
    static func pump(_ client: inout HTTP2Connection, _ server: inout HTTP2Connection, split: Int = 1 << 20,
                     client clientOut: inout HTTP2Connection.Output, server serverOut: inout HTTP2Connection.Output) {
        var toServer = client.start().bytes, toClient: [UInt8] = []
        var rounds = 0
        while !client.isExchangeComplete, rounds < 100_000 {
            rounds += 1
            let a = Array(toServer.prefix(split)); toServer.removeFirst(a.count)
            let s = server.receive(a)
            serverOut.actions += s.actions
            toClient += s.bytes
            let b = Array(toClient.prefix(split)); toClient.removeFirst(b.count)
            let c = client.receive(b)
            clientOut.actions += c.actions
            toServer += c.bytes
        }
    }
}

/// The server end alone: what it answers, what it refuses, and the errors it names (RFC 9113).
@Suite("HTTP/2 connection: server")
struct HTTP2ConnectionServerTests {
    @Test func answersOneRequestByteByByte() throws {
        var s = H2.server()
        var out: [UInt8] = [], requests: [HTTP2Connection.Message] = []
        for byte in HTTP2Frame.clientPreface + H2.settings + H2.request("/x") {
            let o = s.receive([byte])
            out += o.bytes
            requests += o.messages.filter { if case .requestReceived = $0 { true } else { false } }
        }
        guard case .requestReceived(let text)? = requests.first, requests.count == 1 else { Issue.record("\(requests)"); return }
        #expect(text.contains(":path: /x"))
        let frames = try H2.frames(out)
        #expect(frames.map(\.typeName) == ["SETTINGS", "SETTINGS", "HEADERS", "DATA", "GOAWAY"])
        #expect(frames.last?.payload == .goaway(lastStreamID: 1, errorCode: 0, debug: []))
        #expect(s.isClosed && s.error == nil)
    }

    @Test func protocolErrors() throws {
        func code(_ input: [UInt8]) throws -> UInt32? {
            var s = H2.server()
            let frames = try H2.frames(s.receive(input).bytes)
            guard case .goaway(_, let code, _)? = frames.last?.payload else { return nil }
            return code
        }
        let protocolError = HTTP2ErrorCode.protocolError.rawValue
        #expect(try code(Array("GET / HTTP/1.1\r\n\r\n".utf8)) == protocolError, "no preface")
        var http1 = H2.server()
        let noPreface = try H2.frames(http1.receive(Array("GET / HTTP/1.1\r\n\r\n".utf8)).bytes)
        #expect(noPreface.map(\.typeName) == ["SETTINGS", "GOAWAY"], "SETTINGS is still the server's first frame (§3.4)")
        #expect(try code(HTTP2Frame.clientPreface + H2.request("/")) == protocolError, "HEADERS before SETTINGS")
        #expect(try code(HTTP2Frame.clientPreface + H2.settings + H2.request("/", stream: 2)) == protocolError, "an even stream")
        #expect(try code(HTTP2Frame.clientPreface + H2.settings + H2.request("/", stream: 3) + H2.request("/", stream: 1)) == protocolError,
                "a new stream below one already opened")
        let broken = HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(block: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff], priority: nil)).encoded
        #expect(try code(HTTP2Frame.clientPreface + H2.settings + broken) == HTTP2ErrorCode.compressionError.rawValue)
        let data = HTTP2Frame(streamID: 3, flags: .endStream, payload: .data([1])).encoded
        #expect(try code(HTTP2Frame.clientPreface + H2.settings + data) == HTTP2ErrorCode.streamClosed.rawValue)
        let push = HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .pushPromise(promisedStreamID: 2, block: [0x82])).encoded
        #expect(try code(HTTP2Frame.clientPreface + H2.settings + H2.request("/", stream: 1) + push) == protocolError, "PUSH_PROMISE from a client")
        var tight = H2.server()
        #expect(tight.receive(HTTP2Frame.clientPreface + H2.settings + HTTP2Frame(streamID: 0, payload: .windowUpdate(0x7fff_ffff)).encoded)
            .events.contains { if case .connectionError(.flowControlError, _) = $0 { true } else { false } })
        var secure = H2.server { $0.inadequateSecurity = .prohibitedSuite(.TLS_RSA_WITH_AES_128_GCM_SHA256, forwardSecret: false) }
        let refused = try H2.frames(secure.receive(HTTP2Frame.clientPreface).bytes)
        #expect(refused.map(\.typeName) == ["SETTINGS", "GOAWAY"])
        #expect(secure.error == .inadequateSecurity && secure.isClosed)
    }

    /// Requests that arrive together are all answered before GOAWAY names the last one.
    @Test func answersEveryRequestOfTheFlight() throws {
        var s = H2.server()
        var encoder = HPACKEncoder()
        let out = s.receive(HTTP2Frame.clientPreface + H2.settings + H2.request("/a", stream: 1, encoder: &encoder) + H2.request("/b", stream: 3, encoder: &encoder))
        #expect(out.messages.filter { if case .requestReceived = $0 { true } else { false } }.count == 2)
        #expect(try H2.frames(out.bytes).last?.payload == .goaway(lastStreamID: 3, errorCode: 0, debug: []))
        #expect(out.actions.filter { if case .write = $0 { true } else { false } }.count == 1, "one write for the whole answer")
    }

    /// Malformed requests (RFC 9113 §8.1.1, §8.2.1, §8.3.1) are reset with PROTOCOL_ERROR on their stream.
    @Test func malformedRequestsAreReset() throws {
        let good = [HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https"), HPACKHeaderField(":path", "/")]
        #expect(HTTP2Message.malformedRequest(good, body: []) == nil)
        #expect(HTTP2Message.malformedRequest(Array(good.dropLast()), body: []) == .missingPseudoHeader(":path"))
        #expect(HTTP2Message.malformedRequest(good + [HPACKHeaderField("Foo", "1")], body: []) == .uppercaseFieldName("Foo"))
        #expect(HTTP2Message.malformedRequest(good + [HPACKHeaderField("content-length", "5")], body: [1, 2, 3]) == .contentLengthMismatch(declared: 5, body: 3))
        #expect(HTTP2Message.malformedRequest([HPACKHeaderField("a", "1")] + good, body: []) == .pseudoHeaderAfterRegular(":method"))
        #expect(HTTP2Message.malformedRequest(good + [HPACKHeaderField("connection", "close")], body: []) == .connectionSpecificField("connection"))
        var s = H2.server()
        var encoder = HPACKEncoder()
        let block = encoder.encode([HPACKHeaderField(":method", "GET"), HPACKHeaderField(":scheme", "https")]).block
        let out = s.receive(HTTP2Frame.clientPreface + H2.settings
                            + HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(block: block, priority: nil)).encoded)
        let frames = try H2.frames(out.bytes)
        #expect(frames.contains { $0.streamID == 1 && $0.payload == .rstStream(HTTP2ErrorCode.protocolError.rawValue) }, "\(frames.map(\.typeName))")
        #expect(out.events.contains { if case .streamError(1, .protocolError, _) = $0 { true } else { false } })
        #expect(!out.messages.contains { if case .requestReceived = $0 { true } else { false } }, "a malformed request is not processed")
        #expect(frames.last?.typeName == "GOAWAY")
    }

    /// A body larger than the client's window waits for its WINDOW_UPDATE.
    @Test func respectsTheClientsWindow() throws {
        var s = H2.server { $0.respond = { _, _ in ([HPACKHeaderField(":status", "200")], [UInt8](repeating: 7, count: 100)) } }
        let small = HTTP2Frame(streamID: 0, payload: .settings([(HTTP2Setting.initialWindowSize.rawValue, UInt32(40))])).encoded
        let first = try H2.frames(s.receive(HTTP2Frame.clientPreface + small + H2.request("/")).bytes)
        let sentData = first.compactMap { f -> Int? in if case .data(let d) = f.payload { d.count } else { nil } }
        #expect(sentData == [40], "\(first.map(\.typeName))")
        #expect(!s.isClosed)
        let more = try H2.frames(s.receive(HTTP2Frame(streamID: 1, payload: .windowUpdate(100)).encoded).bytes)
        #expect(more.compactMap { f -> Int? in if case .data(let d) = f.payload { d.count } else { nil } } == [60])
        #expect(more.last?.typeName == "GOAWAY" && s.isClosed)
    }

    /// A server ending the connection itself (an idle timeout): GOAWAY NO_ERROR naming the last
    /// request processed; before the client's preface its SETTINGS still goes first; then nothing is read.
    @Test func goAwayFromTheServer() throws {
        var idle = H2.server()
        #expect(try H2.frames(idle.goAway().bytes).map(\.typeName) == ["SETTINGS", "GOAWAY"])
        #expect(idle.isClosed && idle.receive(HTTP2Frame.clientPreface + H2.settings).actions.isEmpty)
        var s = H2.server { $0.goAwayWhenAnswered = false }
        _ = s.receive(HTTP2Frame.clientPreface + H2.settings + H2.request("/"))
        #expect(try H2.frames(s.goAway().bytes).map(\.payload) == [.goaway(lastStreamID: 1, errorCode: 0, debug: [])])
        #expect(s.isClosed && s.goAway().actions.isEmpty)
    }

    /// RFC 9113 §5.1.2, §8.7: SETTINGS_MAX_CONCURRENT_STREAMS is announced, and a stream beyond it
    /// is refused with RST_STREAM REFUSED_STREAM (not processed); the others are answered.
    @Test func maxConcurrentStreamsIsEnforced() throws {
        var s = H2.server { $0.maxConcurrentStreams = 1; $0.goAwayWhenAnswered = false }
        #expect(s.settings.contains { $0.0 == HTTP2Setting.maxConcurrentStreams.rawValue && $0.1 == 1 })
        var encoder = HPACKEncoder()
        let out = s.receive(HTTP2Frame.clientPreface + H2.settings + H2.request("/a", stream: 1, encoder: &encoder) + H2.request("/b", stream: 3, encoder: &encoder))
        let frames = try H2.frames(out.bytes)
        #expect(frames.contains { $0.streamID == 3 && $0.payload == .rstStream(HTTP2ErrorCode.refusedStream.rawValue) }, "\(frames.map(\.typeName))")
        #expect(frames.contains { $0.streamID == 1 && $0.type == .headers })
        #expect(out.messages.filter { if case .requestReceived = $0 { true } else { false } }.count == 1)
        // Stream 1 is closed now (its response ended): a new stream fits again.
        let again = try H2.frames(s.receive(H2.request("/b", stream: 5, encoder: &encoder)).bytes)
        #expect(again.contains { $0.streamID == 5 && $0.type == .headers } && !again.contains { $0.type == .rstStream })
    }

    /// 431 for a header list beyond SETTINGS_MAX_HEADER_LIST_SIZE (announced), 413 for a body
    /// beyond the limit; the connection goes on.
    @Test func tooLargeRequestsAreAnsweredWithAStatus() throws {
        func status(_ out: HTTP2Connection.Output) -> [String] {
            out.messages.compactMap { if case .responseSent(let t) = $0 { t.components(separatedBy: "\r\n")[0] } else { nil } }
        }
        var s = H2.server { $0.maxHeaderListSize = 200; $0.goAwayWhenAnswered = false }
        #expect(s.settings.contains { $0.0 == HTTP2Setting.maxHeaderListSize.rawValue && $0.1 == 200 })
        var encoder = HPACKEncoder()
        let big = encoder.encode(H2.fields("/") + [HPACKHeaderField("x-big", String(repeating: "a", count: 300))]).block
        let out = s.receive(HTTP2Frame.clientPreface + H2.settings + HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(block: big, priority: nil)).encoded)
        #expect(status(out) == [":status: 431"], "\(out.messages)")
        #expect(s.error == nil)
        let next = s.receive(H2.request("/", stream: 3, encoder: &encoder))
        #expect(status(next) == [":status: 200"])

        var b = H2.server { $0.maxBodySize = 4 }
        var e2 = HPACKEncoder()
        let post = b.receive(HTTP2Frame.clientPreface + H2.settings + H2.request("/up", stream: 1, encoder: &e2, endStream: false)
                             + HTTP2Frame(streamID: 1, flags: .endStream, payload: .data(Array("0123456789".utf8))).encoded)
        #expect(status(post) == [":status: 413"], "\(post.messages)")
        #expect(try H2.frames(post.bytes).last?.payload == .goaway(lastStreamID: 1, errorCode: 0, debug: []))
    }
}

/// The client end, alone and against the server end: requests, responses, push, refused streams
/// sent again, and what it refuses.
@Suite("HTTP/2 connection: client")
struct HTTP2ConnectionClientTests {
    static let request = [HPACKHeaderField(":method", "POST"), HPACKHeaderField(":scheme", "https"),
                          HPACKHeaderField(":authority", "h"), HPACKHeaderField(":path", "/up")]

    /// (split, body size): small splits with a short body; large ones with a body beyond the
    /// 65535-octet default window, so that WINDOW_UPDATE has to let the rest through.
    @Test(arguments: [(1, 300), (7, 300), (1_000, 70_000), (100_000, 70_000)])
    func againstTheServer(split: Int, size: Int) throws {
        let body = [UInt8](repeating: 0x61, count: size)
        var client = HTTP2Connection(client: HTTP2Connection.Configuration(), requests: [.init(fields: Self.request, body: body)])
        var server = H2.server { c in
            c.respond = { _, received in ([HPACKHeaderField(":status", "201"), HPACKHeaderField("x-got", "\(received.count)")], Array("done".utf8)) }
        }
        var co = HTTP2Connection.Output(), so = HTTP2Connection.Output()
        H2.pump(&client, &server, split: split, client: &co, server: &so)
        #expect(client.isExchangeComplete && client.error == nil && server.error == nil)
        #expect(client.responses.map(\.fields) == [[HPACKHeaderField(":status", "201"), HPACKHeaderField("x-got", "\(size)")]])
        #expect(client.responses.first?.body == Array("done".utf8))
        #expect(server.isClosed)
    }

    static func refused(_ serverBytes: [UInt8], push: Bool = false) -> HTTP2Connection {
        var configuration = HTTP2Connection.Configuration()
        configuration.enablePush = push
        var c = HTTP2Connection(client: configuration, requests: [.init(fields: Self.request)])
        _ = c.start()
        _ = c.receive(serverBytes)
        return c
    }

    @Test func refusals() throws {
        let settings = H2.settings
        #expect(Self.refused(HTTP2Frame(streamID: 0, payload: .ping([0, 0, 0, 0, 0, 0, 0, 0])).encoded).error == .protocolError,
                "a first frame other than SETTINGS is a PROTOCOL_ERROR")
        #expect(Self.refused(settings + HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .pushPromise(promisedStreamID: 2, block: [0x82])).encoded).error == .protocolError,
                "PUSH_PROMISE with push disabled is a PROTOCOL_ERROR")
        let reset = Self.refused(settings + HTTP2Frame(streamID: 1, payload: .rstStream(HTTP2ErrorCode.internalError.rawValue)).encoded)
        #expect(reset.streamsReset == [1: .internalError] && reset.isExchangeComplete && reset.error == nil)
        let goaway = Self.refused(settings + HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: 0, errorCode: 0xb, debug: Array("slow down".utf8))).encoded)
        #expect(goaway.isExchangeComplete && goaway.peerGoaway?.code == 0xb && goaway.peerGoaway?.debug == "slow down")
        let http1 = Self.refused(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        #expect(http1.error == .protocolError && http1.errorReason == .answeredInHTTP1(line: "HTTP/1.1 400 Bad Request"), "\(String(describing: http1.errorReason))")
        let unopened = Self.refused(settings + H2.request("/", stream: 5))
        #expect(unopened.error == .protocolError, "a response on a stream this client never opened")
        // 1xx informational headers are skipped; the final response follows.
        var encoder = HPACKEncoder()
        let early = HTTP2Frame(streamID: 1, flags: .endHeaders, payload: .headers(block: encoder.encode([HPACKHeaderField(":status", "103")]).block, priority: nil)).encoded
        let final = HTTP2Frame(streamID: 1, flags: [.endHeaders, .endStream], payload: .headers(block: encoder.encode([HPACKHeaderField(":status", "204")]).block, priority: nil)).encoded
        let c = Self.refused(settings + early + final)
        #expect(c.isExchangeComplete && c.responses.map(\.fields) == [[HPACKHeaderField(":status", "204")]])
    }

    /// RFC 9113 §8.7: a request whose stream the server refused (REFUSED_STREAM) was not
    /// processed; the client sends it again on a new stream, naming the refused one.
    @Test func aRefusedRequestIsSentAgain() throws {
        var c = HTTP2Connection(client: HTTP2Connection.Configuration(), requests: [.init(fields: H2.fields("/"))])
        _ = c.start()
        let out = c.receive(H2.settings + HTTP2Frame(streamID: 1, payload: .rstStream(HTTP2ErrorCode.refusedStream.rawValue)).encoded)
        #expect(out.messages.contains { if case .requestRetried(_, 0, refusedStream: 1) = $0 { true } else { false } }, "\(out.messages)")
        let frames = try H2.frames(out.bytes)
        #expect(frames.contains { $0.streamID == 3 && $0.type == .headers }, "\(frames.map { "\($0.typeName)/\($0.streamID)" })")
        #expect(!c.isExchangeComplete && c.streamsReset.isEmpty)
    }

    /// Five requests against a server allowing two streams: at most two open once its SETTINGS
    /// arrived, the three refused sent again, every one answered once.
    @Test func maxConcurrentStreamsBothWays() throws {
        let requests = (0..<5).map { HTTP2Connection.Request(fields: H2.fields("/\($0)")) }
        var client = HTTP2Connection(client: HTTP2Connection.Configuration(), requests: requests)
        var server = H2.server { $0.maxConcurrentStreams = 2; $0.goAwayWhenAnswered = false }
        var co = HTTP2Connection.Output(), so = HTTP2Connection.Output()
        H2.pump(&client, &server, client: &co, server: &so)
        #expect(client.isExchangeComplete && client.error == nil && server.error == nil)
        #expect(client.responses.count == 5)
        let retried = co.messages.compactMap { if case .requestRetried(_, _, let refused) = $0 { refused } else { nil } }
        #expect(retried == [5, 7, 9])
        #expect(so.messages.filter { if case .requestReceived = $0 { true } else { false } }.count == 5)
    }

    /// Server push (RFC 9113 §8.4): promised on stream 1, the pushed response on stream 2, taken by
    /// a client that enabled push; GOAWAY then names the pushed stream as the last processed.
    @Test func pushIsAcceptedWhenEnabled() throws {
        var configuration = HTTP2Connection.Configuration()
        configuration.enablePush = true
        var client = HTTP2Connection(client: configuration, requests: [.init(fields: H2.fields("/"))])
        var server = H2.server { $0.pushPaths = ["/style.css", "/style.css"] }
        var co = HTTP2Connection.Output(), so = HTTP2Connection.Output()
        H2.pump(&client, &server, client: &co, server: &so)
        #expect(client.isExchangeComplete && client.error == nil)
        #expect(client.promised == [2] && client.pushesCompleted == 1)
        #expect(client.responses.map(\.stream).sorted() == [1, 2])
        #expect(try H2.frames(client.goAway().bytes).last?.payload == .goaway(lastStreamID: 2, errorCode: 0, debug: []))
        // Without push enabled, the server promises nothing (the client's SETTINGS_ENABLE_PUSH is 0).
        var plain = HTTP2Connection(client: HTTP2Connection.Configuration(), requests: [.init(fields: H2.fields("/"))])
        var server2 = H2.server { $0.pushPaths = ["/style.css"] }
        var co2 = HTTP2Connection.Output(), so2 = HTTP2Connection.Output()
        H2.pump(&plain, &server2, client: &co2, server: &so2)
        #expect(plain.error == nil && plain.promised.isEmpty && plain.responses.count == 1)
    }

    /// Garbage after the preface never traps either end: every run ends open (waiting for more) or
    /// closed with an RFC 9113 error code, and what they send decodes as frames.
    @Test func randomFramesNeverTrap() throws {
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        for round in 0..<2_000 {
            let count = Int(next() % 200)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
            // Half the rounds look like frames: a plausible header with a small length and a known type.
            if round % 2 == 0, bytes.count >= 9 {
                bytes[0] = 0; bytes[1] = 0; bytes[2] = UInt8(min(bytes.count - 9, 40)); bytes[3] = UInt8(next() % 10)
            }
            var server = H2.server()
            let out = server.receive(HTTP2Frame.clientPreface + H2.settings + bytes)
            var rest = out.bytes[...]
            while let (_, used) = try HTTP2Frame.decode(rest, maxFrameSize: 1 << 24) { rest = rest.dropFirst(used) }
            #expect(rest.isEmpty, "round \(round): the server's output is whole frames")

            var configuration = HTTP2Connection.Configuration()
            configuration.enablePush = round % 3 == 0
            var client = HTTP2Connection(client: configuration, requests: [.init(fields: H2.fields("/"))])
            _ = client.start()
            let back = client.receive(H2.settings + bytes)
            var tail = back.bytes[...]
            while let (_, used) = try HTTP2Frame.decode(tail, maxFrameSize: 1 << 24) { tail = tail.dropFirst(used) }
            #expect(tail.isEmpty, "round \(round): the client's output is whole frames")
        }
    }
}
