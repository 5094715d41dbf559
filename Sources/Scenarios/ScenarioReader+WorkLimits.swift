import Simulation

/// The most work one lesson may ask of the simulator, checked when the file is read: every valid
/// lesson runs in seconds and in a few hundred MB (issue #22, item 4). Each limit is on what the
/// work grows with — guesses for a seed search, segments for a transfer, SYNs for a flood — and
/// the error names the field to change and the value that would fit.
public enum LessonWorkLimits {
    /// Seeds the eavesdropper may try: (2 × clock_window_ms + 1) × process_id_space, each one
    /// HMAC-DRBG instantiation (2^17: the whole 16-bit process-id space for two clock milliseconds).
    public static let maximumSeedCandidates = 1 << 17
    /// TCP segments a run's transfers may take: every segment becomes trace events (a window of
    /// 1 byte turns each byte into a segment, its ACK and a window update).
    public static let maximumSegments = 10_000
    /// Bytes a TCP lesson's `send` actions may carry in all.
    public static let maximumSentBytes = 4 << 20
    /// Spoofed SYNs all `syn_flood` actions of a TCP lesson may send.
    public static let maximumFloodSYNs = 100_000
    /// Characters of a description (English or Chinese): four times the longest lesson's. Every
    /// surface wraps and lays out the text; a 200 KB one took seconds.
    public static let maximumDescriptionCharacters = 4_000
    /// HTTP requests a lesson may make (`http.requests`): each one is a request, a response and,
    /// for HTTP/1.0 and 0.9, a connection with its own handshake.
    public static let maximumRequests = 100
    /// Bytes of one HTTP request, and of the response (YAML aliases make one string count many times).
    public static let maximumRequestBytes = 64 << 10
    public static let maximumResponseBytes = 256 << 10
    /// Bytes a TLS world's HTTP exchange may carry in all (requests, responses, push, handshakes,
    /// over both legs of a man in the middle): the trace keeps every byte, and every surface shows it.
    public static let maximumCarriedBytes = 2 << 20
    /// Actions a TCP lesson may list.
    public static let maximumActions = 1_000
    /// What a TLS connection's handshake is taken to carry for the estimate: hellos, a certificate
    /// chain, key exchange, Finished, close_notify (a demo chain's handshake is 3–5 KB).
    public static let handshakeAllowanceBytes = 8_192
}

extension ScenarioReader {
    /// The segments a TLS world's transfers take, estimated from what it carries: a handshake
    /// allowance per connection, every request, the response to each (and to each pushed path),
    /// over both legs of a man in the middle — in segments no larger than the smaller of the
    /// receive window and the MSS.
    func checkWorkLimits(_ world: TLSWorld, _ top: YAMLMapping) throws(ScenarioError) {
        let requests = world.requests ?? world.httpRequest.map { [$0] } ?? []
        let connections: Int
        switch world.connectionMode {
        case .oneRequestPerConnection, .http09: connections = max(1, requests.count)
        case .keepAlive, .pipelining, .h2: connections = 1
        }
        let responses = max(1, requests.count) * (1 + world.http2Push.count)
        var bytes = requests.reduce(0) { $0 + $1.utf8.count } + responses * world.httpResponse.utf8.count
        if world.usesTLS { bytes += connections * LessonWorkLimits.handshakeAllowanceBytes }
        var legs = 1
        if case .mitm? = world.attack { legs = 2 }
        try checkSegments(bytes: bytes * legs, tcp: world.tcp, top: top, shorten: world.requests == nil ? "http.response" : "http.response or http.requests")
        try checkHTTPSize(world, requests: requests, carried: bytes * legs, top: top)

        if case .weakClientRandom(let weak)? = world.attack {
            let candidates = (2 * weak.clockWindowMilliseconds + 1) * weak.processIDSpace
            if candidates > LessonWorkLimits.maximumSeedCandidates {
                let fitting = LessonWorkLimits.maximumSeedCandidates / weak.processIDSpace
                let written = top["attacker"].flatMap { v in try? v.mapping(Self.attackerKeys) }
                let key = ["process_id_space", "clock_window_ms"].first { written?.has($0) == true } ?? "kind"
                var e = attackerError(top, key: key,
                    "the seed search would try (2 × clock_window_ms \(weak.clockWindowMilliseconds) + 1) × process_id_space \(weak.processIDSpace) = \(candidates) seeds, above the \(LessonWorkLimits.maximumSeedCandidates) a lesson may ask for; "
                    + (fitting >= 1 ? "with process_id_space \(weak.processIDSpace) use clock_window_ms ≤ \((fitting - 1) / 2), or a smaller process_id_space"
                                    : "use a smaller process_id_space"))
                let values = ["window": "\(weak.clockWindowMilliseconds)", "space": "\(weak.processIDSpace)", "count": "\(candidates)",
                              "limit": "\(LessonWorkLimits.maximumSeedCandidates)", "fitting": "\((fitting - 1) / 2)"]
                e.words = .init(key: fitting >= 1 ? "scenario.limit.seeds" : "scenario.limit.seeds.smallerSpace", values: values)
                throw e
            }
        }
    }

