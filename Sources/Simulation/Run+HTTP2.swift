import HTTP2
import TLSEngine
import Trace
import Trust

/// One endpoint's HTTP/2 connection state: its HPACK contexts (one per direction: the encoder for
/// what it sends, the decoder for what it receives) and its streams.
struct HTTP2EndpointState {
    var encoder = HPACKEncoder()
    var decoder = HPACKDecoder()
    /// Client: preface, SETTINGS and requests sent. Server: the client's preface received.
    var started = false
    var settingsAcknowledged = false
    var goawaySent = false
    var goawayReceived = false
    /// A connection error this side detected (it sent GOAWAY with it).
    var error: HTTP2ErrorCode?
    /// The peer allows server push (its SETTINGS_ENABLE_PUSH; 1 until it says otherwise).
    var peerAllowsPush = true
    /// The largest frame payload the peer accepts (its SETTINGS_MAX_FRAME_SIZE, §6.5.2).
    var peerMaxFrameSize = HTTP2Frame.defaultMaxFrameSize
    /// A header block continued in CONTINUATION frames: its stream, frame and octets so far.
    var pendingBlock: (frame: HTTP2Frame, block: [UInt8])?
    /// Each open stream's header fields and body so far.
    var headers: [UInt32: [HPACKHeaderField]] = [:]
    var bodies: [UInt32: [UInt8]] = [:]
    /// Client: streams the server promised (PUSH_PROMISE) and how many of them completed.
    var promised: [UInt32] = []
    var pushesCompleted = 0
    /// Client: its streams the server reset (RST_STREAM, other than REFUSED_STREAM): they get no response.
    var streamsReset: Set<UInt32> = []
    /// Client: the requests (indices) still to send, in order, and the open stream of each one sent;
    /// the next stream ID (odd, from 1); at most `peerMaxConcurrentStreams` open at once (§5.1.2).
    var queuedRequests: [Int] = []
    var openRequests: [UInt32: Int] = [:]
    /// Client: the requests (indices) waiting to go again, each with the stream the server refused.
    var refusedRequests: [Int: UInt32] = [:]
    var nextStream: UInt32 = 1
    /// The peer's SETTINGS_MAX_CONCURRENT_STREAMS. Until its SETTINGS arrive, 100: the least
    /// RFC 9113 §6.5.2 recommends, what common clients assume.
    var peerMaxConcurrentStreams = Int(HTTP2Defaults.maxConcurrentStreams)
    /// Server: the client's streams open now (request received, response not yet ended), and
    /// those refused with REFUSED_STREAM for being beyond SETTINGS_MAX_CONCURRENT_STREAMS.
    var openStreams: Set<UInt32> = []
    var refusedStreams: Set<UInt32> = []
    /// Server: the next stream ID for a push (even, from 2).
    var nextPushStream: UInt32 = 2
    /// Flow control (RFC 9113 §5.2, §6.9). Sender: what the peer still lets it send, on the
    /// connection and per stream, and the bodies waiting for window. Receiver: what it still
    /// accepts, and what it consumed but has not yet given back with WINDOW_UPDATE.
    var sendWindow = HTTP2Defaults.initialWindowSize
    var peerInitialWindow = HTTP2Defaults.initialWindowSize
    var streamSendWindows: [UInt32: Int] = [:]
    var pendingData: [(stream: UInt32, body: ArraySlice<UInt8>)] = []
    var receiveWindow = HTTP2Defaults.initialWindowSize
    var streamReceiveWindows: [UInt32: Int] = [:]
    var unacknowledged = 0
    var streamUnacknowledged: [UInt32: Int] = [:]
}

extension Run {
    func http2(_ h: HTTP2Event, by e: Endpoint) {
        events.append(TraceEvent(time: net.now, actor: e.actor, kind: .http2(h), connection: e.connection, peer: e.peer))
    }

    /// Traces each frame as sent and writes them (after `prefix`, the client preface) in one go.
    func sendFrames(_ frames: [HTTP2FrameTrace], from e: Endpoint, prefix: [UInt8] = []) {
        guard !frames.isEmpty || !prefix.isEmpty else { return }
        for f in frames { http2(.frameSent(f), by: e) }
        send(bytes: prefix + frames.flatMap(\.frame.encoded), from: e)
    }

