/// One HTTP/2 connection (RFC 9113) as a value, either end: bytes in (what TCP or TLS delivered),
/// actions out (frames to write, in the batches that leave together, and what happened), no I/O.
/// The simulation, `tlslab connect` and `tlslab serve` all drive this one type.
///
/// Both ends: the preface and SETTINGS (§3.4), PING, flow control in both directions (§5.2, §6.9),
/// header blocks in HEADERS (or PUSH_PROMISE) + CONTINUATION with HPACK (§4.3, §6.10), bodies in
/// DATA, GOAWAY, and every connection error answered with GOAWAY and its RFC 9113 code (§5.4.1).
/// The client: its requests on streams 1, 3, 5, … at most the server's SETTINGS_MAX_CONCURRENT_STREAMS
/// open at once (§5.1.2), a refused request (REFUSED_STREAM) sent again (§8.7), pushed responses
/// when it enabled push (§8.4). The server: MAX_CONCURRENT_STREAMS announced and enforced, pushes,
/// 431/413 for requests beyond its limits, RST_STREAM PROTOCOL_ERROR for a malformed request (§8.1.1).
public struct HTTP2Connection: Sendable {
    public enum Role: Sendable, Hashable {
        case client
        case server
    }

    /// A request the client sends: its header list (`:method`, `:scheme`, `:authority`, `:path`
    /// first) and its body.
    public struct Request: Sendable, Hashable {
        public var fields: [HPACKHeaderField]
        public var body: [UInt8]

        public init(fields: [HPACKHeaderField], body: [UInt8] = []) {
            self.fields = fields
            self.body = body
        }
    }

    /// What an endpoint may send and accept.
    public struct Configuration: Sendable {
        /// How HTTP/2 was chosen (the client traces it before its preface).
        public var negotiation: HTTP2Negotiation = .h2
        /// Set: the TLS connection is not good enough for HTTP/2 (RFC 9113 §9.2): the client ends
        /// the connection with INADEQUATE_SECURITY after its preface and SETTINGS; the server after
        /// the client's preface and its own SETTINGS.
        public var inadequateSecurity: HTTP2TLSProblem?
        /// Client: accept server push (SETTINGS_ENABLE_PUSH 1). Off, a PUSH_PROMISE is a PROTOCOL_ERROR.
        public var enablePush = false
        /// Client: the largest response header block and body accepted.
        public var maxResponseBytes = 16 << 20
        /// Client: the largest response header list kept (RFC 9113 §6.5.2's size); a larger one
        /// ends the connection (ENHANCE_YOUR_CALM) without being held in memory.
        public var maxResponseHeaderListSize = 256 << 10
        /// Server: SETTINGS_MAX_CONCURRENT_STREAMS, announced and enforced (REFUSED_STREAM beyond it).
        public var maxConcurrentStreams = HTTP2Defaults.maxConcurrentStreams
        /// Server: the paths it pushes with the response on stream 1 (when the client allows push).
        public var pushPaths: [String] = []
        /// Server: the largest request header list accepted (SETTINGS_MAX_HEADER_LIST_SIZE, announced);
        /// a larger one is answered 431 (RFC 6585 §5). nil: no limit, not announced.
        public var maxHeaderListSize: Int?
        /// Server: the largest request body accepted; a larger one is answered 413 (RFC 9110 §15.5.14).
        public var maxBodySize: Int?
        /// Server: end the connection with GOAWAY NO_ERROR once every request received is answered
        /// (a server that answers one flight per connection).
        public var goAwayWhenAnswered = false
        /// Server: the response to a request (its fields, `:status` first, and body).
        public var respond: @Sendable (_ request: [HPACKHeaderField], _ body: [UInt8]) -> (fields: [HPACKHeaderField], body: [UInt8])
            = { _, _ in ([HPACKHeaderField(":status", "200")], []) }

        public init() {}
    }

    /// An HTTP message as the trace shows it (`HTTP2Message.text`).
    public enum Message: Sendable, Hashable {
        /// Client: `request` is the index in the requests it was given.
        case requestSent(String, request: Int)
        /// Client: a request sent again after the server refused its stream.
        case requestRetried(String, request: Int, refusedStream: UInt32)
        /// Client: a response ended on `stream` (even: a pushed response).
        case responseReceived(String, stream: UInt32)
        case requestReceived(String)
        case responseSent(String)
    }

    /// One thing to do, in order: trace an event or a message, or write bytes (one write each).
    public enum Action: Sendable {
        case event(HTTP2Event)
        case message(Message)
        case write([UInt8])
    }

