/// What both ends do with frames: read them whole (header blocks assembled and HPACK-decoded),
/// write header blocks, apply the peer's SETTINGS, and keep both directions' flow control.
extension HTTP2Connection {
    /// The frames now whole in the buffer, each traced as received (header blocks decoded with this
    /// side's HPACK decoder; the frame that ends a block carries its summary). Nil after a
    /// connection error: a malformed frame or header block, a frame out of place (§3.4, §6.10).
    mutating func receiveFrames(_ out: inout Output) -> [(frame: HTTP2Frame, fields: [HPACKHeaderField]?)]? {
        var frames: [(HTTP2Frame, [HPACKHeaderField]?)] = []
        var rest = ArraySlice(buffer)
        defer { buffer = Array(rest) }
        while true {
            let decoded: (frame: HTTP2Frame, consumed: Int)?
            do {
                decoded = try HTTP2Frame.decode(rest)
            } catch {
                fail(error.code, .malformedFrame(error), lastStream: role == .server ? headers.keys.max() ?? 0 : 0, &out)
                return nil
            }
            guard let (frame, used) = decoded else { break }
            rest = rest.dropFirst(used)
            if !peerSettingsReceived {
                // §3.4: the peer's connection preface ends with its SETTINGS, its first frame.
                guard case .settings = frame.payload, !frame.flags.contains(.ack) else {
                    out.event(.frameReceived(HTTP2FrameTrace(frame: frame)))
                    fail(.protocolError, .firstFrameNotSettings(peer: role == .server ? .client : .server, frameType: frame.typeName), &out)
                    return nil
                }
                peerSettingsReceived = true
            }
            var block: [UInt8]?
            var blockFrame = frame
            switch frame.payload {
            case .headers(let b, _), .pushPromise(_, let b):
                guard pendingBlock == nil else {
                    out.event(.frameReceived(HTTP2FrameTrace(frame: frame)))
                    fail(.protocolError, .frameInsideHeaderBlock(frameType: frame.typeName), lastStream: 0, &out)
                    return nil
                }
                if role == .server, frame.type == .headers, let why = newStreamProblem(frame.streamID) {
                    out.event(.frameReceived(HTTP2FrameTrace(frame: frame)))
                    fail(.protocolError, why, &out)
                    return nil
                }
                if frame.flags.contains(.endHeaders) { block = b } else { pendingBlock = (frame, b) }
            case .continuation(let b):
                guard var pending = pendingBlock, pending.frame.streamID == frame.streamID else {
                    out.event(.frameReceived(HTTP2FrameTrace(frame: frame)))
                    fail(.protocolError, .continuationWithoutHeaderBlock, lastStream: 0, &out)
                    return nil
                }
                pending.block += b
                // Far beyond what this side accepts the block is not even held (it could not be used).
                if let limit = headerBlockLimit, pending.block.count > limit {
                    out.event(.frameReceived(HTTP2FrameTrace(frame: frame)))
                    fail(.enhanceYourCalm, .headerBlockTooLarge(limit: limit), &out)
                    return nil
                }
                pendingBlock = pending
                if frame.flags.contains(.endHeaders) {
                    block = pending.block
                    blockFrame = pending.frame
                    pendingBlock = nil
                }
            default:
                if pendingBlock != nil {
                    out.event(.frameReceived(HTTP2FrameTrace(frame: frame)))
                    fail(.protocolError, .frameInsideHeaderBlock(frameType: frame.typeName), lastStream: 0, &out)
                    return nil
                }
            }
            guard let block else {
                out.event(.frameReceived(HTTP2FrameTrace(frame: frame)))
                if frame.type != .continuation, !(frame.type == .headers || frame.type == .pushPromise) { frames.append((frame, nil)) }
                continue
            }
            do {
                let (fields, summary) = try decoder.decode(block, maxListSize: headerListLimit)
                out.event(.frameReceived(HTTP2FrameTrace(frame: frame, hpack: summary)))
                if let limit = summary.discardedBeyond {
                    // RFC 9113 §10.5.1: the block was processed (the table is in step) but its list not kept.
                    switch role {
                    case .client:
                        // "A client can discard responses that it cannot process": this one ends here.
                        fail(.enhanceYourCalm, .responseHeaderListTooLarge(limit: limit), lastStream: 0, &out)
                        return nil
                    case .server:
                        // Answered 431 (RFC 6585 §5); a client that keeps sending such blocks is
                        // making this side decode for nothing (§10.5: ENHANCE_YOUR_CALM).
                        oversizeHeaderLists += 1
                        guard oversizeHeaderLists <= Self.oversizeHeaderListsAllowed else {
                            fail(.enhanceYourCalm, .repeatedOversizeHeaderLists(count: oversizeHeaderLists, limit: limit), &out)
                            return nil
                        }
                        oversizeStreams.insert(blockFrame.streamID)
                    }
                }
                frames.append((blockFrame, fields))
            } catch {
                out.event(.frameReceived(HTTP2FrameTrace(frame: frame)))
                fail(error.http2ErrorCode, .compression(error), lastStream: 0, &out)
                return nil
            }
        }
        return frames
    }

