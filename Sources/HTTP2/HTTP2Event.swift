/// What an HTTP/2 endpoint did, for the trace (RFC 9113).
public enum HTTP2Event: Sendable, Hashable {
    /// How the two sides agreed on HTTP/2 (before the client's preface).
    case chosen(HTTP2Negotiation)
    /// The client connection preface `PRI * HTTP/2.0…` (§3.4).
    case prefaceSent
    case prefaceReceived
    case frameSent(HTTP2FrameTrace)
    case frameReceived(HTTP2FrameTrace)
    /// A connection error: the endpoint sends GOAWAY with this code and stops (§5.4.1).
    case connectionError(HTTP2ErrorCode, HTTP2Problem)
    /// A stream error: the endpoint resets one stream with RST_STREAM and this code (§5.4.2).
    case streamError(UInt32, HTTP2ErrorCode, HTTP2Problem)
    /// The peer ended the connection with GOAWAY and an error code other than NO_ERROR: the error is
    /// its (§5.4.1), as this side received it, with the debug data it sent (the peer's own text).
    case peerConnectionError(HTTP2ErrorCode, String)
}

/// How HTTP/2 was selected for a connection.
public enum HTTP2Negotiation: String, Sendable, Hashable {
    /// Over TLS: the ALPN protocol "h2" (RFC 9113 §3.2, RFC 7301).
    case h2
    /// Over plain TCP with prior knowledge: the client starts with the preface (§3.3).
    case h2c
}

/// One frame as sent or received, with the header block's compression when it carries one.
public struct HTTP2FrameTrace: Sendable, Hashable {
    public var frame: HTTP2Frame
    /// HEADERS and PUSH_PROMISE: the fields and their sizes before and after HPACK.
    public var hpack: HPACKBlockSummary?

    public init(frame: HTTP2Frame, hpack: HPACKBlockSummary? = nil) {
        self.frame = frame
        self.hpack = hpack
    }

    public var typeName: String { frame.typeName }
    public var streamID: UInt32 { frame.streamID }
    public var flagNames: [String] { frame.flags.names(for: frame.type) }
    public var length: Int { frame.payload.encoded.count }
}

/// The frames of one direction of a recorded HTTP/2 connection, decoded by a passive observer with
/// its own HPACK decoder (an eavesdropper needs no secret for h2c).
public enum HTTP2PassiveDecoder {
    /// The messages (as `HTTP2Message.text`) in the client's (`clientSide`) or the server's bytes,
    /// nil when the bytes are not HTTP/2 in the clear (TLS records, HTTP/1.x).
    public static func messages(_ bytes: [UInt8], clientSide: Bool) -> [String]? {
        var rest = ArraySlice(bytes)
        if clientSide {
            guard rest.starts(with: HTTP2Frame.clientPreface) else { return nil }
            rest = rest.dropFirst(HTTP2Frame.clientPreface.count)
        }
        var decoder = HPACKDecoder()
        var headers: [UInt32: [HPACKHeaderField]] = [:]
        var bodies: [UInt32: [UInt8]] = [:]
        var out: [String] = []
        var sawFrame = false
        while let (frame, used) = try? HTTP2Frame.decode(rest) {
            rest = rest.dropFirst(used)
            sawFrame = true
            switch frame.payload {
            case .headers(let block, _):
                guard let fields = try? decoder.decode(block).fields else { return out }
                headers[frame.streamID] = fields
            case .pushPromise(_, let block):
                guard let fields = try? decoder.decode(block).fields else { return out }
                out.append(HTTP2Message.text(fields))
            case .data(let d):
                bodies[frame.streamID, default: []] += d
            default:
                break
            }
            if frame.flags.contains(.endStream), frame.type == .headers || frame.type == .data, let fields = headers[frame.streamID] {
                out.append(HTTP2Message.text(fields, body: bodies[frame.streamID] ?? []))
            }
        }
        return sawFrame ? out : nil
    }
}
