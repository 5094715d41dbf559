import HTTP2

/// Why an HTTP/2 endpoint ended a connection or reset a stream (``HTTP2Problem``), in English. The
/// English text is also what JSON Lines writes as `reason`; it is the same sentence the endpoint
/// sends as GOAWAY debug data (``HTTP2Problem/wireText``), which a test checks.
extension Explanations {
    static let englishHTTP2Problems: [String: String] = [
        "h2problem.notPreface": "the connection did not start with the HTTP/2 client preface (RFC 9113 §3.4): it began \"{began}\"",
        "h2problem.notPrefaceHTTP1": "the connection did not start with the HTTP/2 client preface (RFC 9113 §3.4): it began \"{began}\", an HTTP/1.x request",
        "h2problem.clientFirstFrame": "the client's first frame was {type}, not SETTINGS (RFC 9113 §3.4)",
        "h2problem.serverFirstFrame": "the server's first frame was {type}, not SETTINGS (RFC 9113 §3.4)",
        "h2problem.malformedFrame": "{code}: {reason}",
        "h2problem.frameInsideHeaderBlock": "{type} inside a header block",
        "h2problem.evenNewStream": "HEADERS opening stream {stream}: a client's new stream must be odd (RFC 9113 §5.1.1)",
        "h2problem.streamNotOpen": "HEADERS on stream {stream}, which is not open: a client's new stream must be above {highest} (RFC 9113 §5.1.1)",
        "h2problem.continuationWithoutHeaderBlock": "CONTINUATION without a header block to continue",
        "h2problem.headerBlockTooLarge": "a header block of more than {limit} octets",
        "h2problem.windowAboveMaximum": "a window above 2^31-1",
        "h2problem.dataBeyondWindow": "DATA beyond the flow-control window",
        "h2problem.pushPromiseFromClient": "PUSH_PROMISE from a client (RFC 9113 §8.4)",
        "h2problem.dataWithoutRequest": "DATA on stream {stream}, which has no open request (RFC 9113 §6.1)",
        "h2problem.answeredInHTTP1": "the server answered in HTTP/1.x (\"{line}\") although ALPN chose h2 (RFC 7301 §3.2)",
        "h2problem.pushWhileDisabled": "PUSH_PROMISE although SETTINGS_ENABLE_PUSH is 0",
        "h2problem.frameOnClosedStream": "{type} on stream {stream}, which is closed (RFC 9113 §5.1)",
        "h2problem.frameOnUnopenedStream": "{type} on stream {stream}, which this client never opened (RFC 9113 §5.1)",
        "h2problem.responseWithoutStatus": "a response without a valid :status (RFC 9113 §8.3.2)",
        "h2problem.dataBeforeResponseHeaders": "DATA before the response's HEADERS (RFC 9113 §8.1)",
        "h2problem.responseBodyTooLarge": "a response body beyond {limit} octets",
        "h2problem.compression": "HPACK: {reason}",
        "h2problem.bodyTooLarge": "request body larger than {limit} bytes",
        "h2problem.headerFieldsTooLarge": "request header fields larger than {limit} bytes",
        "h2problem.responseHeaderListTooLarge": "a response header list larger than {limit} octets (RFC 9113 §10.5.1)",
        "h2problem.repeatedOversizeHeaderLists": "{count} header lists larger than SETTINGS_MAX_HEADER_LIST_SIZE {limit} (RFC 9113 §10.5)",
        "h2tls.versionBelowTLS12": "{version} is below TLS 1.2, the least HTTP/2 over TLS may use (RFC 9113 §9.2)",
        "h2tls.noAEAD": "{suite} is on HTTP/2's prohibited list (RFC 9113 §9.2.2): no AEAD cipher",
        "h2tls.noEphemeral": "{suite} is on HTTP/2's prohibited list (RFC 9113 §9.2.2): no ephemeral key exchange",
        "h2frame.payloadAboveMaxFrameSize": "a {length}-octet payload exceeds SETTINGS_MAX_FRAME_SIZE {maximum}",
        "h2frame.paddedWithoutPadLength": "PADDED without a Pad Length octet",
        "h2frame.headersPriorityTooShort": "HEADERS with PRIORITY shorter than 5 octets",
        "h2frame.wrongLength": "{type} of {octets} octets, not {expected}",
        "h2frame.settingsAckWithPayload": "SETTINGS ACK with a {octets}-octet payload",
        "h2frame.settingsLengthNotMultipleOf6": "SETTINGS of {octets} octets, not a multiple of 6",
        "h2frame.pushPromiseTooShort": "PUSH_PROMISE shorter than its promised stream ID",
        "h2frame.goawayTooShort": "GOAWAY shorter than 8 octets",
        "h2frame.paddingAsLongAsPayload": "padding ({pad}) as long as the payload",
        "h2frame.onStreamZero": "{type} on stream 0",
        "h2frame.onStream": "{type} on stream {stream}",
        "h2frame.enablePushNotBoolean": "SETTINGS_ENABLE_PUSH {value}, not 0 or 1",
        "h2frame.initialWindowAboveMaximum": "SETTINGS_INITIAL_WINDOW_SIZE {value} above 2^31-1",
        "h2frame.maxFrameSizeOutOfRange": "SETTINGS_MAX_FRAME_SIZE {value} outside 16384…16777215",
        "h2frame.pushPromiseOfStreamZero": "PUSH_PROMISE promising stream 0",
        "h2frame.windowUpdateOfZero": "WINDOW_UPDATE with an increment of 0",
        "hpack.truncated": "the header block ends inside a representation",
        "hpack.integerOverflow": "an integer overflows",
        "hpack.badIndex": "index {index} names no table entry",
        "hpack.huffmanEOS": "a Huffman string contains EOS",
        "hpack.huffmanPadding": "bad Huffman padding (longer than 7 bits or not all ones)",
        "hpack.tableSizeTooLarge": "dynamic table size update to {size} exceeds {limit}",
        "hpack.tableSizeUpdateNotAtStart": "a dynamic table size update after a header field",
        "h2request.uppercaseFieldName": "the field name '{name}' has uppercase letters (§8.2.1)",
        "h2request.pseudoHeaderAfterRegular": "the pseudo-header field {name} follows a regular field (§8.3)",
        "h2request.unknownPseudoHeader": "{name} is not a request pseudo-header field (§8.3.1)",
        "h2request.repeatedPseudoHeader": "{name} appears twice (§8.3.1)",
        "h2request.connectionSpecificField": "the connection-specific field '{name}' (§8.2.2)",
        "h2request.missingPseudoHeader": "the request has no {name} (§8.3.1)",
        "h2request.contentLengthNotOneNumber": "content-length '{value}' is not one number (§8.1.1)",
        "h2request.contentLengthMismatch": "content-length {declared} but a body of {body} bytes (§8.1.1)",
    ]