    /// The HTTP exchange's size after YAML aliases are expanded: the number of requests, each
    /// request's and the response's bytes, and all that the run carries; each error sits on the key.
    private func checkHTTPSize(_ world: TLSWorld, requests: [String], carried: Int, top: YAMLMapping) throws(ScenarioError) {
        let http = top["http"].flatMap { try? $0.mapping(Self.httpKeys) }
        func fail(_ key: String, _ message: String, _ wordsKey: String, _ values: [String: String]) -> ScenarioError {
            if let http, http.has(key) { return http.keyError(key, message, wordsKey, values) }
            return ScenarioError(file: file, line: 1, column: 1, path: ScenarioError.keyPath("http", key), message, wordsKey, values)
        }
        let requestsKey = http?.has("requests") == true ? "requests" : "request"
        if requests.count > LessonWorkLimits.maximumRequests {
            throw fail(requestsKey, "\(requests.count) requests, above the \(LessonWorkLimits.maximumRequests) a lesson may make", "scenario.limit.requests", ["count": "\(requests.count)", "limit": "\(LessonWorkLimits.maximumRequests)"])
        }
        if let (index, request) = requests.enumerated().first(where: { $0.element.utf8.count > LessonWorkLimits.maximumRequestBytes }) {
            throw fail(requestsKey, "request \(index + 1) has \(request.utf8.count) bytes, above the \(LessonWorkLimits.maximumRequestBytes) one request may have", "scenario.limit.requestBytes", ["index": "\(index + 1)", "count": "\(request.utf8.count)", "limit": "\(LessonWorkLimits.maximumRequestBytes)"])
        }
        if world.httpResponse.utf8.count > LessonWorkLimits.maximumResponseBytes {
            throw fail("response", "the response has \(world.httpResponse.utf8.count) bytes, above the \(LessonWorkLimits.maximumResponseBytes) a lesson's response may have", "scenario.limit.responseBytes", ["count": "\(world.httpResponse.utf8.count)", "limit": "\(LessonWorkLimits.maximumResponseBytes)"])
        }
        if carried > LessonWorkLimits.maximumCarriedBytes {
            throw fail(world.httpResponse.utf8.count * requests.count >= carried / 2 ? "response" : requestsKey,
                       "the run would carry about \(carried) bytes (requests, responses and handshakes\(world.attack.map { if case .mitm = $0 { ", on both legs" } else { "" } } ?? "")), above the \(LessonWorkLimits.maximumCarriedBytes) a lesson may ask for; shorten the response or make fewer requests",
                       world.attack.map { if case .mitm = $0 { true } else { false } } ?? false ? "scenario.limit.carried.bothLegs" : "scenario.limit.carried",
                       ["count": "\(carried)", "limit": "\(LessonWorkLimits.maximumCarriedBytes)"])
        }
    }

    /// A TCP world: the bytes its `send` actions carry, in segments, and the SYNs its floods send.
    func checkWorkLimits(_ world: TCPWorld, _ top: YAMLMapping) throws(ScenarioError) {
        var bytes = 0
        for action in world.actions { if case .send(_, let b) = action.kind { bytes += b.count } }
        try checkSegments(bytes: bytes, tcp: world.tcp, top: top, shorten: "the send actions' bytes")
    }

    /// `segments ≤ maximumSegments` for `bytes` cut into pieces of min(window, MSS); the error sits
    /// on `tcp.window` (or `tcp.mss`) when the file sets it, else on what carries the bytes.
    private func checkSegments(bytes: Int, tcp: TCPSpec, top: YAMLMapping, shorten: String) throws(ScenarioError) {
        let piece = max(1, min(tcp.window, tcp.mss))
        let segments = (bytes + piece - 1) / piece
        guard segments > LessonWorkLimits.maximumSegments else { return }
        let needed = (bytes + LessonWorkLimits.maximumSegments - 1) / LessonWorkLimits.maximumSegments
        let smaller = tcp.window <= tcp.mss ? "window" : "mss"
        let values = ["bytes": "\(bytes)", "piece": "\(piece)", "window": "\(tcp.window)", "mss": "\(tcp.mss)", "segments": "\(segments)",
                      "limit": "\(LessonWorkLimits.maximumSegments)", "smaller": smaller, "needed": "\(needed)"]
        let wordsKey = shorten == "the send actions' bytes" ? "scenario.limit.segments.send"
            : shorten == "http.response" ? "scenario.limit.segments.response" : "scenario.limit.segments.responseOrRequests"
        let message = "this run would carry about \(bytes) bytes in segments of at most \(piece) bytes (the smaller of tcp.window \(tcp.window) and tcp.mss \(tcp.mss)): about \(segments) segments, above the \(LessonWorkLimits.maximumSegments) a lesson may ask for; set tcp.\(smaller) to at least \(needed), or shorten \(shorten)"
        if let t = top["tcp"], let m = try? t.mapping(Self.tcpKeys), m.has(smaller) { throw m.keyError(smaller, message, wordsKey, values) }
        if let h = top["http"], let m = try? h.mapping(Self.httpKeys) {
            for key in ["response", "requests", "request"] where m.has(key) { throw m.keyError(key, message, wordsKey, values) }
        }
        if let t = top["tcp"] { throw t.error(message, wordsKey, values) }
        throw ScenarioError(file: file, line: 1, column: 1, path: "tcp.window", message, wordsKey, values)
    }

    private func attackerError(_ top: YAMLMapping, key: String, _ message: String) -> ScenarioError {
        if let a = top["attacker"], let m = try? a.mapping(Self.attackerKeys) { return m.keyError(key, message) }
        return ScenarioError(file: file, line: 1, column: 1, path: ScenarioError.keyPath("attacker", key), message: message)
    }

    static let attackerKeys = ["kind", "certificate", "message", "sender", "offset", "value", "suites", "record",
                               "process_id", "process_id_space", "clock_window_ms"]
    static let tcpKeys = ["mss", "window", "min_rto_ms", "initial_rto_ms", "msl_ms", "client_isn", "server_isn",
                          "handshake", "backlog", "syn_cookies"]
    static let httpKeys = ["request", "requests", "response", "mode", "tls", "resumption", "cpu", "push", "max_concurrent_streams"]
}
