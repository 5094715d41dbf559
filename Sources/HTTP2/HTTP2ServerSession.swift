import TLSEngine

/// The server end of one HTTP/2 connection (RFC 9113) as a value: bytes in (what TLS delivered),
/// bytes out (what to send) and events for the trace. No I/O: `tlslab serve` feeds it the
/// decrypted application data of a real client (curl, a browser) and encrypts what it returns.
///
/// It reads the client's preface and SETTINGS, answers with its own SETTINGS and the ACK, answers
/// PING, keeps both flow-control windows (§5.2), assembles each request's header block (HEADERS +
/// CONTINUATION, HPACK-decoded with its own dynamic table) and body, and answers every request that
/// ends (END_STREAM) with the response `respond` gives — a malformed one with RST_STREAM
/// PROTOCOL_ERROR, one too large with 431 or 413. Once the requests it has received are answered it
/// ends the connection the way HTTP/2 does: GOAWAY NO_ERROR naming the last stream it processed (§6.8).
/// Malformed input ends the connection with GOAWAY and the error code RFC 9113 names.
public struct HTTP2ServerSession: Sendable {
    /// What one call returns: frames to send (already encoded) and what happened.
    public struct Output: Sendable {
        public var bytes: [UInt8] = []
        public var events: [HTTP2Event] = []
        /// Requests that ended in this call, as the trace shows them, and the responses sent.
        public var requests: [String] = []
        public var responses: [String] = []
    }

    public enum State: Sendable, Hashable {
        /// Waiting for the 24-octet client preface.
        case awaitingPreface
        /// The preface arrived; the next frame must be the client's SETTINGS (§3.4).
        case awaitingSettings
        case open
        /// GOAWAY sent (NO_ERROR after the answer, or a connection error): nothing more is read.
        case closed(HTTP2ErrorCode)
    }

    public private(set) var state: State = .awaitingPreface
    /// Refuses the connection with INADEQUATE_SECURITY after its preface when set (RFC 9113 §9.2).
    public let inadequateSecurity: String?
    private let respond: @Sendable (_ request: [HPACKHeaderField], _ body: [UInt8]) -> (fields: [HPACKHeaderField], body: [UInt8])
    private var buffer: [UInt8] = []
    private var decoder = HPACKDecoder()
    private var encoder = HPACKEncoder()
    /// A header block still missing CONTINUATION frames: its stream, octets so far, END_STREAM.
    private var continuing: (stream: UInt32, block: [UInt8], endStream: Bool)?
    private var headers: [UInt32: [HPACKHeaderField]] = [:]
    private var bodies: [UInt32: [UInt8]] = [:]
    private var highestStream: UInt32 = 0
    private var answered: UInt32 = 0
    /// Flow control: what the client still lets us send, and what it may still send us.
    private var sendWindow = HTTP2Defaults.initialWindowSize
    private var peerInitialWindow = HTTP2Defaults.initialWindowSize
    private var peerMaxFrameSize = HTTP2Frame.defaultMaxFrameSize
    private var streamSendWindows: [UInt32: Int] = [:]
    private var pending: [(stream: UInt32, body: ArraySlice<UInt8>)] = []
    private var unacknowledged = 0
    /// The largest request header block accepted (HPACK-encoded octets, and the decoded list as
    /// SETTINGS_MAX_HEADER_LIST_SIZE counts it); a larger one is answered 431 (RFC 6585 §5).
    public var maxHeaderBytes = 16_384
    /// The largest request body accepted; a larger one is answered 413 (RFC 9110 §15.5.14).
    public var maxBodyBytes = 1 << 20
    /// Streams whose request was refused with a status (413, 431) or reset as malformed: frames still
    /// in flight on them are read and ignored.
    private var finished: Set<UInt32> = []

    /// The settings this server announces: at most 100 streams, the default window, its header-list limit.
    public var settings: [(UInt16, UInt32)] {
        [(HTTP2Setting.maxConcurrentStreams.rawValue, HTTP2Defaults.maxConcurrentStreams),
         (HTTP2Setting.initialWindowSize.rawValue, UInt32(HTTP2Defaults.initialWindowSize)),
         (HTTP2Setting.maxHeaderListSize.rawValue, UInt32(clamping: maxHeaderBytes))]
    }

