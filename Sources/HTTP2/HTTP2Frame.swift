/// HTTP/2 error codes (RFC 9113 §7).
public enum HTTP2ErrorCode: UInt32, Sendable, Hashable, CaseIterable {
    case noError = 0x0, protocolError = 0x1, internalError = 0x2, flowControlError = 0x3, settingsTimeout = 0x4
    case streamClosed = 0x5, frameSizeError = 0x6, refusedStream = 0x7, cancel = 0x8, compressionError = 0x9
    case connectError = 0xa, enhanceYourCalm = 0xb, inadequateSecurity = 0xc, http11Required = 0xd

    public var name: String {
        switch self {
        case .noError: return "NO_ERROR"
        case .protocolError: return "PROTOCOL_ERROR"
        case .internalError: return "INTERNAL_ERROR"
        case .flowControlError: return "FLOW_CONTROL_ERROR"
        case .settingsTimeout: return "SETTINGS_TIMEOUT"
        case .streamClosed: return "STREAM_CLOSED"
        case .frameSizeError: return "FRAME_SIZE_ERROR"
        case .refusedStream: return "REFUSED_STREAM"
        case .cancel: return "CANCEL"
        case .compressionError: return "COMPRESSION_ERROR"
        case .connectError: return "CONNECT_ERROR"
        case .enhanceYourCalm: return "ENHANCE_YOUR_CALM"
        case .inadequateSecurity: return "INADEQUATE_SECURITY"
        case .http11Required: return "HTTP_1_1_REQUIRED"
        }
    }
}

/// Frame types (RFC 9113 §6).
public enum HTTP2FrameType: UInt8, Sendable, Hashable, CaseIterable {
    case data = 0x0, headers = 0x1, priority = 0x2, rstStream = 0x3, settings = 0x4, pushPromise = 0x5
    case ping = 0x6, goaway = 0x7, windowUpdate = 0x8, continuation = 0x9

    public var name: String {
        switch self {
        case .data: return "DATA"
        case .headers: return "HEADERS"
        case .priority: return "PRIORITY"
        case .rstStream: return "RST_STREAM"
        case .settings: return "SETTINGS"
        case .pushPromise: return "PUSH_PROMISE"
        case .ping: return "PING"
        case .goaway: return "GOAWAY"
        case .windowUpdate: return "WINDOW_UPDATE"
        case .continuation: return "CONTINUATION"
        }
    }
}

/// Frame flags (RFC 9113 §6): which bits mean what depends on the type.
public struct HTTP2Flags: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// DATA, HEADERS: the sender's last frame on the stream.
    public static let endStream = HTTP2Flags(rawValue: 0x1)
    /// SETTINGS, PING: an acknowledgement (same bit as END_STREAM).
    public static let ack = HTTP2Flags(rawValue: 0x1)
    /// HEADERS, PUSH_PROMISE, CONTINUATION: the header block is complete.
    public static let endHeaders = HTTP2Flags(rawValue: 0x4)
    public static let padded = HTTP2Flags(rawValue: 0x8)
    /// HEADERS: carries stream priority (deprecated scheme, still parsed).
    public static let priority = HTTP2Flags(rawValue: 0x20)

    /// The flag names that apply to `type`, e.g. ["END_STREAM", "END_HEADERS"].
    public func names(for type: HTTP2FrameType?) -> [String] {
        var out: [String] = []
        switch type {
        case .settings?, .ping?:
            if contains(.ack) { out.append("ACK") }
        case .data?, .headers?:
            if contains(.endStream) { out.append("END_STREAM") }
        default: break
        }
        if type == .headers || type == .pushPromise || type == .continuation, contains(.endHeaders) { out.append("END_HEADERS") }
        if type == .data || type == .headers || type == .pushPromise, contains(.padded) { out.append("PADDED") }
        if type == .headers, contains(.priority) { out.append("PRIORITY") }
        return out
    }
}

/// SETTINGS parameters (RFC 9113 §6.5.2).
public enum HTTP2Setting: UInt16, Sendable, Hashable {
    case headerTableSize = 0x1, enablePush = 0x2, maxConcurrentStreams = 0x3, initialWindowSize = 0x4
    case maxFrameSize = 0x5, maxHeaderListSize = 0x6

    public var name: String {
        switch self {
        case .headerTableSize: return "SETTINGS_HEADER_TABLE_SIZE"
        case .enablePush: return "SETTINGS_ENABLE_PUSH"
        case .maxConcurrentStreams: return "SETTINGS_MAX_CONCURRENT_STREAMS"
        case .initialWindowSize: return "SETTINGS_INITIAL_WINDOW_SIZE"
        case .maxFrameSize: return "SETTINGS_MAX_FRAME_SIZE"
        case .maxHeaderListSize: return "SETTINGS_MAX_HEADER_LIST_SIZE"
        }
    }
}