    /// The frames now whole (``receiveFrames(_:)``) with the connection-level ones handled (their
    /// answers added to `pending`): what is left for the role, in order; nil after a connection error.
    mutating func receiveStreamFrames(_ pending: inout [HTTP2FrameTrace], _ out: inout Output) -> [(frame: HTTP2Frame, fields: [HPACKHeaderField]?)]? {
        guard let frames = receiveFrames(&out) else { return nil }
        var left: [(frame: HTTP2Frame, fields: [HPACKHeaderField]?)] = []
        for (frame, fields) in frames {
            var stop = false
            if handleConnectionFrame(frame, &pending, &out, stop: &stop) {
                if stop { return nil }
                continue
            }
            left.append((frame, fields))
        }
        return left
    }

    /// The largest header list this side keeps from one block (RFC 9113 §6.5.2's size): the
    /// server's SETTINGS_MAX_HEADER_LIST_SIZE, the client's limit on a response's.
    var headerListLimit: Int? {
        switch role {
        case .client: configuration.maxResponseHeaderListSize
        case .server: configuration.maxHeaderListSize
        }
    }

    /// Header lists over the limit a server answers 431 before it ends the connection with
    /// ENHANCE_YOUR_CALM: each costs a whole block's decoding for a request it cannot serve.
    static let oversizeHeaderListsAllowed = 4

    /// The largest header block this side holds while CONTINUATION frames add to it.
    var headerBlockLimit: Int? {
        switch role {
        case .client: configuration.maxResponseBytes
        case .server: configuration.maxHeaderListSize.map { 16 * $0 + 65_536 }
        }
    }

    /// Server: why HEADERS on `stream` may not open it or continue it (RFC 9113 §5.1.1), nil when fine:
    /// a new stream is odd and above every stream the client opened; HEADERS on an older one are
    /// trailers, only on a stream still open.
    mutating func newStreamProblem(_ stream: UInt32) -> HTTP2Problem? {
        if stream > highestStream {
            guard stream % 2 == 1 else {
                return .evenNewStream(stream)
            }
            highestStream = stream
            return nil
        }
        guard headers[stream] != nil || refusedStreams.contains(stream) || finished.contains(stream) else {
            return .streamNotOpen(stream, highest: highestStream)
        }
        return nil
    }