    public init(inadequateSecurity: String? = nil,
                respond: @escaping @Sendable (_ request: [HPACKHeaderField], _ body: [UInt8]) -> (fields: [HPACKHeaderField], body: [UInt8])) {
        self.inadequateSecurity = inadequateSecurity
        self.respond = respond
    }

    /// Why a TLS connection is not good enough for HTTP/2 (RFC 9113 §9.2): nil when it is.
    public static func inadequateSecurity(version: ProtocolVersion?, suite: CipherSuite?) -> String? {
        HTTP2OverTLS.inadequateSecurity(version: version, suite: suite)
    }

    public var isClosed: Bool { if case .closed = state { true } else { false } }

    /// Takes what the client sent (any split) and returns what to send back.
    public mutating func receive(_ bytes: [UInt8]) -> Output {
        var out = Output()
        guard !isClosed else { return out }
        buffer += bytes
        if state == .awaitingPreface {
            let preface = HTTP2Frame.clientPreface
            let have = min(buffer.count, preface.count)
            guard buffer.prefix(have).elementsEqual(preface.prefix(have)) else {
                // The server's preface (SETTINGS) is still its first frame (§3.4), then the GOAWAY.
                send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings(settings))), &out)
                let text = String(decoding: buffer.prefix(24), as: UTF8.self).filter { $0.isASCII && !$0.isNewline }
                let looksHTTP1 = buffer.starts(with: Array("GET ".utf8)) || buffer.starts(with: Array("POST ".utf8))
                    || buffer.starts(with: Array("HEAD ".utf8))
                fail(.protocolError, "the connection did not start with the HTTP/2 client preface (RFC 9113 §3.4): it began \"\(text)\""
                     + (looksHTTP1 ? ", an HTTP/1.x request although ALPN chose h2" : ""), &out)
                return out
            }
            guard buffer.count >= preface.count else { return out }
            buffer.removeFirst(preface.count)
            out.events.append(.prefaceReceived)
            // The server's preface: its SETTINGS, the first frame it sends (§3.4).
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings(settings))), &out)
            if let why = inadequateSecurity {
                fail(.inadequateSecurity, why, &out)
                return out
            }
            state = .awaitingSettings
        }
        while !isClosed {
            let decoded: (frame: HTTP2Frame, consumed: Int)?
            do {
                decoded = try HTTP2Frame.decode(buffer[...])
            } catch {
                fail(error.code, error.reason, &out)
                return out
            }
            guard let (frame, consumed) = decoded else { break }
            buffer.removeFirst(consumed)
            handle(frame, &out)
        }
        goAwayIfDone(&out)
        return out
    }

    // MARK: Frames

    private mutating func handle(_ frame: HTTP2Frame, _ out: inout Output) {
        if state == .awaitingSettings {
            guard case .settings = frame.payload, !frame.flags.contains(.ack) else {
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
                fail(.protocolError, "the client's first frame was \(frame.typeName), not SETTINGS (RFC 9113 §3.4)", &out)
                return
            }
            state = .open
        }
        if let (stream, _, _) = continuing {
            guard case .continuation = frame.payload, frame.streamID == stream else {
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
                fail(.protocolError, "a header block on stream \(stream) was not continued by CONTINUATION (RFC 9113 §6.10)", &out)
                return
            }
        }
        switch frame.payload {
        case .settings(let list) where !frame.flags.contains(.ack):
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            for (id, value) in list {
                switch HTTP2Setting(rawValue: id) {
                case .initialWindowSize?:
                    // §6.9.2: the change applies to every open stream's window.
                    let delta = Int(value) - peerInitialWindow
                    peerInitialWindow = Int(value)
                    for key in streamSendWindows.keys { streamSendWindows[key, default: 0] += delta }
                case .maxFrameSize?:
                    peerMaxFrameSize = Int(value)
                case .headerTableSize?:
                    encoder.setMaxTableSize(min(Int(value), 4096))
                default:
                    break
                }
            }
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([]))), &out)
            flush(&out)
            return
        case .ping(let opaque) where !frame.flags.contains(.ack):
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .ping(opaque))), &out)
            return
        case .windowUpdate(let increment):
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            if frame.streamID == 0 {
                guard sendWindow + Int(increment) <= 0x7fff_ffff else {
                    fail(.flowControlError, "WINDOW_UPDATE takes the connection window above 2^31-1 (RFC 9113 §6.9.1)", &out)
                    return
                }
                sendWindow += Int(increment)
            } else {
                streamSendWindows[frame.streamID] = min(streamSendWindows[frame.streamID, default: peerInitialWindow] + Int(increment), 0x7fff_ffff)
            }
            flush(&out)
            return
        case .goaway:
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            return
        case .headers(let block, _):
            let stream = frame.streamID
            guard stream % 2 == 1, stream > highestStream else {
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
                fail(.protocolError, "HEADERS opening stream \(stream): a client's new stream must be odd and above \(highestStream) (RFC 9113 §5.1.1)", &out)
                return
            }
            highestStream = stream
            if frame.flags.contains(.endHeaders) {
                headerBlockEnded(frame, block: block, stream: stream, endStream: frame.flags.contains(.endStream), &out)
            } else {
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
                continuing = (stream, block, frame.flags.contains(.endStream))
            }
            return
        case .continuation(let more):
            guard var open = continuing else {
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
                fail(.protocolError, "CONTINUATION without a HEADERS frame before it (RFC 9113 §6.10)", &out)
                return
            }
            open.block += more
            // Far beyond the advertised limit the block is not even held (it could not be answered).
            guard open.block.count <= 16 * maxHeaderBytes + 65_536 else {
                fail(.enhanceYourCalm, "a header block of more than \(16 * maxHeaderBytes + 65_536) octets", &out)
                return
            }
            if frame.flags.contains(.endHeaders) {
                continuing = nil
                headerBlockEnded(frame, block: open.block, stream: open.stream, endStream: open.endStream, &out)
            } else {
                continuing = open
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            }
            return
        case .data(let d):
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            let counted = frame.payload.encoded.count
            if finished.contains(frame.streamID) {
                // Answered already (413, 431, or reset): the octets still count against the connection window.
                giveBack(counted, stream: nil, &out)
                return
            }
            guard headers[frame.streamID] != nil else {
                fail(.streamClosed, "DATA on stream \(frame.streamID), which has no open request (RFC 9113 §6.1)", &out)
                return
            }
            bodies[frame.streamID, default: []] += d
            guard bodies[frame.streamID, default: []].count <= maxBodyBytes else {
                refuse(frame.streamID, status: "413", why: "request body larger than \(maxBodyBytes) bytes", &out)
                giveBack(counted, stream: nil, &out)
                return
            }
            giveBack(counted, stream: frame.flags.contains(.endStream) ? nil : frame.streamID, &out)
            if frame.flags.contains(.endStream) { answer(frame.streamID, &out) }
            return
        default:
            // SETTINGS and PING acknowledgements, PRIORITY, RST_STREAM, unknown types: nothing to do
            // (§5.5: unknown frame types are ignored).
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            if case .rstStream = frame.payload {
                headers[frame.streamID] = nil
                bodies[frame.streamID] = nil
                pending.removeAll { $0.stream == frame.streamID }
            }
        }
    }

    /// A request's whole header block (the frame that ended it is traced with its HPACK summary):
    /// decoded whatever its size, so that the dynamic table stays in step with the client's; a list
    /// beyond ``maxHeaderBytes`` is answered 431, a whole request (END_STREAM) is answered.
    private mutating func headerBlockEnded(_ frame: HTTP2Frame, block: [UInt8], stream: UInt32, endStream: Bool, _ out: inout Output) {
        let fields: [HPACKHeaderField], summary: HPACKBlockSummary
        do {
            (fields, summary) = try decoder.decode(block)
        } catch {
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            fail(.compressionError, "the header block on stream \(stream) does not decode: \(error) (RFC 9113 §4.3)", &out)
            return
        }
        headers[stream] = fields
        out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame, hpack: summary)))
        let listSize = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
        if block.count > maxHeaderBytes || listSize > maxHeaderBytes {
            refuse(stream, status: "431", why: "request header fields larger than \(maxHeaderBytes) bytes", &out)
        } else if endStream {
            answer(stream, &out)
        }
    }

    /// A request ended: its response (HEADERS, DATA within the windows); then, once every DATA has
    /// gone, GOAWAY NO_ERROR — this server answers one request per connection, as its HTTP/1.1 side does.
    private mutating func answer(_ stream: UInt32, _ out: inout Output) {
        guard !finished.contains(stream) else { return }
        let fields = headers[stream] ?? []
        let body = bodies[stream] ?? []
        if let why = Self.malformed(fields, body: body) {
            // A malformed request is a stream error (RFC 9113 §8.1.1): reset that stream only.
            out.requests.append(HTTP2Message.text(fields, body: body))
            out.events.append(.streamError(stream, .protocolError, why))
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, payload: .rstStream(HTTP2ErrorCode.protocolError.rawValue))), &out)
            finished.insert(stream)
            answered = max(answered, stream)
            return
        }
        out.requests.append(HTTP2Message.text(fields, body: body))
        let response = respond(fields, body)
        out.responses.append(HTTP2Message.text(response.fields, body: response.body))
        let (block, summary) = encoder.encode(response.fields)
        streamSendWindows[stream] = streamSendWindows[stream] ?? peerInitialWindow
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, flags: response.body.isEmpty ? [.endHeaders, .endStream] : .endHeaders,
                                               payload: .headers(block: block, priority: nil)), hpack: summary), &out)
        if !response.body.isEmpty { pending.append((stream, response.body[...])) }
        answered = max(answered, stream)
        finished.insert(stream)
        flush(&out)
    }

    /// Answers a request the server will not process with `status` (413, 431) and its reason as the
    /// body, ending the stream; what the client still sends on it is ignored.
    private mutating func refuse(_ stream: UInt32, status: String, why: String, _ out: inout Output) {
        guard !finished.contains(stream) else { return }
        let fields = headers[stream] ?? []
        out.requests.append(HTTP2Message.text(fields))
        let body = Array((why + "\n").utf8)
        let response = [HPACKHeaderField(":status", status), HPACKHeaderField("content-type", "text/plain; charset=utf-8"),
                        HPACKHeaderField("content-length", "\(body.count)")]
        out.responses.append(HTTP2Message.text(response, body: body))
        let (block, summary) = encoder.encode(response)
        streamSendWindows[stream] = streamSendWindows[stream] ?? peerInitialWindow
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, flags: .endHeaders, payload: .headers(block: block, priority: nil)), hpack: summary), &out)
        pending.append((stream, body[...]))
        answered = max(answered, stream)
        finished.insert(stream)
        bodies[stream] = nil
        flush(&out)
    }

    /// Gives flow-control credit back once half a window is used (the connection's, and the stream's
    /// while it is still open).
    private mutating func giveBack(_ count: Int, stream: UInt32?, _ out: inout Output) {
        unacknowledged += count
        guard unacknowledged >= HTTP2Defaults.initialWindowSize / 2 else { return }
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .windowUpdate(UInt32(unacknowledged)))), &out)
        if let stream {
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, payload: .windowUpdate(UInt32(unacknowledged)))), &out)
        }
        unacknowledged = 0
    }

    /// Why a request is malformed (RFC 9113 §8.1.1, §8.2.1, §8.3.1), nil when it is well-formed:
    /// uppercase field names, pseudo-header fields after regular ones or unknown, a missing :method,
    /// :scheme or :path (CONNECT aside), and a content-length the body does not match.
    public static func malformed(_ fields: [HPACKHeaderField], body: [UInt8]) -> String? {
        var regularSeen = false
        var pseudo: [String: String] = [:]
        for field in fields {
            if field.name.contains(where: { $0.isUppercase }) { return "the field name '\(field.name)' has uppercase letters (§8.2.1)" }
            if field.name.hasPrefix(":") {
                guard !regularSeen else { return "the pseudo-header field \(field.name) follows a regular field (§8.3)" }
                guard [":method", ":scheme", ":authority", ":path"].contains(field.name) else {
                    return "\(field.name) is not a request pseudo-header field (§8.3.1)"
                }
                guard pseudo[field.name] == nil else { return "\(field.name) appears twice (§8.3.1)" }
                pseudo[field.name] = field.value
            } else {
                regularSeen = true
                if field.name != "host", HTTP2Message.connectionSpecific.contains(field.name) {
                    return "the connection-specific field '\(field.name)' (§8.2.2)"
                }
            }
        }
        if pseudo[":method"] != "CONNECT" {
            for name in [":method", ":scheme", ":path"] where (pseudo[name] ?? "").isEmpty {
                return "the request has no \(name) (§8.3.1)"
            }
        }
        let lengths = fields.filter { $0.name == "content-length" }.map(\.value)
        if let length = lengths.first {
            guard lengths.allSatisfy({ $0 == length }), let n = Int(length), n >= 0 else { return "content-length '\(length)' is not one number (§8.1.1)" }
            guard n == body.count else { return "content-length \(n) but a body of \(body.count) bytes (§8.1.1)" }
        }
        return nil
    }

    /// Sends what the windows allow of the waiting bodies, in order; GOAWAY once all have gone.
    private mutating func flush(_ out: inout Output) {
        while let first = pending.first, !isClosed {
            let window = min(sendWindow, streamSendWindows[first.stream] ?? peerInitialWindow)
            guard window > 0 else { return }
            let size = min(first.body.count, window, peerMaxFrameSize)
            let chunk = Array(first.body.prefix(size))
            let last = size == first.body.count
            sendWindow -= size
            streamSendWindows[first.stream, default: peerInitialWindow] -= size
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: first.stream, flags: last ? .endStream : [], payload: .data(chunk))), &out)
            if last { pending.removeFirst() } else { pending[0].body = first.body.dropFirst(size) }
        }
    }

    /// After a call's frames: once something was answered, every request received is answered and
    /// every body has gone, GOAWAY NO_ERROR with the last stream answered — this server ends the
    /// connection after the requests of its first flight, as its HTTP/1.1 side answers one.
    private mutating func goAwayIfDone(_ out: inout Output) {
        guard answered > 0, pending.isEmpty, !isClosed, continuing == nil,
              headers.keys.allSatisfy({ finished.contains($0) }) else { return }
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: answered, errorCode: HTTP2ErrorCode.noError.rawValue, debug: []))), &out)
        state = .closed(.noError)
    }

    private mutating func send(_ trace: HTTP2FrameTrace, _ out: inout Output) {
        out.bytes += trace.frame.encoded
        out.events.append(.frameSent(trace))
    }

    /// Ends the connection from the server's side (an idle timeout): GOAWAY NO_ERROR naming the last
    /// stream processed, so the client knows no later request was lost (RFC 9113 §6.8); nothing more
    /// is read. Nothing to send when GOAWAY already went.
    public mutating func goAway() -> Output {
        var out = Output()
        guard !isClosed else { return out }
        // Before the client's preface the server's own (SETTINGS) has not gone yet: it is still first (§3.4).
        if state == .awaitingPreface { send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings(settings))), &out) }
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: answered, errorCode: HTTP2ErrorCode.noError.rawValue, debug: []))), &out)
        state = .closed(.noError)
        return out
    }

    /// A connection error (§5.4.1): GOAWAY with the code and the last stream processed, then stop.
    private mutating func fail(_ code: HTTP2ErrorCode, _ why: String, _ out: inout Output) {
        out.events.append(.connectionError(code, why))
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: answered, errorCode: code.rawValue, debug: Array(why.utf8.prefix(256))))), &out)
        state = .closed(code)
    }
}