    public struct Output: Sendable {
        public var actions: [Action] = []

        public init() {}

        /// Every byte to send, in order.
        public var bytes: [UInt8] { actions.flatMap { action -> [UInt8] in if case .write(let b) = action { b } else { [] } } }
        public var events: [HTTP2Event] { actions.compactMap { action -> HTTP2Event? in if case .event(let e) = action { e } else { nil } } }
        public var messages: [Message] { actions.compactMap { action -> Message? in if case .message(let m) = action { m } else { nil } } }

        mutating func event(_ e: HTTP2Event) { actions.append(.event(e)) }
        mutating func message(_ m: Message) { actions.append(.message(m)) }
        mutating func write(_ bytes: [UInt8]) { if !bytes.isEmpty { actions.append(.write(bytes)) } }
        /// Traces each frame as sent and writes them (after `prefix`) in one go.
        mutating func send(_ frames: [HTTP2FrameTrace], prefix: [UInt8] = []) {
            guard !frames.isEmpty || !prefix.isEmpty else { return }
            for f in frames { event(.frameSent(f)) }
            write(prefix + frames.flatMap(\.frame.encoded))
        }
    }

    public let role: Role
    public let configuration: Configuration

    var encoder = HPACKEncoder()
    var decoder = HPACKDecoder()
    /// Bytes received and not yet whole frames.
    var buffer: [UInt8] = []
    /// Client: preface, SETTINGS and requests sent. Server: the client's preface received.
    public internal(set) var started = false
    /// The peer's first frame, its SETTINGS, arrived (§3.4).
    var peerSettingsReceived = false
    public internal(set) var settingsAcknowledged = false
    public internal(set) var goawaySent = false
    public internal(set) var goawayReceived = false
    /// The peer's GOAWAY: the last stream it processed, its error code and debug data (as text).
    public internal(set) var peerGoaway: (lastStream: UInt32, code: UInt32, debug: String)?
    /// A connection error this side detected (it sent GOAWAY with it).
    public internal(set) var error: HTTP2ErrorCode?
    /// Why, as traced.
    public internal(set) var errorReason: HTTP2Problem?
    /// The peer allows server push (its SETTINGS_ENABLE_PUSH; 1 until it says otherwise).
    var peerAllowsPush = true
    /// The largest frame payload the peer accepts (its SETTINGS_MAX_FRAME_SIZE, §6.5.2).
    var peerMaxFrameSize = HTTP2Frame.defaultMaxFrameSize
    /// A header block continued in CONTINUATION frames: its first frame and octets so far.
    var pendingBlock: (frame: HTTP2Frame, block: [UInt8])?
    /// Each stream's header fields (server: the request; client: the final response) and body so far.
    var headers: [UInt32: [HPACKHeaderField]] = [:]
    var bodies: [UInt32: [UInt8]] = [:]

    // Client.
    let requests: [Request]
    /// Streams the server promised (PUSH_PROMISE) and how many of them completed.
    public internal(set) var promised: [UInt32] = []
    public internal(set) var pushesCompleted = 0
    /// Responses ended on the client's own streams.
    public internal(set) var responsesCompleted = 0
    /// The client's streams the server reset (other than REFUSED_STREAM), with the code: they get no response.
    public internal(set) var streamsReset: [UInt32: HTTP2ErrorCode] = [:]
    /// The requests (indices) still to send, in order, and the open stream of each one sent; the
    /// next stream ID (odd, from 1).
    var queuedRequests: [Int] = []
    var openRequests: [UInt32: Int] = [:]
    /// The requests (indices) waiting to go again, each with the stream the server refused.
    var refusedRequests: [Int: UInt32] = [:]
    var nextStream: UInt32 = 1
    /// The peer's SETTINGS_MAX_CONCURRENT_STREAMS. Until its SETTINGS arrive, 100: the least
    /// RFC 9113 §6.5.2 recommends, what common clients assume.
    var peerMaxConcurrentStreams = Int(HTTP2Defaults.maxConcurrentStreams)
    /// Final responses by stream, in the order they ended (fields, body).
    public internal(set) var responses: [(stream: UInt32, fields: [HPACKHeaderField], body: [UInt8])] = []

