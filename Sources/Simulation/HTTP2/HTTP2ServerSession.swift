import TLSEngine

/// The server end of one HTTP/2 connection (RFC 9113) as a value: bytes in (what TLS delivered),
/// bytes out (what to send) and events for the trace. No I/O: `tlslab serve` feeds it the
/// decrypted application data of a real client (curl, a browser) and encrypts what it returns.
///
/// It reads the client's preface and SETTINGS, answers with its own SETTINGS and the ACK, answers
/// PING, keeps both flow-control windows (§5.2), assembles each request's header block (HEADERS +
/// CONTINUATION, HPACK-decoded with its own dynamic table) and body, and answers every request that
/// ends (END_STREAM) with the response `respond` gives. After the first response it ends the
/// connection the way HTTP/2 does: GOAWAY NO_ERROR naming the last stream it processed (§6.8).
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
    /// The most request header and body octets accepted, so that a client cannot make us hold more.
    public var maxRequestBytes = 1 << 20

    /// The settings this server announces: no push from it, at most 100 streams, the default window.
    public static let settings: [(UInt16, UInt32)] = [
        (HTTP2Setting.maxConcurrentStreams.rawValue, HTTP2Defaults.maxConcurrentStreams),
        (HTTP2Setting.initialWindowSize.rawValue, UInt32(HTTP2Defaults.initialWindowSize)),
    ]

    public init(inadequateSecurity: String? = nil,
                respond: @escaping @Sendable (_ request: [HPACKHeaderField], _ body: [UInt8]) -> (fields: [HPACKHeaderField], body: [UInt8])) {
        self.inadequateSecurity = inadequateSecurity
        self.respond = respond
    }

    /// Why a TLS connection is not good enough for HTTP/2 (RFC 9113 §9.2): nil when it is.
    public static func inadequateSecurity(version: ProtocolVersion?, suite: CipherSuite?) -> String? {
        Run.inadequateSecurity(version: version, suite: suite)
    }

    public var isClosed: Bool { if case .closed = state { true } else { false } }

    /// Takes what the client sent (any split) and returns what to send back.
    public mutating func receive(_ bytes: [UInt8]) -> Output {
        var out = Output()
        guard !isClosed else { return out }
        buffer += bytes
        guard buffer.count <= maxRequestBytes + 65_536 else {
            fail(.enhanceYourCalm, "the client sent more than \(maxRequestBytes) octets without a complete request", &out)
            return out
        }
        if state == .awaitingPreface {
            let preface = HTTP2Frame.clientPreface
            let have = min(buffer.count, preface.count)
            guard buffer.prefix(have).elementsEqual(preface.prefix(have)) else {
                fail(.protocolError, "the connection did not start with the HTTP/2 client preface (RFC 9113 §3.4)", &out)
                return out
            }
            guard buffer.count >= preface.count else { return out }
            buffer.removeFirst(preface.count)
            out.events.append(.prefaceReceived)
            // The server's preface: its SETTINGS, the first frame it sends (§3.4).
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings(Self.settings))), &out)
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
                fail(error.code, "\(error)", &out)
                return out
            }
            guard let (frame, consumed) = decoded else { break }
            buffer.removeFirst(consumed)
            handle(frame, &out)
        }
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
                guard let summary = decodeBlock(block, stream: stream, &out) else { return }
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame, hpack: summary)))
                if frame.flags.contains(.endStream) { answer(stream, &out) }
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
            guard open.block.count <= maxRequestBytes else {
                fail(.enhanceYourCalm, "a header block beyond \(maxRequestBytes) octets", &out)
                return
            }
            if frame.flags.contains(.endHeaders) {
                continuing = nil
                guard let summary = decodeBlock(open.block, stream: open.stream, &out) else { return }
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame, hpack: summary)))
                if open.endStream { answer(open.stream, &out) }
            } else {
                continuing = open
                out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            }
            return
        case .data(let d):
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            guard headers[frame.streamID] != nil else {
                fail(.streamClosed, "DATA on stream \(frame.streamID), which has no open request (RFC 9113 §6.1)", &out)
                return
            }
            let counted = frame.payload.encoded.count
            bodies[frame.streamID, default: []] += d
            guard bodies[frame.streamID, default: []].count <= maxRequestBytes else {
                fail(.enhanceYourCalm, "a request body beyond \(maxRequestBytes) octets", &out)
                return
            }
            // Give the window back once half of it is used (both the connection's and the stream's).
            unacknowledged += counted
            if unacknowledged >= HTTP2Defaults.initialWindowSize / 2 {
                send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .windowUpdate(UInt32(unacknowledged)))), &out)
                if !frame.flags.contains(.endStream) {
                    send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: frame.streamID, payload: .windowUpdate(UInt32(unacknowledged)))), &out)
                }
                unacknowledged = 0
            }
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

    private mutating func decodeBlock(_ block: [UInt8], stream: UInt32, _ out: inout Output) -> HPACKBlockSummary? {
        do {
            let (fields, summary) = try decoder.decode(block)
            headers[stream] = fields
            return summary
        } catch {
            fail(.compressionError, "the header block on stream \(stream) does not decode: \(error) (RFC 9113 §4.3)", &out)
            return nil
        }
    }

    /// A request ended: its response (HEADERS, DATA within the windows); then, once every DATA has
    /// gone, GOAWAY NO_ERROR — this server answers one request per connection, as its HTTP/1.1 side does.
    private mutating func answer(_ stream: UInt32, _ out: inout Output) {
        let fields = headers[stream] ?? []
        let body = bodies[stream] ?? []
        out.requests.append(HTTP2Message.text(fields, body: body))
        let response = respond(fields, body)
        out.responses.append(HTTP2Message.text(response.fields, body: response.body))
        let (block, summary) = encoder.encode(response.fields)
        streamSendWindows[stream] = streamSendWindows[stream] ?? peerInitialWindow
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: stream, flags: response.body.isEmpty ? [.endHeaders, .endStream] : .endHeaders,
                                               payload: .headers(block: block, priority: nil)), hpack: summary), &out)
        if !response.body.isEmpty { pending.append((stream, response.body[...])) }
        answered = max(answered, stream)
        flush(&out)
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
        guard answered > 0, pending.isEmpty, !isClosed else { return }
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: answered, errorCode: HTTP2ErrorCode.noError.rawValue, debug: []))), &out)
        state = .closed(.noError)
    }

    private mutating func send(_ trace: HTTP2FrameTrace, _ out: inout Output) {
        out.bytes += trace.frame.encoded
        out.events.append(.frameSent(trace))
    }

    /// A connection error (§5.4.1): GOAWAY with the code and the last stream processed, then stop.
    private mutating func fail(_ code: HTTP2ErrorCode, _ why: String, _ out: inout Output) {
        out.events.append(.connectionError(code, why))
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: answered, errorCode: code.rawValue, debug: Array(why.utf8.prefix(256))))), &out)
        state = .closed(code)
    }
}