    /// Why an HTTP/2 endpoint ended a connection or reset a stream, in this catalogue's words.
    public func http2Problem(_ problem: HTTP2Problem) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch problem {
        case let .notPreface(began, looksHTTP1): return say(looksHTTP1 ? "h2problem.notPrefaceHTTP1" : "h2problem.notPreface", ["began": began])
        case .inadequateSecurity(.versionBelowTLS12(let version)): return say("h2tls.versionBelowTLS12", ["version": "\(version)"])
        case let .inadequateSecurity(.prohibitedSuite(suite, forwardSecret)):
            return say(forwardSecret ? "h2tls.noAEAD" : "h2tls.noEphemeral", ["suite": suite.nameOrHex])
        case let .firstFrameNotSettings(peer, type):
            return say(peer == .server ? "h2problem.serverFirstFrame" : "h2problem.clientFirstFrame", ["type": type])
        case .malformedFrame(let error): return say("h2problem.malformedFrame", ["code": error.code.name, "reason": http2FrameError(error)])
        case .frameInsideHeaderBlock(let type): return say("h2problem.frameInsideHeaderBlock", ["type": type])
        case .evenNewStream(let stream): return say("h2problem.evenNewStream", ["stream": "\(stream)"])
        case let .streamNotOpen(stream, highest): return say("h2problem.streamNotOpen", ["stream": "\(stream)", "highest": "\(highest)"])
        case .continuationWithoutHeaderBlock: return say("h2problem.continuationWithoutHeaderBlock")
        case .headerBlockTooLarge(let limit): return say("h2problem.headerBlockTooLarge", ["limit": "\(limit)"])
        case .windowAboveMaximum: return say("h2problem.windowAboveMaximum")
        case .dataBeyondWindow: return say("h2problem.dataBeyondWindow")
        case .pushPromiseFromClient: return say("h2problem.pushPromiseFromClient")
        case .dataWithoutRequest(let stream): return say("h2problem.dataWithoutRequest", ["stream": "\(stream)"])
        case .answeredInHTTP1(let line): return say("h2problem.answeredInHTTP1", ["line": line])
        case .pushWhileDisabled: return say("h2problem.pushWhileDisabled")
        case let .responseOnUnopenedStream(type, stream, closed):
            return say(closed ? "h2problem.frameOnClosedStream" : "h2problem.frameOnUnopenedStream", ["type": type, "stream": "\(stream)"])
        case .responseWithoutStatus: return say("h2problem.responseWithoutStatus")
        case .dataBeforeResponseHeaders: return say("h2problem.dataBeforeResponseHeaders")
        case .responseBodyTooLarge(let limit): return say("h2problem.responseBodyTooLarge", ["limit": "\(limit)"])
        case .compression(let error): return say("h2problem.compression", ["reason": hpackError(error)])
        case .malformedRequest(let why): return malformedRequest(why)
        case .bodyTooLarge(let limit): return say("h2problem.bodyTooLarge", ["limit": "\(limit)"])
        case .headerFieldsTooLarge(let limit): return say("h2problem.headerFieldsTooLarge", ["limit": "\(limit)"])
        case .responseHeaderListTooLarge(let limit): return say("h2problem.responseHeaderListTooLarge", ["limit": "\(limit)"])
        case let .repeatedOversizeHeaderLists(count, limit):
            return say("h2problem.repeatedOversizeHeaderLists", ["count": "\(count)", "limit": "\(limit)"])
        }
    }

    func http2FrameError(_ error: HTTP2FrameError) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch error {
        case let .payloadAboveMaxFrameSize(length, maximum): return say("h2frame.payloadAboveMaxFrameSize", ["length": "\(length)", "maximum": "\(maximum)"])
        case .paddedWithoutPadLength: return say("h2frame.paddedWithoutPadLength")
        case .headersPriorityTooShort: return say("h2frame.headersPriorityTooShort")
        case let .wrongLength(type, octets, expected): return say("h2frame.wrongLength", ["type": type, "octets": "\(octets)", "expected": "\(expected)"])
        case .settingsAckWithPayload(let octets): return say("h2frame.settingsAckWithPayload", ["octets": "\(octets)"])
        case .settingsLengthNotMultipleOf6(let octets): return say("h2frame.settingsLengthNotMultipleOf6", ["octets": "\(octets)"])
        case .pushPromiseTooShort: return say("h2frame.pushPromiseTooShort")
        case .goawayTooShort: return say("h2frame.goawayTooShort")
        case .paddingAsLongAsPayload(let pad): return say("h2frame.paddingAsLongAsPayload", ["pad": "\(pad)"])
        case .onStreamZero(let type): return say("h2frame.onStreamZero", ["type": type])
        case let .onStream(type, stream): return say("h2frame.onStream", ["type": type, "stream": "\(stream)"])
        case .enablePushNotBoolean(let value): return say("h2frame.enablePushNotBoolean", ["value": "\(value)"])
        case .initialWindowAboveMaximum(let value): return say("h2frame.initialWindowAboveMaximum", ["value": "\(value)"])
        case .maxFrameSizeOutOfRange(let value): return say("h2frame.maxFrameSizeOutOfRange", ["value": "\(value)"])
        case .pushPromiseOfStreamZero: return say("h2frame.pushPromiseOfStreamZero")
        case .windowUpdateOfZero: return say("h2frame.windowUpdateOfZero")
        }
    }

    func hpackError(_ error: HPACKError) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch error {
        case .truncated: return say("hpack.truncated")
        case .integerOverflow: return say("hpack.integerOverflow")
        case .badIndex(let index): return say("hpack.badIndex", ["index": "\(index)"])
        case .huffmanEOS: return say("hpack.huffmanEOS")
        case .huffmanPadding: return say("hpack.huffmanPadding")
        case let .tableSizeTooLarge(size, limit): return say("hpack.tableSizeTooLarge", ["size": "\(size)", "limit": "\(limit)"])
        case .tableSizeUpdateNotAtStart: return say("hpack.tableSizeUpdateNotAtStart")
        }
    }

    func malformedRequest(_ why: HTTP2MalformedRequest) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch why {
        case .uppercaseFieldName(let name): return say("h2request.uppercaseFieldName", ["name": name])
        case .pseudoHeaderAfterRegular(let name): return say("h2request.pseudoHeaderAfterRegular", ["name": name])
        case .unknownPseudoHeader(let name): return say("h2request.unknownPseudoHeader", ["name": name])
        case .repeatedPseudoHeader(let name): return say("h2request.repeatedPseudoHeader", ["name": name])
        case .connectionSpecificField(let name): return say("h2request.connectionSpecificField", ["name": name])
        case .missingPseudoHeader(let name): return say("h2request.missingPseudoHeader", ["name": name])
        case .contentLengthNotOneNumber(let value): return say("h2request.contentLengthNotOneNumber", ["value": value])
        case let .contentLengthMismatch(declared, body): return say("h2request.contentLengthMismatch", ["declared": "\(declared)", "body": "\(body)"])
        }
    }
}
