import TLSEngine

/// The client end of one HTTP/2 connection (RFC 9113) as a value, for `tlslab connect`: it sends
/// the preface, its SETTINGS (no push) and one request on stream 1 (HEADERS, CONTINUATION beyond
/// the server's frame size, the body as DATA within the server's windows), then reads the server's
/// frames — SETTINGS (acknowledged), PING (answered), WINDOW_UPDATE, the response's HEADERS (+
/// CONTINUATION, HPACK-decoded; 1xx informational blocks skipped) and DATA (window given back) —
/// until the response ends, and closes with GOAWAY NO_ERROR. No I/O.
public struct HTTP2ClientSession: Sendable {
    public struct Output: Sendable {
        public var bytes: [UInt8] = []
        public var events: [HTTP2Event] = []
    }

    public enum State: Sendable, Hashable {
        case idle
        /// The request is out; waiting for the whole response.
        case awaitingResponse
        /// The response ended (GOAWAY NO_ERROR sent).
        case done
        /// The server reset the stream or ended the connection with an error, or sent something
        /// malformed (then this side sent GOAWAY with the code).
        case failed(HTTP2ErrorCode, String)
    }

    public private(set) var state: State = .idle
    /// The final response: its fields (`:status` first) and body, once the stream ends.
    public private(set) var responseFields: [HPACKHeaderField]?
    public private(set) var responseBody: [UInt8] = []
    public var isFinished: Bool {
        switch state {
        case .done, .failed: return true
        case .idle, .awaitingResponse: return false
        }
    }

    private let fields: [HPACKHeaderField]
    private var body: ArraySlice<UInt8>
    private var encoder = HPACKEncoder()
    private var decoder = HPACKDecoder()
    private var buffer: [UInt8] = []
    private var settingsReceived = false
    private var continuing: (block: [UInt8], endStream: Bool)?
    private var finalHeaders: [HPACKHeaderField]?
    private var sendWindow = HTTP2Defaults.initialWindowSize
    private var streamSendWindow = HTTP2Defaults.initialWindowSize
    private var peerInitialWindow = HTTP2Defaults.initialWindowSize
    private var peerMaxFrameSize = HTTP2Frame.defaultMaxFrameSize
    private var unacknowledged = 0
    private var requestEnded = false
    /// The largest response accepted (header block and body), so that a server cannot make us hold more.
    public var maxResponseBytes = 16 << 20

    /// This client's SETTINGS: no server push (§8.4), the default window.
    public static let settings: [(UInt16, UInt32)] = [(HTTP2Setting.enablePush.rawValue, 0)]

    /// `fields`: the request's header list (`:method`, `:scheme`, `:authority`, `:path` first);
    /// `body`: its content, sent in DATA frames after HEADERS.
    public init(fields: [HPACKHeaderField], body: [UInt8] = []) {
        self.fields = fields
        self.body = body[...]
    }

