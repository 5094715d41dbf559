/// The server end: the client's preface, its requests (each answered once it ends, responses
/// interleaved within the windows), pushes, and the requests it refuses.
extension HTTP2Connection {
    /// The frames this server sends in one write after reading what arrived: its SETTINGS (first
    /// time), ACKs, RST_STREAMs, then pushes promised, every response's HEADERS, their DATA in
    /// turn, WINDOW_UPDATEs, and GOAWAY when configured and everything is answered.
    mutating func serverReceive(_ out: inout Output) {
        var pending: [HTTP2FrameTrace] = []
        let ownSettings = HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings(settings)))
        if !started {
            let preface = HTTP2Frame.clientPreface
            let have = min(buffer.count, preface.count)
            guard buffer.prefix(have).elementsEqual(preface.prefix(have)) else {
                // The server's preface (SETTINGS) is still its first frame (§3.4), then the GOAWAY.
                let text = String(decoding: buffer.prefix(24), as: UTF8.self).filter { $0.isASCII && !$0.isNewline }
                let looksHTTP1 = ["GET ", "POST ", "HEAD "].contains { buffer.starts(with: Array($0.utf8)) }
                out.event(.frameSent(ownSettings))
                fail(.protocolError, .notPreface(began: text, looksHTTP1: looksHTTP1), lastStream: 0, prefix: ownSettings.frame.encoded, &out)
                return
            }
            guard have == preface.count else { return }
            buffer.removeFirst(preface.count)
            started = true
            out.event(.prefaceReceived)
            // The server's connection preface: its SETTINGS (§3.4).
            if let why = configuration.inadequateSecurity {
                out.event(.frameSent(ownSettings))
                fail(.inadequateSecurity, .inadequateSecurity(why), prefix: ownSettings.frame.encoded, &out)
                return
            }
            pending.append(ownSettings)
        }
        guard let frames = receiveStreamFrames(&pending, &out) else { return }
        var completed: [UInt32] = []
        for (frame, fields) in frames {
            let id = frame.streamID
            switch frame.payload {
            case .pushPromise:
                fail(.protocolError, .pushPromiseFromClient, &out)
                return
            case .rstStream:
                // The client gave up on this stream: nothing more is sent on it.
                pendingData.removeAll { $0.stream == id }
                openStreams.remove(id)
                finished.insert(id)
            case .headers where id % 2 == 1 && headers[id] == nil && !finished.contains(id)
                && openStreams.count >= Int(configuration.maxConcurrentStreams):
                // RFC 9113 §5.1.2, §8.7: a stream beyond the advertised limit is refused; the client
                // may retry the request, which was not processed.
                refusedStreams.insert(id)
                refusalsOutstanding += 1
                pending.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: id, payload: .rstStream(HTTP2ErrorCode.refusedStream.rawValue))))
            case _ where refusedStreams.contains(id) || finished.contains(id):
                // Frames in flight on a refused or answered stream are ignored (§5.4.2); DATA still
                // counts against the connection's window.
                if case .data(let d) = frame.payload, !receiveData(frame, count: d.count, &out) { return }
            case .data(let d):
                guard headers[id] != nil else {
                    fail(.streamClosed, .dataWithoutRequest(stream: id), &out)
                    return
                }
                guard receiveData(frame, count: d.count, &out) else { return }
                bodies[id, default: []] += d
                if let limit = configuration.maxBodySize, (bodies[id]?.count ?? 0) > limit {
                    refuse(id, status: "413", why: .bodyTooLarge(limit: limit), &pending, &out)
                    continue
                }
                if frame.flags.contains(.endStream) { requestEnded(id, &completed, &pending, &out) }
            case .headers:
                guard let fields else { continue }
                if headers[id] == nil {
                    openStreams.insert(id)
                    // A new stream after a refusal: take it for the refused request coming again (§8.7).
                    refusalsOutstanding = max(0, refusalsOutstanding - 1)
                    headers[id] = fields
                    // SETTINGS_MAX_HEADER_LIST_SIZE counts each field as name + value + 32 octets (§6.5.2).
                    let listSize = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
                    if let limit = configuration.maxHeaderListSize, oversizeStreams.remove(id) != nil || listSize > limit {
                        refuse(id, status: "431", why: .headerFieldsTooLarge(limit: limit), &pending, &out)
                        continue
                    }
                }
                // (A later header block on an open stream is its trailers: the request stays as it was.)
                oversizeStreams.remove(id)
                if frame.flags.contains(.endStream) { requestEnded(id, &completed, &pending, &out) }
            default:
                break  // PRIORITY, unknown types (§5.5: ignored)
            }
        }
        pending += responses(to: completed, &out)
        pending += dataWithinWindows()
        pending += windowUpdates()
        if configuration.goAwayWhenAnswered, lastProcessed > 0, pendingData.isEmpty, pendingBlock == nil, openStreams.isEmpty, !goawaySent,
           refusalsOutstanding == 0 || goawayReceived {
            // This server ends the connection once the requests it received are answered, the
            // refused ones included once they came again (§6.8).
            goawaySent = true
            pending.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: lastProcessed, errorCode: HTTP2ErrorCode.noError.rawValue, debug: []))))
        }
        out.send(pending)
    }

    /// A request ended (END_STREAM): answered with the others that ended now, unless malformed —
    /// a stream error PROTOCOL_ERROR (RFC 9113 §8.1.1), that stream reset, the connection goes on.
    mutating func requestEnded(_ id: UInt32, _ completed: inout [UInt32], _ pending: inout [HTTP2FrameTrace], _ out: inout Output) {
        streamUnacknowledged[id] = nil
        let request = headers[id] ?? []
        let body = bodies[id] ?? []
        lastProcessed = max(lastProcessed, id)
        if let why = HTTP2Message.malformedRequest(request, body: body) {
            out.event(.streamError(id, .protocolError, .malformedRequest(why)))
            pending.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: id, payload: .rstStream(HTTP2ErrorCode.protocolError.rawValue))))
            openStreams.remove(id)
            finished.insert(id)
            return
        }
        out.message(.requestReceived(HTTP2Message.text(request, body: body)))
        completed.append(id)
    }

    /// The responses to the streams just completed, interleaved: pushes promised first (on
    /// stream 1), then every response's HEADERS; their DATA goes in turn as the windows allow.
    mutating func responses(to streams: [UInt32], _ out: inout Output) -> [HTTP2FrameTrace] {
        guard !streams.isEmpty else { return [] }
        var frames: [HTTP2FrameTrace] = []
        var answers = streams
        if streams.contains(1), !configuration.pushPaths.isEmpty, peerAllowsPush, let parent = headers[1] {
            // Each distinct path once: a second PUSH_PROMISE for the same request would be a duplicate push.
            var seen: Set<String> = []
            for path in configuration.pushPaths where seen.insert(path).inserted {
                let promisedID = nextPushStream
                nextPushStream += 2
                let request = HTTP2Message.pushedRequestFields(path: path, like: parent)
                headers[promisedID] = request
                let (block, summary) = encoder.encode(request)
                frames += headerBlockFrames(stream: 1, block: block, summary: summary, endStream: false, promised: promisedID)
                answers.append(promisedID)
            }
        }
        var bodiesToSend: [(stream: UInt32, body: ArraySlice<UInt8>)] = []
        for id in answers {
            let (fields, body) = configuration.respond(headers[id] ?? [], bodies[id] ?? [])
            let (block, summary) = encoder.encode(fields)
            frames += headerBlockFrames(stream: id, block: block, summary: summary, endStream: body.isEmpty)
            out.message(.responseSent(HTTP2Message.text(fields, body: body)))
            finished.insert(id)
            if body.isEmpty { openStreams.remove(id) } else { bodiesToSend.append((id, ArraySlice(body))) }
        }
        pendingData += bodiesToSend
        return frames
    }

    /// Answers a request the server will not process with `status` (413, 431) and its reason as the
    /// body, ending the stream; what the client still sends on it is ignored.
    mutating func refuse(_ id: UInt32, status: String, why: HTTP2Problem, _ pending: inout [HTTP2FrameTrace], _ out: inout Output) {
        out.message(.requestReceived(HTTP2Message.text(headers[id] ?? [])))
        let body = Array((why.wireText + "\n").utf8)
        let fields = [HPACKHeaderField(":status", status), HPACKHeaderField("content-type", "text/plain; charset=utf-8"),
                      HPACKHeaderField("content-length", "\(body.count)")]
        out.message(.responseSent(HTTP2Message.text(fields, body: body)))
        let (block, summary) = encoder.encode(fields)
        pending += headerBlockFrames(stream: id, block: block, summary: summary, endStream: false)
        pendingData.append((id, ArraySlice(body)))
        lastProcessed = max(lastProcessed, id)
        finished.insert(id)
        bodies[id] = nil
        streamUnacknowledged[id] = nil
    }
}