/// Why bytes are not a valid frame: a connection error of the given type (RFC 9113 §4.2, §6).
/// `frameType` values are the frame type's name (DATA, HEADERS, …).
public enum HTTP2FrameError: Error, Sendable, Hashable, CustomStringConvertible {
    // FRAME_SIZE_ERROR
    case payloadAboveMaxFrameSize(length: Int, maximum: Int)
    case paddedWithoutPadLength
    case headersPriorityTooShort
    case wrongLength(frameType: String, octets: Int, expected: Int)
    case settingsAckWithPayload(octets: Int)
    case settingsLengthNotMultipleOf6(octets: Int)
    case pushPromiseTooShort
    case goawayTooShort
    // PROTOCOL_ERROR
    case paddingAsLongAsPayload(padLength: Int)
    case onStreamZero(frameType: String)
    case onStream(frameType: String, stream: UInt32)
    case enablePushNotBoolean(UInt32)
    case initialWindowAboveMaximum(UInt32)
    case maxFrameSizeOutOfRange(UInt32)
    case pushPromiseOfStreamZero
    case windowUpdateOfZero

    public var code: HTTP2ErrorCode {
        switch self {
        case .payloadAboveMaxFrameSize, .paddedWithoutPadLength, .headersPriorityTooShort, .wrongLength, .settingsAckWithPayload,
             .settingsLengthNotMultipleOf6, .pushPromiseTooShort, .goawayTooShort:
            return .frameSizeError
        case .paddingAsLongAsPayload, .onStreamZero, .onStream, .enablePushNotBoolean, .initialWindowAboveMaximum,
             .maxFrameSizeOutOfRange, .pushPromiseOfStreamZero, .windowUpdateOfZero:
            return .protocolError
        }
    }

    /// The code's name and the reason in English: the GOAWAY debug data this side sends.
    public var description: String { "\(code.name): \(reason)" }

    /// Why, without the code's name, in English (``description``).
    public var reason: String {
        switch self {
        case let .payloadAboveMaxFrameSize(length, maximum): return "a \(length)-octet payload exceeds SETTINGS_MAX_FRAME_SIZE \(maximum)"
        case .paddedWithoutPadLength: return "PADDED without a Pad Length octet"
        case .headersPriorityTooShort: return "HEADERS with PRIORITY shorter than 5 octets"
        case let .wrongLength(type, octets, expected): return "\(type) of \(octets) octets, not \(expected)"
        case .settingsAckWithPayload(let octets): return "SETTINGS ACK with a \(octets)-octet payload"
        case .settingsLengthNotMultipleOf6(let octets): return "SETTINGS of \(octets) octets, not a multiple of 6"
        case .pushPromiseTooShort: return "PUSH_PROMISE shorter than its promised stream ID"
        case .goawayTooShort: return "GOAWAY shorter than 8 octets"
        case .paddingAsLongAsPayload(let pad): return "padding (\(pad)) as long as the payload"
        case .onStreamZero(let type): return "\(type) on stream 0"
        case let .onStream(type, stream): return "\(type) on stream \(stream)"
        case .enablePushNotBoolean(let value): return "SETTINGS_ENABLE_PUSH \(value), not 0 or 1"
        case .initialWindowAboveMaximum(let value): return "SETTINGS_INITIAL_WINDOW_SIZE \(value) above 2^31-1"
        case .maxFrameSizeOutOfRange(let value): return "SETTINGS_MAX_FRAME_SIZE \(value) outside 16384…16777215"
        case .pushPromiseOfStreamZero: return "PUSH_PROMISE promising stream 0"
        case .windowUpdateOfZero: return "WINDOW_UPDATE with an increment of 0"
        }
    }
}

/// One HTTP/2 frame (RFC 9113 §4.1): 24-bit length, type, flags, 31-bit stream identifier, payload.
public struct HTTP2Frame: Sendable, Hashable {
    public enum Payload: Sendable, Hashable {
        case data([UInt8])
        /// A header block fragment (HPACK); priority fields, if flagged, are kept raw.
        case headers(block: [UInt8], priority: [UInt8]?)
        case priority([UInt8])
        case rstStream(HTTP2ErrorCode.RawValue)
        /// (identifier, value) pairs in order; unknown identifiers are kept (and ignored, §6.5.2).
        case settings([(UInt16, UInt32)])
        case pushPromise(promisedStreamID: UInt32, block: [UInt8])
        case ping([UInt8])
        case goaway(lastStreamID: UInt32, errorCode: UInt32, debug: [UInt8])
        case windowUpdate(UInt32)
        case continuation([UInt8])
        /// A type this codec does not know: kept whole (§4.1: implementations ignore them).
        case unknown(type: UInt8, payload: [UInt8])