    /// The preface, SETTINGS and the request (as far as the default windows allow its body).
    public mutating func start() -> Output {
        var out = Output()
        guard state == .idle else { return out }
        out.bytes += HTTP2Frame.clientPreface
        out.events.append(.prefaceSent)
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .settings(Self.settings))), &out)
        let (block, summary) = encoder.encode(fields)
        let first = Array(block.prefix(peerMaxFrameSize))
        var rest = block.dropFirst(first.count)
        var flags: HTTP2Flags = rest.isEmpty ? .endHeaders : []
        if body.isEmpty { flags.insert(.endStream) }
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 1, flags: flags, payload: .headers(block: first, priority: nil)), hpack: summary), &out)
        while !rest.isEmpty {
            let chunk = Array(rest.prefix(peerMaxFrameSize))
            rest = rest.dropFirst(chunk.count)
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 1, flags: rest.isEmpty ? .endHeaders : [], payload: .continuation(chunk))), &out)
        }
        requestEnded = body.isEmpty
        state = .awaitingResponse
        sendBody(&out)
        return out
    }

    /// Takes what the server sent (any split) and returns what to send back.
    public mutating func receive(_ bytes: [UInt8]) -> Output {
        var out = Output()
        if state == .done {
            buffer += bytes
            traceRest(&out)
            return out
        }
        guard state == .awaitingResponse else { return out }
        buffer += bytes
        if !settingsReceived, buffer.starts(with: Array("HTTP/1.".utf8)) {
            // A server that agreed to h2 and then answers in HTTP/1.x: say so, rather than a frame-size error.
            let line = String(decoding: buffer.prefix { $0 != 13 && $0 != 10 }.prefix(60), as: UTF8.self)
            fail(.protocolError, "the server answered in HTTP/1.x (\"\(line)\") although ALPN chose h2 (RFC 7301 §3.2)", &out)
            return out
        }
        while state == .awaitingResponse {
            let decoded: (frame: HTTP2Frame, consumed: Int)?
            do {
                decoded = try HTTP2Frame.decode(buffer[...])
            } catch {
                fail(error.code, error.reason, &out)
                break
            }
            guard let (frame, consumed) = decoded else { break }
            buffer.removeFirst(consumed)
            handle(frame, &out)
        }
        if state == .done { traceRest(&out) }
        return out
    }

    /// After the response: what else the server sends (its GOAWAY) is traced, not acted on.
    private mutating func traceRest(_ out: inout Output) {
        while let (frame, consumed) = try? HTTP2Frame.decode(buffer[...]) {
            buffer.removeFirst(consumed)
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
        }
    }

    private mutating func handle(_ frame: HTTP2Frame, _ out: inout Output) {
        // A frame that ends a header block on stream 1 is traced with its HPACK summary, once decoded.
        let endsBlock: Bool
        switch frame.payload {
        case .headers, .continuation: endsBlock = frame.streamID == 1 && frame.flags.contains(.endHeaders) && settingsReceived
        default: endsBlock = false
        }
        if !endsBlock { out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame))) }
        if !settingsReceived {
            guard case .settings = frame.payload, !frame.flags.contains(.ack) else {
                fail(.protocolError, "the server's first frame was \(frame.typeName), not SETTINGS (RFC 9113 §3.4)", &out)
                return
            }
        }
        if continuing != nil {
            guard case .continuation = frame.payload, frame.streamID == 1 else {
                fail(.protocolError, "a header block was not continued by CONTINUATION (RFC 9113 §6.10)", &out)
                return
            }
        }
        switch frame.payload {
        case .settings(let list) where !frame.flags.contains(.ack):
            settingsReceived = true
            for (id, value) in list {
                switch HTTP2Setting(rawValue: id) {
                case .initialWindowSize?:
                    // §6.9.2: the change from the previous value applies to the open stream's window.
                    streamSendWindow += Int(value) - peerInitialWindow
                    peerInitialWindow = Int(value)
                case .maxFrameSize?:
                    peerMaxFrameSize = Int(value)
                case .headerTableSize?:
                    encoder.setMaxTableSize(min(Int(value), 4096))
                default:
                    break
                }
            }
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([]))), &out)
            sendBody(&out)
        case .ping(let opaque) where !frame.flags.contains(.ack):
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, flags: .ack, payload: .ping(opaque))), &out)
        case .windowUpdate(let increment):
            if frame.streamID == 0 {
                guard sendWindow + Int(increment) <= 0x7fff_ffff else {
                    fail(.flowControlError, "WINDOW_UPDATE takes the connection window above 2^31-1 (RFC 9113 §6.9.1)", &out)
                    return
                }
                sendWindow += Int(increment)
            } else if frame.streamID == 1 {
                streamSendWindow = min(streamSendWindow + Int(increment), 0x7fff_ffff)
            }
            sendBody(&out)
        case .goaway(let last, let code, let debug):
            // Stream 1 goes on if the server processed it (last ≥ 1) and ended without an error.
            if code != HTTP2ErrorCode.noError.rawValue || last < 1 {
                let name = HTTP2ErrorCode(rawValue: code)?.name ?? "error \(code)"
                let detail = debug.isEmpty ? "" : ": \(String(decoding: debug, as: UTF8.self))"
                let why = "the server ended the connection with GOAWAY \(name) (last stream \(last))\(detail)"
                if code != HTTP2ErrorCode.noError.rawValue {
                    out.events.append(.peerConnectionError(HTTP2ErrorCode(rawValue: code) ?? .internalError,
                                                           debug.isEmpty ? "last stream \(last)" : String(decoding: debug, as: UTF8.self)))
                }
                state = .failed(HTTP2ErrorCode(rawValue: code) ?? .internalError, why)
            }
        case .rstStream(let code) where frame.streamID == 1:
            let name = HTTP2ErrorCode(rawValue: code)?.name ?? "error \(code)"
            state = .failed(HTTP2ErrorCode(rawValue: code) ?? .internalError, "the server reset the request's stream with RST_STREAM \(name)")
        case .pushPromise:
            fail(.protocolError, "PUSH_PROMISE although this client's SETTINGS_ENABLE_PUSH is 0 (RFC 9113 §8.4)", &out)
        case .headers(let block, _) where frame.streamID == 1:
            if frame.flags.contains(.endHeaders) {
                headerBlock(block, endStream: frame.flags.contains(.endStream), frame: frame, &out)
            } else {
                continuing = (block, frame.flags.contains(.endStream))
            }
        case .continuation(let more) where frame.streamID == 1:
            guard var open = continuing else {
                fail(.protocolError, "CONTINUATION without a HEADERS frame before it (RFC 9113 §6.10)", &out)
                return
            }
            open.block += more
            guard open.block.count <= maxResponseBytes else {
                fail(.enhanceYourCalm, "a response header block beyond \(maxResponseBytes) octets", &out)
                return
            }
            if frame.flags.contains(.endHeaders) {
                continuing = nil
                headerBlock(open.block, endStream: open.endStream, frame: frame, &out)
            } else {
                continuing = open
            }
        case .data(let d) where frame.streamID == 1:
            guard finalHeaders != nil else {
                fail(.protocolError, "DATA before the response's HEADERS (RFC 9113 §8.1)", &out)
                return
            }
            responseBody += d
            guard responseBody.count <= maxResponseBytes else {
                fail(.enhanceYourCalm, "a response body beyond \(maxResponseBytes) octets", &out)
                return
            }
            unacknowledged += frame.payload.encoded.count
            if frame.flags.contains(.endStream) {
                end(&out)
            } else if unacknowledged >= HTTP2Defaults.initialWindowSize / 2 {
                send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .windowUpdate(UInt32(unacknowledged)))), &out)
                send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 1, payload: .windowUpdate(UInt32(unacknowledged)))), &out)
                unacknowledged = 0
            }
        case .headers, .continuation, .data:
            fail(.protocolError, "\(frame.typeName) on stream \(frame.streamID), which this client never opened (RFC 9113 §5.1)", &out)
        default:
            break  // acknowledgements, PRIORITY, unknown types (§5.5)
        }
    }

    /// A whole header block on stream 1: a 1xx informational response is skipped (§8.1); the final
    /// one is kept; one after it is trailers.
    private mutating func headerBlock(_ block: [UInt8], endStream: Bool, frame: HTTP2Frame, _ out: inout Output) {
        let decoded: [HPACKHeaderField]
        do {
            let (fields, summary) = try decoder.decode(block)
            decoded = fields
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame, hpack: summary)))
        } catch {
            out.events.append(.frameReceived(HTTP2FrameTrace(frame: frame)))
            fail(.compressionError, "the response's header block does not decode: \(error) (RFC 9113 §4.3)", &out)
            return
        }
        if finalHeaders == nil {
            let status = decoded.first { $0.name == ":status" }?.value ?? ""
            guard status.count == 3, let code = Int(status) else {
                fail(.protocolError, "a response without a valid :status (RFC 9113 §8.3.2)", &out)
                return
            }
            if code >= 100 && code < 200 && code != 101 { return }
            finalHeaders = decoded
        }
        if endStream { end(&out) }
    }

    private mutating func end(_ out: inout Output) {
        responseFields = finalHeaders
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: 0, errorCode: HTTP2ErrorCode.noError.rawValue, debug: []))), &out)
        state = .done
    }

    /// The request body as DATA, within both windows and the server's frame size.
    private mutating func sendBody(_ out: inout Output) {
        guard state == .awaitingResponse else { return }
        while !body.isEmpty {
            let size = min(body.count, sendWindow, streamSendWindow, peerMaxFrameSize)
            guard size > 0 else { return }
            let chunk = Array(body.prefix(size))
            body = body.dropFirst(size)
            sendWindow -= size
            streamSendWindow -= size
            send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 1, flags: body.isEmpty ? .endStream : [], payload: .data(chunk))), &out)
        }
    }

    private mutating func send(_ trace: HTTP2FrameTrace, _ out: inout Output) {
        out.bytes += trace.frame.encoded
        out.events.append(.frameSent(trace))
    }

    private mutating func fail(_ code: HTTP2ErrorCode, _ why: String, _ out: inout Output) {
        out.events.append(.connectionError(code, why))
        send(HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: 0, errorCode: code.rawValue, debug: Array(why.utf8.prefix(256))))), &out)
        state = .failed(code, why)
    }
}
