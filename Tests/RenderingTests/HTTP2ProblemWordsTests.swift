import HTTP2
@testable import Rendering
import Simulation
import Testing
import TLSEngine
import Trace

/// Why an HTTP/2 endpoint ended a connection or reset a stream is a typed fact (``HTTP2Problem``);
/// the catalogue words it. In English the words are exactly what the endpoint sends as GOAWAY debug
/// data (so JSON Lines' `reason` and the wire say the same); in Chinese no English sentence is left.
@Suite("HTTP/2 errors worded by the catalogue")
struct HTTP2ProblemWordsTests {
    static let frameErrors: [HTTP2FrameError] = [
        .payloadAboveMaxFrameSize(length: 20_000, maximum: 16_384), .paddedWithoutPadLength, .headersPriorityTooShort,
        .wrongLength(frameType: "PING", octets: 7, expected: 8), .settingsAckWithPayload(octets: 6), .settingsLengthNotMultipleOf6(octets: 5),
        .pushPromiseTooShort, .goawayTooShort, .paddingAsLongAsPayload(padLength: 9), .onStreamZero(frameType: "DATA"),
        .onStream(frameType: "SETTINGS", stream: 3), .enablePushNotBoolean(2), .initialWindowAboveMaximum(0x8000_0000),
        .maxFrameSizeOutOfRange(100), .pushPromiseOfStreamZero, .windowUpdateOfZero,
    ]
    static let hpackErrors: [HPACKError] = [.truncated, .integerOverflow, .badIndex(99), .huffmanEOS, .huffmanPadding,
                                            .tableSizeTooLarge(5000, limit: 4096), .tableSizeUpdateNotAtStart]
    static let malformed: [HTTP2MalformedRequest] = [
        .uppercaseFieldName("Foo"), .pseudoHeaderAfterRegular(":path"), .unknownPseudoHeader(":status"), .repeatedPseudoHeader(":path"),
        .connectionSpecificField("connection"), .missingPseudoHeader(":scheme"), .contentLengthNotOneNumber("5, 6"),
        .contentLengthMismatch(declared: 5, body: 3),
    ]
    static var every: [HTTP2Problem] {
        [.notPreface(began: "GET / HTTP/1.1", looksHTTP1: true), .notPreface(began: "hello", looksHTTP1: false),
         .inadequateSecurity(.versionBelowTLS12(.tls11)),
         .inadequateSecurity(.prohibitedSuite(.TLS_RSA_WITH_AES_128_GCM_SHA256, forwardSecret: false)),
         .inadequateSecurity(.prohibitedSuite(.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, forwardSecret: true)),
         .firstFrameNotSettings(peer: .client, frameType: "HEADERS"), .firstFrameNotSettings(peer: .server, frameType: "DATA"),
         .frameInsideHeaderBlock(frameType: "DATA"), .evenNewStream(2), .streamNotOpen(3, highest: 5), .continuationWithoutHeaderBlock,
         .headerBlockTooLarge(limit: 65_536), .windowAboveMaximum, .dataBeyondWindow, .pushPromiseFromClient, .dataWithoutRequest(stream: 7),
         .answeredInHTTP1(line: "HTTP/1.1 400 Bad Request"), .pushWhileDisabled,
         .responseOnUnopenedStream(frameType: "HEADERS", stream: 5, closed: false), .responseOnUnopenedStream(frameType: "DATA", stream: 1, closed: true), .responseWithoutStatus, .dataBeforeResponseHeaders,
         .responseBodyTooLarge(limit: 1024), .bodyTooLarge(limit: 1024), .headerFieldsTooLarge(limit: 8192),
         .responseHeaderListTooLarge(limit: 262_144), .repeatedOversizeHeaderLists(count: 5, limit: 16_384)]
            + frameErrors.map { .malformedFrame($0) } + hpackErrors.map { .compression($0) } + malformed.map { .malformedRequest($0) }
    }