    // Server.
    /// The client's streams open now (request received, response not yet ended), and those
    /// refused with REFUSED_STREAM for being beyond SETTINGS_MAX_CONCURRENT_STREAMS.
    var openStreams: Set<UInt32> = []
    var refusedStreams: Set<UInt32> = []
    /// Streams answered (or reset, or refused with a status): frames still in flight on them are ignored.
    var finished: Set<UInt32> = []
    /// The highest stream the client opened, and the highest one this server processed.
    var highestStream: UInt32 = 0
    var lastProcessed: UInt32 = 0
    /// Streams refused (REFUSED_STREAM) whose requests have not yet come again on a new stream.
    var refusalsOutstanding = 0
    /// Header lists over SETTINGS_MAX_HEADER_LIST_SIZE so far (decoded, not kept), and the streams
    /// they opened, answered 431.
    var oversizeHeaderLists = 0
    var oversizeStreams: Set<UInt32> = []
    /// The next stream ID for a push (even, from 2).
    var nextPushStream: UInt32 = 2

    // Flow control (RFC 9113 §5.2, §6.9). Sender: what the peer still lets it send, on the
    // connection and per stream, and the bodies waiting for window. Receiver: what it still
    // accepts, and what it consumed but has not yet given back with WINDOW_UPDATE.
    var sendWindow = HTTP2Defaults.initialWindowSize
    var peerInitialWindow = HTTP2Defaults.initialWindowSize
    var streamSendWindows: [UInt32: Int] = [:]
    var pendingData: [(stream: UInt32, body: ArraySlice<UInt8>)] = []
    var receiveWindow = HTTP2Defaults.initialWindowSize
    var streamReceiveWindows: [UInt32: Int] = [:]
    var unacknowledged = 0
    var streamUnacknowledged: [UInt32: Int] = [:]

    /// A client that will send `requests` once started.
    public init(client configuration: Configuration, requests: [Request]) {
        role = .client
        self.configuration = configuration
        self.requests = requests
    }

    /// A server; its answers come from `configuration.respond`.
    public init(server configuration: Configuration) {
        role = .server
        self.configuration = configuration
        requests = []
    }

    /// The SETTINGS this endpoint announces in its preface (§3.4, §6.5.2).
    public var settings: [(UInt16, UInt32)] {
        switch role {
        case .client:
            return [(HTTP2Setting.enablePush.rawValue, configuration.enablePush ? 1 : 0),
                    (HTTP2Setting.maxConcurrentStreams.rawValue, HTTP2Defaults.maxConcurrentStreams),
                    (HTTP2Setting.initialWindowSize.rawValue, UInt32(HTTP2Defaults.initialWindowSize))]
        case .server:
            return [(HTTP2Setting.maxConcurrentStreams.rawValue, configuration.maxConcurrentStreams),
                    (HTTP2Setting.initialWindowSize.rawValue, UInt32(HTTP2Defaults.initialWindowSize))]
                + (configuration.maxHeaderListSize.map { [(HTTP2Setting.maxHeaderListSize.rawValue, UInt32(clamping: $0))] } ?? [])
        }
    }

    /// Nothing more is read: a connection error, or (server) its GOAWAY once everything was answered.
    public var isClosed: Bool { error != nil || (role == .server && goawaySent) }

    /// Client: every request answered or reset and every promised push complete, or the connection
    /// failed (a connection error either way, or the server's GOAWAY, after the streams it processed).
    public var isExchangeComplete: Bool {
        if error != nil { return true }
        if let (last, code, _) = peerGoaway {
            if code != HTTP2ErrorCode.noError.rawValue { return true }
            if !openRequests.keys.contains(where: { $0 <= last }) { return true }
        }
        return started && responsesCompleted + streamsReset.count >= requests.count && pushesCompleted >= promised.count
    }

    /// Takes what the peer sent (any split) and returns what to do.
    public mutating func receive(_ bytes: [UInt8]) -> Output {
        var out = Output()
        guard !isClosed else { return out }
        buffer += bytes
        switch role {
        case .server: serverReceive(&out)
        case .client: clientReceive(&out)
        }
        return out
    }

    /// A connection error (RFC 9113 §5.4.1): trace it, send GOAWAY with its code and the last
    /// stream processed, stop. `prefix`: bytes that must go first in the same write (a client's preface).
    mutating func fail(_ code: HTTP2ErrorCode, _ why: HTTP2Problem, lastStream: UInt32? = nil, prefix: [UInt8] = [], _ out: inout Output) {
        guard error == nil else { return }
        error = code
        errorReason = why
        out.event(.connectionError(code, why))
        goawaySent = true
        let last = lastStream ?? (role == .server ? lastProcessed : 0)
        out.send([HTTP2FrameTrace(frame: HTTP2Frame(streamID: 0, payload: .goaway(lastStreamID: last, errorCode: code.rawValue, debug: Array(why.wireText.utf8.prefix(256)))))],
                 prefix: prefix)
    }
}