    /// HTTP/2 on one connection: the real server answers, the real client sends and reads. (The
    /// scenario layer allows no active attacker with h2, so the responder is always the server.)
    func http2Application(_ leg: Leg) {
        if leg.responder.actor == .server { http2Server(leg) }
        if leg.initiator.actor == .client { http2Client(leg) }
    }

    /// The client is finished once every request's response and every promised push arrived (or
    /// the connection failed: a connection error either way, or the server's GOAWAY).
    func http2ExchangeOver(_ leg: Leg) -> Bool {
        let c = leg.initiator
        guard c.done else { return false }
        if c.h2.error != nil || c.h2.goawayReceived { return true }
        return c.h2.started && leg.answered + c.h2.streamsReset.count >= leg.requests.count && c.h2.pushesCompleted >= c.h2.promised.count
    }

    /// The client ends the connection gracefully: GOAWAY naming the last server-initiated stream
    /// it processed (RFC 9113 §6.8), before TLS's close_notify and TCP's FIN.
    func http2GoAway(_ leg: Leg) {
        let c = leg.initiator
        guard c.h2.started, !c.h2.goawaySent, c.h2.error == nil else { return }
        c.h2.goawaySent = true
        let last = c.h2.promised.max() ?? 0
        sendFrames([HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: last, errorCode: HTTP2ErrorCode.noError.rawValue, debug: [])))], from: c)
    }

    /// A connection error (RFC 9113 §5.4.1): trace it, send GOAWAY with its code, stop. A client
    /// that has not sent its preface yet sends it first (`prefix`): every client frame follows it.
    func http2ConnectionError(_ code: HTTP2ErrorCode, _ why: String, lastStream: UInt32, by e: Endpoint, prefix: [UInt8] = []) {
        guard e.h2.error == nil else { return }
        e.h2.error = code
        http2(.connectionError(code, why), by: e)
        e.h2.goawaySent = true
        sendFrames([HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: lastStream, errorCode: code.rawValue, debug: Array(why.utf8))))],
                   from: e, prefix: prefix)
    }

    /// A header block as one HEADERS (or PUSH_PROMISE, when `promised` is set) frame and as many
    /// CONTINUATION frames as the peer's SETTINGS_MAX_FRAME_SIZE needs (RFC 9113 §4.2, §6.2,
    /// §6.10): END_HEADERS only on the last, END_STREAM (HEADERS only) on the first. The HPACK
    /// summary goes with the first frame.
    func headerBlockFrames(stream: UInt32, block: [UInt8], summary: HPACKBlockSummary, endStream: Bool,
                           promised: UInt32? = nil, maxFrameSize: Int) -> [HTTP2FrameTrace] {
        // PUSH_PROMISE spends 4 octets of its payload on the promised stream ID (§6.6).
        let firstSize = max(1, maxFrameSize - (promised == nil ? 0 : 4))
        let first = Array(block.prefix(firstSize))
        var rest = block.dropFirst(firstSize)
        var flags: HTTP2Flags = rest.isEmpty ? .endHeaders : []
        if endStream, promised == nil { flags.insert(.endStream) }
        let payload: HTTP2Frame.Payload = promised.map { .pushPromise(promisedStreamID: $0, block: first) } ?? .headers(block: first, priority: nil)
        var out = [HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, flags: flags, payload: payload), hpack: summary)]
        while !rest.isEmpty {
            let chunk = Array(rest.prefix(max(1, maxFrameSize)))
            rest = rest.dropFirst(chunk.count)
            out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, flags: rest.isEmpty ? .endHeaders : [], payload: .continuation(chunk))))
        }
        return out
    }

    /// The frames now whole in `e`'s inbox, each traced as received (header blocks decoded with
    /// `e`'s HPACK decoder). A malformed frame or header block is a connection error.
    func receiveFrames(_ e: Endpoint) -> [(frame: HTTP2Frame, fields: [HPACKHeaderField]?)]? {
        var out: [(HTTP2Frame, [HPACKHeaderField]?)] = []
        var rest = ArraySlice(e.inbox)
        defer { e.inbox = Array(rest) }
        while true {
            let decoded: (frame: HTTP2Frame, consumed: Int)?
            do {
                decoded = try HTTP2Frame.decode(rest)
            } catch {
                http2ConnectionError(error.code, error.description, lastStream: e.h2.headers.keys.max() ?? 0, by: e)
                return nil
            }
            guard let (frame, used) = decoded else { break }
            rest = rest.dropFirst(used)
            var block: [UInt8]?
            var blockFrame = frame
            switch frame.payload {
            case .headers(let b, _), .pushPromise(_, let b):
                guard e.h2.pendingBlock == nil else {
                    http2(.frameReceived(HTTP2FrameTrace(frame: frame)), by: e)
                    http2ConnectionError(.protocolError, "\(frame.typeName) inside a header block", lastStream: 0, by: e)
                    return nil
                }
                if frame.flags.contains(.endHeaders) { block = b } else { e.h2.pendingBlock = (frame, b) }
            case .continuation(let b):
                guard var pending = e.h2.pendingBlock, pending.frame.streamID == frame.streamID else {
                    http2(.frameReceived(HTTP2FrameTrace(frame: frame)), by: e)
                    http2ConnectionError(.protocolError, "CONTINUATION without a header block to continue", lastStream: 0, by: e)
                    return nil
                }
                pending.block += b
                e.h2.pendingBlock = pending
                if frame.flags.contains(.endHeaders) {
                    block = pending.block
                    blockFrame = pending.frame
                    e.h2.pendingBlock = nil
                }
            default:
                if e.h2.pendingBlock != nil {
                    http2(.frameReceived(HTTP2FrameTrace(frame: frame)), by: e)
                    http2ConnectionError(.protocolError, "\(frame.typeName) inside a header block", lastStream: 0, by: e)
                    return nil
                }
            }
            guard let block else {
                http2(.frameReceived(HTTP2FrameTrace(frame: frame)), by: e)
                if frame.type != .continuation, !(frame.type == .headers || frame.type == .pushPromise) { out.append((frame, nil)) }
                continue
            }
            do {
                let (fields, summary) = try e.h2.decoder.decode(block)
                http2(.frameReceived(HTTP2FrameTrace(frame: frame, hpack: summary)), by: e)
                out.append((blockFrame, fields))
            } catch {
                http2(.frameReceived(HTTP2FrameTrace(frame: frame)), by: e)
                http2ConnectionError(error.http2ErrorCode, "HPACK: \(error)", lastStream: 0, by: e)
                return nil
            }
        }
        return out
    }

    /// Adds what `frame` carries to its stream; returns the stream when this frame ended it.
    func collect(_ frame: HTTP2Frame, fields: [HPACKHeaderField]?, into e: Endpoint) -> UInt32? {
        switch frame.payload {
        case .headers:
            if let fields { e.h2.headers[frame.streamID] = fields }
        case .data(let d):
            e.h2.bodies[frame.streamID, default: []] += d
        default:
            return nil
        }
        return frame.flags.contains(.endStream) ? frame.streamID : nil
    }

    /// The peer's SETTINGS as they concern what `e` sends (RFC 9113 §6.5.2, §6.9.2): a new
    /// initial window changes every open stream's window by the difference.
    func applyPeerSettings(_ list: [(UInt16, UInt32)], to e: Endpoint) {
        for (id, value) in list {
            switch HTTP2Setting(rawValue: id) {
            case .enablePush?: e.h2.peerAllowsPush = value == 1
            case .initialWindowSize?:
                let delta = Int(value) - e.h2.peerInitialWindow
                e.h2.peerInitialWindow = Int(value)
                for key in e.h2.streamSendWindows.keys { e.h2.streamSendWindows[key, default: 0] += delta }
            case .maxFrameSize?: e.h2.peerMaxFrameSize = Int(value)
            case .maxConcurrentStreams?: e.h2.peerMaxConcurrentStreams = Int(value)
            default: break
            }
        }
    }

    /// A WINDOW_UPDATE from the peer: more that `e` may send; false after a connection error.
    func applyWindowUpdate(_ increment: UInt32, stream: UInt32, to e: Endpoint) -> Bool {
        if stream == 0 {
            e.h2.sendWindow += Int(increment)
        } else {
            e.h2.streamSendWindows[stream, default: e.h2.peerInitialWindow] += Int(increment)
        }
        guard e.h2.sendWindow <= 0x7fff_ffff, (e.h2.streamSendWindows[stream] ?? 0) <= 0x7fff_ffff else {
            http2ConnectionError(.flowControlError, "a window above 2^31-1", lastStream: 0, by: e)
            return false
        }
        return true
    }

    /// Flow control on receipt (§6.9): DATA beyond the connection's or the stream's window is a
    /// FLOW_CONTROL_ERROR (false); what fits is counted against both windows until given back.
    func receiveData(_ frame: HTTP2Frame, count: Int, by e: Endpoint) -> Bool {
        let streamWindow = e.h2.streamReceiveWindows[frame.streamID] ?? HTTP2Defaults.initialWindowSize
        guard count <= e.h2.receiveWindow, count <= streamWindow else {
            http2ConnectionError(.flowControlError, "DATA beyond the flow-control window", lastStream: 0, by: e)
            return false
        }
        e.h2.receiveWindow -= count
        e.h2.streamReceiveWindows[frame.streamID] = streamWindow - count
        e.h2.unacknowledged += count
        if !frame.flags.contains(.endStream) { e.h2.streamUnacknowledged[frame.streamID, default: 0] += count }
        return true
    }

    // MARK: The server

    func http2Server(_ leg: Leg) {
        let server = leg.responder
        guard server.done, !server.failed, server.h2.error == nil else { return }
        var out: [HTTP2FrameTrace] = []
        if !server.h2.started {
            let preface = HTTP2Frame.clientPreface
            let have = min(server.inbox.count, preface.count)
            guard server.inbox.prefix(have).elementsEqual(preface.prefix(have)) else {
                http2ConnectionError(.protocolError, "the connection does not start with the HTTP/2 client preface", lastStream: 0, by: server)
                return
            }
            guard have == preface.count else { return }
            server.inbox.removeFirst(preface.count)
            server.h2.started = true
            http2(.prefaceReceived, by: server)
            // The server's connection preface: its SETTINGS (§3.4).
            out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings([
                (HTTP2Setting.maxConcurrentStreams.rawValue, setup.http2MaxConcurrentStreams),
                (HTTP2Setting.initialWindowSize.rawValue, UInt32(HTTP2Defaults.initialWindowSize)),
            ]))))
        }
        guard let frames = receiveFrames(server) else { return }
        var completed: [UInt32] = []
        for (frame, fields) in frames {
            switch frame.payload {
            case .settings(let list) where !frame.flags.contains(.ack):
                applyPeerSettings(list, to: server)
                out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([]))))
            case .windowUpdate(let increment):
                guard applyWindowUpdate(increment, stream: frame.streamID, to: server) else { return }
            case .settings:
                server.h2.settingsAcknowledged = true
            case .ping(let opaque) where !frame.flags.contains(.ack):
                out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .ping(opaque))))
            case .goaway:
                server.h2.goawayReceived = true
            case .headers where frame.streamID % 2 == 1 && server.h2.headers[frame.streamID] == nil
                && server.h2.openStreams.count >= Int(setup.http2MaxConcurrentStreams):
                // RFC 9113 §5.1.2, §8.7: a stream beyond the advertised limit is refused; the client
                // may retry the request, which was not processed.
                server.h2.refusedStreams.insert(frame.streamID)
                out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: frame.streamID, payload: .rstStream(HTTP2ErrorCode.refusedStream.rawValue))))
            case _ where server.h2.refusedStreams.contains(frame.streamID):
                // Frames in flight on a refused stream are ignored (§5.4.2), DATA still counts
                // against the connection's window.
                if case .data(let d) = frame.payload, !receiveData(frame, count: d.count, by: server) { return }
            case .data(let d):
                guard receiveData(frame, count: d.count, by: server) else { return }
                fallthrough
            default:
                if frame.type == .headers, frame.streamID % 2 == 1 { server.h2.openStreams.insert(frame.streamID) }
                if let id = collect(frame, fields: fields, into: server) {
                    server.h2.streamUnacknowledged[id] = nil
                    guard id % 2 == 1, let request = server.h2.headers[id] else {
                        http2ConnectionError(.protocolError, "stream \(id) ended without a request", lastStream: completed.max() ?? 0, by: server)
                        return
                    }
                    let body = server.h2.bodies[id] ?? []
                    // RFC 9113 §8.1.1: a content-length that differs from the DATA received makes
                    // the request malformed, a stream error of type PROTOCOL_ERROR.
                    if let length = request.first(where: { $0.name == "content-length" }), Int(length.value) != body.count {
                        out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: id, payload: .rstStream(HTTP2ErrorCode.protocolError.rawValue))))
                        server.h2.openStreams.remove(id)
                        continue
                    }
                    http(.requestReceived(HTTP2Message.text(request, body: body)), by: server)
                    completed.append(id)
                }
            }
        }
        out += http2Responses(to: completed, server: server)
        out += http2DataWithinWindows(server)
        out += http2WindowUpdates(server)
        sendFrames(out, from: server)
    }

    /// The responses to the streams just completed, interleaved: pushes promised first (on the
    /// first stream), then every response's HEADERS, then their DATA frames in turn.
    func http2Responses(to streams: [UInt32], server: Endpoint) -> [HTTP2FrameTrace] {
        guard !streams.isEmpty else { return [] }
        var out: [HTTP2FrameTrace] = []
        var answers = streams
        if streams.contains(1), !setup.http2Push.isEmpty, server.h2.peerAllowsPush, let parent = server.h2.headers[1] {
            // Each distinct path once: a second PUSH_PROMISE for the same request would be a duplicate push.
            var seen: Set<String> = []
            for path in setup.http2Push where seen.insert(path).inserted {
                let promised = server.h2.nextPushStream
                server.h2.nextPushStream += 2
                let request = HTTP2Message.pushedRequestFields(path: path, like: parent)
                server.h2.headers[promised] = request
                let (block, summary) = server.h2.encoder.encode(request)
                out += headerBlockFrames(stream: 1, block: block, summary: summary, endStream: false,
                                         promised: promised, maxFrameSize: server.h2.peerMaxFrameSize)
                answers.append(promised)
            }
        }
        let (fields, body) = HTTP2Message.response(setup.httpResponse)
        var pending: [(stream: UInt32, body: ArraySlice<UInt8>)] = []
        for id in answers {
            let (block, summary) = server.h2.encoder.encode(fields)
            out += headerBlockFrames(stream: id, block: block, summary: summary, endStream: body.isEmpty, maxFrameSize: server.h2.peerMaxFrameSize)
            http(.responseSent(HTTP2Message.text(fields, body: body)), by: server)
            if body.isEmpty { server.h2.openStreams.remove(id) } else { pending.append((id, ArraySlice(body))) }
        }
        server.h2.pendingData += pending
        return out
    }

    /// (Either side: the server's responses, the client's request bodies.)
    /// DATA in turn, stream by stream, at most SETTINGS_MAX_FRAME_SIZE octets per frame and never
    /// beyond the connection's or the stream's flow-control window (RFC 9113 §5.2, §6.9): no
    /// response waits for another to finish (no head-of-line blocking at the HTTP level); what
    /// the windows do not allow waits for the client's WINDOW_UPDATE.
    func http2DataWithinWindows(_ sender: Endpoint) -> [HTTP2FrameTrace] {
        let server = sender
        var out: [HTTP2FrameTrace] = []
        var progress = true
        while progress, !server.h2.pendingData.isEmpty {
            progress = false
            var next: [(stream: UInt32, body: ArraySlice<UInt8>)] = []
            for (id, rest) in server.h2.pendingData {
                let streamWindow = server.h2.streamSendWindows[id] ?? server.h2.peerInitialWindow
                let size = min(rest.count, server.h2.peerMaxFrameSize, server.h2.sendWindow, streamWindow)
                guard size > 0 || rest.isEmpty else {
                    next.append((id, rest))
                    continue
                }
                let chunk = rest.prefix(size)
                let remaining = rest.dropFirst(size)
                server.h2.sendWindow -= size
                server.h2.streamSendWindows[id] = streamWindow - size
                out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: id, flags: remaining.isEmpty ? .endStream : [], payload: .data(Array(chunk)))))
                progress = true
                if remaining.isEmpty { server.h2.openStreams.remove(id) } else { next.append((id, remaining)) }
            }
            server.h2.pendingData = next
        }
        return out
    }

    // MARK: The client

    /// (The server does the same for request bodies.)
    /// The client gives consumed window back once half of it is used up (as common implementations
    /// do, so that small responses need no WINDOW_UPDATE): the connection's, and each open stream's.
    func http2WindowUpdates(_ receiver: Endpoint) -> [HTTP2FrameTrace] {
        let client = receiver
        var out: [HTTP2FrameTrace] = []
        let half = HTTP2Defaults.initialWindowSize / 2
        if client.h2.unacknowledged >= half {
            out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .windowUpdate(UInt32(client.h2.unacknowledged)))))
            client.h2.receiveWindow += client.h2.unacknowledged
            client.h2.unacknowledged = 0
        }
        for (id, consumed) in client.h2.streamUnacknowledged.sorted(by: { $0.key < $1.key }) where consumed >= half {
            out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: id, payload: .windowUpdate(UInt32(consumed)))))
            client.h2.streamReceiveWindows[id, default: HTTP2Defaults.initialWindowSize] += consumed
            client.h2.streamUnacknowledged[id] = 0
        }
        return out
    }


    /// Opens streams for the waiting requests while fewer than the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS are open (RFC 9113 §5.1.2): each request, the frames that
    /// carry it (HEADERS, CONTINUATION, then its body's DATA as the windows allow), traced here.
    func http2OpenStreams(_ leg: Leg) -> [HTTP2FrameTrace] {
        let client = leg.initiator
        let scheme = setup.usesTLS ? "https" : "http"
        var out: [HTTP2FrameTrace] = []
        while !client.h2.queuedRequests.isEmpty, client.h2.openRequests.count < client.h2.peerMaxConcurrentStreams,
              client.h2.nextStream <= 0x7fff_ffff {
            let index = client.h2.queuedRequests.removeFirst()
            let request = leg.requests[index]
            let id = client.h2.nextStream
            client.h2.nextStream += 2
            client.h2.openRequests[id] = index
            let fields = HTTP2Message.requestFields(request, scheme: scheme)
            let (block, summary) = client.h2.encoder.encode(fields)
            let body = HTTP2Message.requestBody(request)
            let headers = headerBlockFrames(stream: id, block: block, summary: summary, endStream: body.isEmpty, maxFrameSize: client.h2.peerMaxFrameSize)
            if !body.isEmpty { client.h2.pendingData.append((id, ArraySlice(body))) }
            // Each request, then the frames that carry it (one write for all: they leave together).
            // A request already sent once is a retry after REFUSED_STREAM: the same request, not a new one.
            if let refused = client.h2.refusedRequests.removeValue(forKey: index) {
                http(.requestRetried(HTTP2Message.text(fields, body: body), refusedStream: refused), by: client)
            } else {
                http(.requestSent(HTTP2Message.text(fields, body: body)), by: client)
            }
            for f in headers { http2(.frameSent(f), by: client) }
            out += headers
            leg.sent = max(leg.sent, index + 1)
        }
        // The bodies (DATA, END_STREAM on each one's last frame) as far as the windows allow.
        let data = http2DataWithinWindows(client)
        for f in data { http2(.frameSent(f), by: client) }
        return out + data
    }

    func http2Client(_ leg: Leg) {
        let client = leg.initiator
        guard client.done, !client.failed, client.h2.error == nil else { return }
        var out: [HTTP2FrameTrace] = []
        if !client.h2.started {
            client.h2.started = true
            let negotiation: HTTP2Negotiation = setup.usesTLS ? .h2 : .h2c
            // Over TLS the handshake's ALPN must have selected "h2"; without it the connection is
            // not HTTP/2 (RFC 9113 §3.2), so no preface is sent and the run says why.
            if setup.usesTLS {
                var selected: ProtocolName?
                if case .client(let tls) = client.engine { selected = tls.negotiatedApplicationProtocol }
                guard selected == .h2 else {
                    client.h2.error = .http11Required
                    note(.http2NotSelected(selected: selected?.description), connection: leg.index)
                    return
                }
            }
            note(.http2(setup.usesTLS ? .h2 : .h2c, allRequestsAtOnce: true), connection: leg.index)
            http2(.chosen(negotiation), by: client)
            http2(.prefaceSent, by: client)
            // The preface is followed by the client's SETTINGS, always (RFC 9113 §3.4).
            let settings = HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings([
                (HTTP2Setting.enablePush.rawValue, setup.http2Push.isEmpty ? 0 : 1),
                (HTTP2Setting.maxConcurrentStreams.rawValue, HTTP2Defaults.maxConcurrentStreams),
                (HTTP2Setting.initialWindowSize.rawValue, UInt32(HTTP2Defaults.initialWindowSize)),
            ])))
            // RFC 9113 §9.2: HTTP/2 over TLS needs TLS 1.2 or later; §9.2.2 (Appendix A's list):
            // over TLS 1.2 no suite without an ephemeral key exchange or without an AEAD cipher.
            // An endpoint may end such a connection with INADEQUATE_SECURITY, and this client does,
            // after its preface and SETTINGS.
            if case .client(let tls) = client.engine, let why = HTTP2OverTLS.inadequateSecurity(version: tls.negotiatedVersion, suite: tls.negotiatedSuite) {
                http2(.frameSent(settings), by: client)
                http2ConnectionError(.inadequateSecurity, why, lastStream: 0, by: client,
                                     prefix: HTTP2Frame.clientPreface + settings.frame.encoded)
                return
            }
            out.append(settings)
            for f in out { http2(.frameSent(f), by: client) }
            client.h2.queuedRequests = Array(leg.requests.indices)
            out += http2OpenStreams(leg)
            send(bytes: HTTP2Frame.clientPreface + out.flatMap(\.frame.encoded), from: client)
            out = []
        }
        guard let frames = receiveFrames(client) else { return }
        for (frame, fields) in frames {
            switch frame.payload {
            case .settings(let list) where !frame.flags.contains(.ack):
                applyPeerSettings(list, to: client)
                out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([]))))
            case .settings:
                client.h2.settingsAcknowledged = true
            case .ping(let opaque) where !frame.flags.contains(.ack):
                out.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .ping(opaque))))
            case .goaway:
                client.h2.goawayReceived = true
            case .windowUpdate(let increment):
                guard applyWindowUpdate(increment, stream: frame.streamID, to: client) else { return }
            case .rstStream(let code) where frame.streamID % 2 == 1:
                client.h2.pendingData.removeAll { $0.stream == frame.streamID }
                guard let index = client.h2.openRequests.removeValue(forKey: frame.streamID) else { break }
                if code == HTTP2ErrorCode.refusedStream.rawValue {
                    // Not processed (§8.7): the request goes again on a new stream when there is room.
                    // In the requests' order: refusals of 5, 7, 9 send /2, /3, /4 again in that order.
                    client.h2.queuedRequests.insert(index, at: client.h2.queuedRequests.firstIndex { $0 > index } ?? client.h2.queuedRequests.count)
                    client.h2.refusedRequests[index] = frame.streamID
                } else {
                    // The server reset this stream: no response will come on it.
                    client.h2.streamsReset.insert(frame.streamID)
                }
            case .pushPromise(let promised, _):
                guard !setup.http2Push.isEmpty, promised % 2 == 0 else {
                    http2ConnectionError(.protocolError, "PUSH_PROMISE although SETTINGS_ENABLE_PUSH is 0", lastStream: 0, by: client)
                    return
                }
                client.h2.promised.append(promised)
            case .data(let d):
                // Flow control on receipt: DATA beyond a window is a FLOW_CONTROL_ERROR.
                guard receiveData(frame, count: d.count, by: client) else { return }
                fallthrough
            default:
                if let id = collect(frame, fields: fields, into: client), let response = client.h2.headers[id] {
                    http(.responseReceived(HTTP2Message.text(response, body: client.h2.bodies[id] ?? [])), by: client)
                    if id % 2 == 1 { leg.answered += 1; client.h2.openRequests[id] = nil } else { client.h2.pushesCompleted += 1 }
                    client.h2.streamUnacknowledged[id] = nil
                }
            }
        }
        out += http2WindowUpdates(client)
        out += http2DataWithinWindows(client)
        sendFrames(out, from: client)
        // Streams that closed make room for the requests still waiting (§5.1.2).
        let more = http2OpenStreams(leg)
        if !more.isEmpty { send(bytes: more.flatMap(\.frame.encoded), from: client) }
    }
}