    @Test func englishIsWhatTheEndpointSends() {
        for problem in Self.every {
            #expect(Explanations.english.http2Problem(problem) == problem.wireText)
        }
        // The wire texts the endpoint always sent (GOAWAY debug data must not change).
        #expect(HTTP2Problem.malformedFrame(.wrongLength(frameType: "PING", octets: 7, expected: 8)).wireText == "FRAME_SIZE_ERROR: PING of 7 octets, not 8")
        #expect(HTTP2Problem.compression(.badIndex(99)).wireText == "HPACK: index 99 names no table entry")
        #expect(HTTP2Problem.inadequateSecurity(.prohibitedSuite(.TLS_RSA_WITH_AES_128_GCM_SHA256, forwardSecret: false)).wireText
                == "TLS_RSA_WITH_AES_128_GCM_SHA256 is on HTTP/2's prohibited list (RFC 9113 §9.2.2): no ephemeral key exchange")
    }

    @Test func chineseHasNoEnglishSentence() {
        for problem in Self.every {
            let chinese = Explanations.chinese.http2Problem(problem)
            #expect(!chinese.contains("h2problem.") && !chinese.contains("h2frame.") && !chinese.contains("hpack.")
                    && !chinese.contains("h2request.") && !chinese.contains("h2tls.") && !chinese.contains("{"), "\(chinese)")
            #expect(chinese != problem.wireText, "\(problem)")
            #expect(ChineseLayoutTests.englishRuns(in: chinese).isEmpty, "\(problem): \(chinese)")
        }
    }

    /// The peer's own bytes inside a problem (what a non-HTTP/2 client sent, a field name) are shown
    /// escaped: they cannot drive the terminal, in either language.
    @Test func peerBytesInAProblemAreEscaped() {
        let problems: [HTTP2Problem] = [.notPreface(began: "\u{1B}[2J", looksHTTP1: false), .malformedRequest(.uppercaseFieldName("X\u{1B}]0;t\u{07}"))]
        for problem in problems {
            let trace = Trace(events: [TraceEvent(time: 0, actor: .server, kind: .http2(.connectionError(.protocolError, problem)))])
            for explanations in [Explanations.english, .chinese] {
                let lines = TextRenderer(verbosity: .normal, width: 120, color: false, explanations: explanations).render(trace)
                #expect(lines.contains { $0.contains("PROTOCOL_ERROR") }, "\(lines)")
                #expect(!lines.joined().contains("\u{1B}") && !lines.joined().contains("\u{07}"), "\(lines)")
            }
        }
    }

    /// A built-in run made to pick a suite HTTP/2 prohibits: the ladder and the outcome say why in
    /// the reader's language; JSON Lines keeps the English reason.
    @Test func aProhibitedSuiteIsExplainedInBothLanguages() throws {
        var setup = try BuiltInRun.h2.setup(seed: 1)
        setup.client.cipherSuites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        setup.server.cipherSuites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        let trace = Simulation(setup).run()
        func text(_ e: Explanations) -> String {
            TextRenderer(verbosity: .normal, width: 100_000, color: false, explanations: e).render(trace).joined(separator: "\n")
        }
        let english = "TLS_RSA_WITH_AES_128_GCM_SHA256 is on HTTP/2's prohibited list (RFC 9113 §9.2.2): no ephemeral key exchange"
        #expect(text(.english).contains(english))
        let chinese = text(.chinese)
        #expect(chinese.contains("TLS_RSA_WITH_AES_128_GCM_SHA256 在 HTTP/2 的禁用列表上（RFC 9113 §9.2.2）：没有临时密钥交换"), "\(chinese)")
        #expect(!chinese.contains(english))
        let json = JSONLinesRenderer().render(trace).first { $0.contains("\"connection_error\"") }
        #expect(json?.contains("\"reason\":\"\(english)\"") == true, "\(json ?? "none")")
    }
}