    /// A header block as one HEADERS (or PUSH_PROMISE, when `promised` is set) frame and as many
    /// CONTINUATION frames as the peer's SETTINGS_MAX_FRAME_SIZE needs (RFC 9113 §4.2, §6.2,
    /// §6.10): END_HEADERS only on the last, END_STREAM (HEADERS only) on the first. The HPACK
    /// summary goes with the first frame.
    func headerBlockFrames(stream: UInt32, block: [UInt8], summary: HPACKBlockSummary, endStream: Bool,
                           promised: UInt32? = nil) -> [HTTP2FrameTrace] {
        let maxFrameSize = peerMaxFrameSize
        // PUSH_PROMISE spends 4 octets of its payload on the promised stream ID (§6.6).
        let firstSize = max(1, maxFrameSize - (promised == nil ? 0 : 4))
        let first = Array(block.prefix(firstSize))
        var rest = block.dropFirst(firstSize)
        var flags: HTTP2Flags = rest.isEmpty ? .endHeaders : []
        if endStream, promised == nil { flags.insert(.endStream) }
        let payload: HTTP2Frame.Payload = promised.map { .pushPromise(promisedStreamID: $0, block: first) } ?? .headers(block: first, priority: nil)
        var frames = [HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, flags: flags, payload: payload), hpack: summary)]
        while !rest.isEmpty {
            let chunk = Array(rest.prefix(max(1, maxFrameSize)))
            rest = rest.dropFirst(chunk.count)
            frames.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, flags: rest.isEmpty ? .endHeaders : [], payload: .continuation(chunk))))
        }
        return frames
    }

    /// The peer's SETTINGS as they concern what this side sends (RFC 9113 §6.5.2, §6.9.2): a new
    /// initial window changes every open stream's window by the difference.
    mutating func applyPeerSettings(_ list: [(UInt16, UInt32)]) {
        for (id, value) in list {
            switch HTTP2Setting(rawValue: id) {
            case .enablePush?: peerAllowsPush = value == 1
            case .initialWindowSize?:
                let delta = Int(value) - peerInitialWindow
                peerInitialWindow = Int(value)
                for key in streamSendWindows.keys { streamSendWindows[key, default: 0] += delta }
            case .maxFrameSize?: peerMaxFrameSize = Int(value)
            case .maxConcurrentStreams?: peerMaxConcurrentStreams = Int(value)
            case .headerTableSize?: encoder.setMaxTableSize(min(Int(value), 4096))
            default: break
            }
        }
    }

    /// A WINDOW_UPDATE from the peer: more that this side may send; false after a connection error.
    mutating func applyWindowUpdate(_ increment: UInt32, stream: UInt32, _ out: inout Output) -> Bool {
        if stream == 0 {
            sendWindow += Int(increment)
        } else {
            streamSendWindows[stream, default: peerInitialWindow] += Int(increment)
        }
        guard sendWindow <= 0x7fff_ffff, (streamSendWindows[stream] ?? 0) <= 0x7fff_ffff else {
            fail(.flowControlError, .windowAboveMaximum, lastStream: 0, &out)
            return false
        }
        return true
    }

    /// Flow control on receipt (§6.9): DATA beyond the connection's or the stream's window is a
    /// FLOW_CONTROL_ERROR (false); what fits is counted against both windows until given back.
    mutating func receiveData(_ frame: HTTP2Frame, count: Int, _ out: inout Output) -> Bool {
        let streamWindow = streamReceiveWindows[frame.streamID] ?? HTTP2Defaults.initialWindowSize
        guard count <= receiveWindow, count <= streamWindow else {
            fail(.flowControlError, .dataBeyondWindow, lastStream: 0, &out)
            return false
        }
        receiveWindow -= count
        streamReceiveWindows[frame.streamID] = streamWindow - count
        unacknowledged += count
        if !frame.flags.contains(.endStream) { streamUnacknowledged[frame.streamID, default: 0] += count }
        return true
    }

    /// DATA in turn, stream by stream, at most SETTINGS_MAX_FRAME_SIZE octets per frame and never
    /// beyond the connection's or the stream's flow-control window (RFC 9113 §5.2, §6.9): no body
    /// waits for another to finish (no head-of-line blocking at the HTTP level); what the windows
    /// do not allow waits for the peer's WINDOW_UPDATE.
    mutating func dataWithinWindows() -> [HTTP2FrameTrace] {
        var frames: [HTTP2FrameTrace] = []
        var progress = true
        while progress, !pendingData.isEmpty {
            progress = false
            var next: [(stream: UInt32, body: ArraySlice<UInt8>)] = []
            for (id, rest) in pendingData {
                let streamWindow = streamSendWindows[id] ?? peerInitialWindow
                let size = min(rest.count, peerMaxFrameSize, sendWindow, streamWindow)
                guard size > 0 || rest.isEmpty else {
                    next.append((id, rest))
                    continue
                }
                let chunk = rest.prefix(size)
                let remaining = rest.dropFirst(size)
                sendWindow -= size
                streamSendWindows[id] = streamWindow - size
                frames.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: id, flags: remaining.isEmpty ? .endStream : [], payload: .data(Array(chunk)))))
                progress = true
                if remaining.isEmpty { openStreams.remove(id) } else { next.append((id, remaining)) }
            }
            pendingData = next
        }
        return frames
    }

    /// Consumed window given back once half of it is used up (as common implementations do, so
    /// that small bodies need no WINDOW_UPDATE): the connection's, and each open stream's.
    mutating func windowUpdates() -> [HTTP2FrameTrace] {
        var frames: [HTTP2FrameTrace] = []
        let half = HTTP2Defaults.initialWindowSize / 2
        if unacknowledged >= half {
            frames.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .windowUpdate(UInt32(unacknowledged)))))
            receiveWindow += unacknowledged
            unacknowledged = 0
        }
        for (id, consumed) in streamUnacknowledged.sorted(by: { $0.key < $1.key }) where consumed >= half {
            frames.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: id, payload: .windowUpdate(UInt32(consumed)))))
            streamReceiveWindows[id, default: HTTP2Defaults.initialWindowSize] += consumed
            streamUnacknowledged[id] = 0
        }
        return frames
    }

    /// The connection-level frames both ends handle the same way (SETTINGS, PING, WINDOW_UPDATE,
    /// GOAWAY); true when `frame` was one of them. `stop` is set after a connection error.
    mutating func handleConnectionFrame(_ frame: HTTP2Frame, _ pending: inout [HTTP2FrameTrace], _ out: inout Output, stop: inout Bool) -> Bool {
        switch frame.payload {
        case .settings(let list) where !frame.flags.contains(.ack):
            applyPeerSettings(list)
            pending.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([]))))
        case .settings:
            settingsAcknowledged = true
        case .ping(let opaque) where !frame.flags.contains(.ack):
            pending.append(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .ping(opaque))))
        case .windowUpdate(let increment):
            stop = !applyWindowUpdate(increment, stream: frame.streamID, &out)
        case .goaway(let last, let code, let debug):
            goawayReceived = true
            peerGoaway = (last, code, String(decoding: debug, as: UTF8.self))
            // A client traces the server's error as the server's (the server's own trace has it as its own).
            if role == .client, code != HTTP2ErrorCode.noError.rawValue {
                out.event(.peerConnectionError(HTTP2ErrorCode(rawValue: code) ?? .internalError,
                                               debug.isEmpty ? "last stream \(last)" : String(decoding: debug, as: UTF8.self)))
            }
        default:
            return false
        }
        return true
    }
}
