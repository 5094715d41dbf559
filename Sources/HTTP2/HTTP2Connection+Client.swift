/// The client end: preface, SETTINGS and the requests, the responses and pushes, refused requests
/// sent again, GOAWAY when done.
extension HTTP2Connection {
    /// The preface, SETTINGS (§3.4) and as many requests as may be open at once, in one write. Over
    /// a TLS connection HTTP/2 may not use (``Configuration/inadequateSecurity``), GOAWAY
    /// INADEQUATE_SECURITY follows the SETTINGS instead of the requests (§9.2).
    public mutating func start() -> Output {
        var out = Output()
        guard role == .client, !started, error == nil else { return out }
        started = true
        out.event(.chosen(configuration.negotiation))
        out.event(.prefaceSent)
        // The preface is followed by the client's SETTINGS, always (RFC 9113 §3.4).
        let ownSettings = HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings(settings)))
        out.event(.frameSent(ownSettings))
        if let why = configuration.inadequateSecurity {
            fail(.inadequateSecurity, .inadequateSecurity(why), lastStream: 0, prefix: HTTP2Frame.clientPreface + ownSettings.frame.encoded, &out)
            return out
        }
        queuedRequests = Array(requests.indices)
        let frames = openStreams(&out)
        out.write(HTTP2Frame.clientPreface + ownSettings.frame.encoded + frames.flatMap(\.frame.encoded))
        return out
    }

    /// Ends the connection gracefully: GOAWAY NO_ERROR naming the last peer-initiated stream this
    /// side processed (RFC 9113 §6.8) — a client's, the last pushed stream; a server's (an idle
    /// timeout, say), the last request it processed, after its own SETTINGS if the client's preface
    /// never came (SETTINGS is still its first frame, §3.4); a server then reads nothing more.
    public mutating func goAway() -> Output {
        var out = Output()
        guard !goawaySent, error == nil, role == .server || started else { return out }
        goawaySent = true
        var frames: [HTTP2FrameTrace] = []
        if role == .server, !started { frames.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings(settings)))) }
        let last = role == .client ? promised.max() ?? 0 : lastProcessed
        frames.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: last, errorCode: HTTP2ErrorCode.noError.rawValue, debug: []))))
        out.send(frames)
        return out
    }

    /// Opens streams for the waiting requests while fewer than the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS are open (RFC 9113 §5.1.2): each request, then the frames
    /// that carry it (HEADERS, CONTINUATION), then the bodies' DATA as the windows allow — traced
    /// here, returned to be written together.
    mutating func openStreams(_ out: inout Output) -> [HTTP2FrameTrace] {
        var frames: [HTTP2FrameTrace] = []
        while !queuedRequests.isEmpty, openRequests.count < peerMaxConcurrentStreams, nextStream <= 0x7fff_ffff {
            let index = queuedRequests.removeFirst()
            let request = requests[index]
            let id = nextStream
            nextStream += 2
            openRequests[id] = index
            let (block, summary) = encoder.encode(request.fields)
            let headerFrames = headerBlockFrames(stream: id, block: block, summary: summary, endStream: request.body.isEmpty)
            if !request.body.isEmpty { pendingData.append((id, ArraySlice(request.body))) }
            // A request already sent once is a retry after REFUSED_STREAM: the same request, not a new one.
            let text = HTTP2Message.text(request.fields, body: request.body)
            if let refused = refusedRequests.removeValue(forKey: index) {
                out.message(.requestRetried(text, request: index, refusedStream: refused))
            } else {
                out.message(.requestSent(text, request: index))
            }
            for f in headerFrames { out.event(.frameSent(f)) }
            frames += headerFrames
        }
        let data = dataWithinWindows()
        for f in data { out.event(.frameSent(f)) }
        return frames + data
    }

    /// The server's frames: SETTINGS, PING and WINDOW_UPDATE answered, responses and pushes
    /// assembled, refused requests queued again; then ACKs, WINDOW_UPDATEs and request bodies in
    /// one write, and the requests that now have room in another.
    mutating func clientReceive(_ out: inout Output) {
        guard started else { return }
        if !peerSettingsReceived, buffer.starts(with: Array("HTTP/1.".utf8)) {
            // A server that agreed to h2 and then answers in HTTP/1.x: say so, rather than a frame-size error.
            let line = String(decoding: buffer.prefix { $0 != 13 && $0 != 10 }.prefix(60), as: UTF8.self)
            fail(.protocolError, .answeredInHTTP1(line: line), &out)
            return
        }
        var pending: [HTTP2FrameTrace] = []
        guard let frames = receiveStreamFrames(&pending, &out) else { return }
        for (frame, fields) in frames {
            let id = frame.streamID
            switch frame.payload {
            case .rstStream(let code) where id % 2 == 1:
                pendingData.removeAll { $0.stream == id }
                guard let index = openRequests.removeValue(forKey: id) else { break }
                if code == HTTP2ErrorCode.refusedStream.rawValue {
                    // Not processed (§8.7): the request goes again on a new stream when there is room.
                    // In the requests' order: refusals of 5, 7, 9 send /2, /3, /4 again in that order.
                    queuedRequests.insert(index, at: queuedRequests.firstIndex { $0 > index } ?? queuedRequests.count)
                    refusedRequests[index] = id
                } else {
                    // The server reset this stream: no response will come on it.
                    streamsReset[id] = HTTP2ErrorCode(rawValue: code) ?? .internalError
                }
            case .pushPromise(let promisedID, _):
                guard configuration.enablePush, promisedID % 2 == 0 else {
                    fail(.protocolError, .pushWhileDisabled, lastStream: 0, &out)
                    return
                }
                promised.append(promisedID)
            case .data(let d):
                // Flow control on receipt: DATA beyond a window is a FLOW_CONTROL_ERROR.
                guard receiveData(frame, count: d.count, &out) else { return }
                guard responsePart(frame, fields: nil, &out) else { return }
            case .headers:
                guard responsePart(frame, fields: fields, &out) else { return }
            default:
                break  // PRIORITY, RST_STREAM on a pushed stream, unknown types (§5.5)
            }
        }
        pending += windowUpdates()
        pending += dataWithinWindows()
        out.send(pending)
        // Streams that closed make room for the requests still waiting (§5.1.2).
        let more = openStreams(&out)
        out.write(more.flatMap(\.frame.encoded))
    }

    /// HEADERS or DATA of a response (or a pushed one): a 1xx informational header block is
    /// skipped (§8.1), the final one kept, one after it is trailers; END_STREAM ends the response.
    /// False after a connection error.
    mutating func responsePart(_ frame: HTTP2Frame, fields: [HPACKHeaderField]?, _ out: inout Output) -> Bool {
        let id = frame.streamID
        guard openRequests[id] != nil || (id % 2 == 0 && promised.contains(id) && !finished.contains(id)) else {
            let opened = finished.contains(id) || streamsReset[id] != nil || (id % 2 == 1 && id < nextStream)
            fail(opened ? .streamClosed : .protocolError,
                 .responseOnUnopenedStream(frameType: frame.typeName, stream: id, closed: opened), lastStream: 0, &out)
            return false
        }
        if let fields, headers[id] == nil {
            let status = fields.first { $0.name == ":status" }?.value ?? ""
            guard status.count == 3, let code = Int(status) else {
                fail(.protocolError, .responseWithoutStatus, lastStream: 0, &out)
                return false
            }
            if !(100..<200).contains(code) || code == 101 { headers[id] = fields }
        }
        if case .data(let d) = frame.payload {
            guard headers[id] != nil else {
                fail(.protocolError, .dataBeforeResponseHeaders, lastStream: 0, &out)
                return false
            }
            bodies[id, default: []] += d
            guard (bodies[id]?.count ?? 0) <= configuration.maxResponseBytes else {
                fail(.enhanceYourCalm, .responseBodyTooLarge(limit: configuration.maxResponseBytes), lastStream: 0, &out)
                return false
            }
        }
        guard frame.flags.contains(.endStream), let response = headers[id] else { return true }
        let body = bodies[id] ?? []
        out.message(.responseReceived(HTTP2Message.text(response, body: body), stream: id))
        responses.append((id, response, body))
        if id % 2 == 1 {
            responsesCompleted += 1
            openRequests[id] = nil
        } else {
            pushesCompleted += 1
        }
        finished.insert(id)
        streamUnacknowledged[id] = nil
        return true
    }
}