        public static func == (a: Payload, b: Payload) -> Bool { a.encoded == b.encoded && a.typeCode == b.typeCode }
        public func hash(into h: inout Hasher) { h.combine(typeCode); h.combine(encoded) }
    }

    public static let headerLength = 9
    /// SETTINGS_MAX_FRAME_SIZE's initial value (§6.5.2).
    public static let defaultMaxFrameSize = 16_384
    /// The client connection preface (§3.4), followed by the client's SETTINGS frame.
    public static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    public var streamID: UInt32
    public var flags: HTTP2Flags
    public var payload: Payload

    public init(streamID: UInt32, flags: HTTP2Flags = [], payload: Payload) {
        self.streamID = streamID
        self.flags = flags
        self.payload = payload
    }

    public var type: HTTP2FrameType? { HTTP2FrameType(rawValue: payload.typeCode) }
    public var typeName: String { type?.name ?? "UNKNOWN(0x\(String(payload.typeCode, radix: 16)))" }

    /// The frame on the wire.
    public var encoded: [UInt8] {
        let body = payload.encoded
        let length = body.count
        var out: [UInt8] = [UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
                            UInt8(truncatingIfNeeded: length), payload.typeCode, flags.rawValue]
        out += Self.be32(streamID & 0x7fff_ffff)
        return out + body
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    static func read32(_ b: ArraySlice<UInt8>) -> UInt32 {
        let i = b.startIndex
        return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// The first whole frame in `bytes` and how many octets it took, or nil when more octets are
    /// needed. A malformed frame throws the connection error it causes.
    public static func decode(_ bytes: ArraySlice<UInt8>, maxFrameSize: Int = defaultMaxFrameSize)
        throws(HTTP2FrameError) -> (frame: HTTP2Frame, consumed: Int)? {
        guard bytes.count >= headerLength else { return nil }
        let s = bytes.startIndex
        let length = Int(bytes[s]) << 16 | Int(bytes[s + 1]) << 8 | Int(bytes[s + 2])
        guard length <= maxFrameSize else { throw .payloadAboveMaxFrameSize(length: length, maximum: maxFrameSize) }
        guard bytes.count >= headerLength + length else { return nil }
        let typeCode = bytes[s + 3]
        let flags = HTTP2Flags(rawValue: bytes[s + 4])
        let streamID = read32(bytes[(s + 5)..<(s + 9)]) & 0x7fff_ffff
        let body = bytes[(s + 9)..<(s + 9 + length)]
        let payload = try Payload.decode(type: typeCode, flags: flags, streamID: streamID, body: body)
        return (HTTP2Frame(streamID: streamID, flags: flags, payload: payload), headerLength + length)
    }
}

extension HTTP2Frame.Payload {
    var typeCode: UInt8 {
        switch self {
        case .data: return HTTP2FrameType.data.rawValue
        case .headers: return HTTP2FrameType.headers.rawValue
        case .priority: return HTTP2FrameType.priority.rawValue
        case .rstStream: return HTTP2FrameType.rstStream.rawValue
        case .settings: return HTTP2FrameType.settings.rawValue
        case .pushPromise: return HTTP2FrameType.pushPromise.rawValue
        case .ping: return HTTP2FrameType.ping.rawValue
        case .goaway: return HTTP2FrameType.goaway.rawValue
        case .windowUpdate: return HTTP2FrameType.windowUpdate.rawValue
        case .continuation: return HTTP2FrameType.continuation.rawValue
        case .unknown(let type, _): return type
        }
    }

    /// The payload octets (never padded: this codec writes no padding).
    var encoded: [UInt8] {
        switch self {
        case .data(let d): return d
        case .headers(let block, let priority): return (priority ?? []) + block
        case .priority(let p): return p
        case .rstStream(let code): return HTTP2Frame.be32(code)
        case .settings(let list):
            return list.flatMap { [UInt8(truncatingIfNeeded: $0.0 >> 8), UInt8(truncatingIfNeeded: $0.0)] + HTTP2Frame.be32($0.1) }
        case .pushPromise(let promised, let block): return HTTP2Frame.be32(promised & 0x7fff_ffff) + block
        case .ping(let opaque): return opaque
        case .goaway(let last, let code, let debug): return HTTP2Frame.be32(last & 0x7fff_ffff) + HTTP2Frame.be32(code) + debug
        case .windowUpdate(let increment): return HTTP2Frame.be32(increment & 0x7fff_ffff)
        case .continuation(let block): return block
        case .unknown(_, let payload): return payload
        }
    }

    /// Removes padding (§6.1): Pad Length octet, then the data, then that many padding octets.
    static func unpadded(_ body: ArraySlice<UInt8>, flags: HTTP2Flags) throws(HTTP2FrameError) -> ArraySlice<UInt8> {
        guard flags.contains(.padded) else { return body }
        guard let padLength = body.first else { throw .paddedWithoutPadLength }
        guard Int(padLength) < body.count else { throw .paddingAsLongAsPayload(padLength: Int(padLength)) }
        return body[(body.startIndex + 1)..<(body.endIndex - Int(padLength))]
    }

    static func decode(type: UInt8, flags: HTTP2Flags, streamID: UInt32, body: ArraySlice<UInt8>) throws(HTTP2FrameError) -> Self {
        guard let known = HTTP2FrameType(rawValue: type) else { return .unknown(type: type, payload: Array(body)) }
        switch known {
        case .data, .headers, .priority, .rstStream, .pushPromise, .continuation:
            guard streamID != 0 else { throw .onStreamZero(frameType: known.name) }
        case .settings, .ping, .goaway:
            guard streamID == 0 else { throw .onStream(frameType: known.name, stream: streamID) }
        case .windowUpdate:
            break
        }
        switch known {
        case .data:
            return .data(Array(try unpadded(body, flags: flags)))
        case .headers:
            var rest = try unpadded(body, flags: flags)
            var priority: [UInt8]?
            if flags.contains(.priority) {
                guard rest.count >= 5 else { throw .headersPriorityTooShort }
                priority = Array(rest.prefix(5))
                rest = rest.dropFirst(5)
            }
            return .headers(block: Array(rest), priority: priority)
        case .priority:
            guard body.count == 5 else { throw .wrongLength(frameType: "PRIORITY", octets: body.count, expected: 5) }
            return .priority(Array(body))
        case .rstStream:
            guard body.count == 4 else { throw .wrongLength(frameType: "RST_STREAM", octets: body.count, expected: 4) }
            return .rstStream(HTTP2Frame.read32(body))
        case .settings:
            if flags.contains(.ack) {
                guard body.isEmpty else { throw .settingsAckWithPayload(octets: body.count) }
                return .settings([])
            }
            guard body.count % 6 == 0 else { throw .settingsLengthNotMultipleOf6(octets: body.count) }
            var list: [(UInt16, UInt32)] = []
            var i = body.startIndex
            while i < body.endIndex {
                let id = UInt16(body[i]) << 8 | UInt16(body[i + 1])
                let value = HTTP2Frame.read32(body[(i + 2)..<(i + 6)])
                switch HTTP2Setting(rawValue: id) {
                case .enablePush? where value > 1:
                    throw .enablePushNotBoolean(value)
                case .initialWindowSize? where value > 0x7fff_ffff:
                    throw .initialWindowAboveMaximum(value)   // FLOW_CONTROL_ERROR in §6.5.2
                case .maxFrameSize? where value < 16_384 || value > 16_777_215:
                    throw .maxFrameSizeOutOfRange(value)
                default: break
                }
                list.append((id, value))
                i += 6
            }
            return .settings(list)
        case .pushPromise:
            let rest = try unpadded(body, flags: flags)
            guard rest.count >= 4 else { throw .pushPromiseTooShort }
            let promised = HTTP2Frame.read32(rest.prefix(4)) & 0x7fff_ffff
            guard promised != 0 else { throw .pushPromiseOfStreamZero }
            return .pushPromise(promisedStreamID: promised, block: Array(rest.dropFirst(4)))
        case .ping:
            guard body.count == 8 else { throw .wrongLength(frameType: "PING", octets: body.count, expected: 8) }
            return .ping(Array(body))
        case .goaway:
            guard body.count >= 8 else { throw .goawayTooShort }
            return .goaway(lastStreamID: HTTP2Frame.read32(body.prefix(4)) & 0x7fff_ffff,
                           errorCode: HTTP2Frame.read32(body.dropFirst(4).prefix(4)), debug: Array(body.dropFirst(8)))
        case .windowUpdate:
            guard body.count == 4 else { throw .wrongLength(frameType: "WINDOW_UPDATE", octets: body.count, expected: 4) }
            let increment = HTTP2Frame.read32(body) & 0x7fff_ffff
            guard increment != 0 else { throw .windowUpdateOfZero }
            return .windowUpdate(increment)
        case .continuation:
            return .continuation(Array(body))
        }
    }
}
