import Foundation
import HTTP2
@testable import Rendering
import TestSupport
import Testing
import TLSEngine
import Trace

/// Why a real peer's exchange failed (``ExchangeFailure``) is worded by the catalogue in English and
/// in Chinese, every case: no key left unfilled, the Chinese differs from the English and holds no
/// English word outside the allow-list; peer text quoted in a failure is escaped.
@Suite("Exchange failures worded in both languages")
struct ExchangeFailureWordingTests {
    static let timeout = SocketError.timeout(.data(from: "192.0.2.1:443"), milliseconds: 5000)
    static let cause = AlertCause.failure(.peerMisbehaved(.invalidDHPublicValue(inServerKeyExchange: true, reason: .atMostOne)))

    /// One example of every case and every wording branch (the case names are checked against the enum below).
    static let examples: [ExchangeFailure] = [
        .cannotConnect(host: "example.com", port: 443, timeout), .brokeSendingClientHello,
        .handshakeTimedOut(milliseconds: 10000, state: .tls12(.expectClientHello)), .handshakeReadFailed(state: .tls12(.expectServerHello), timeout),
        .peerClosedDuringHandshake(.server, state: .tls12(.expectServerHello)), .peerClosedDuringHandshake(.client, state: .tls12(.expectClientKeyExchange)),
        .fatalAlertReceived(from: .server, .handshakeFailure), .fatalAlertReceived(from: .client, .unknownCA), .errorAlertReceived(from: .client, .unrecognizedName),
        .fatalAlertSent(by: .client, .illegalParameter, cause), .fatalAlertSent(by: .server, .illegalParameter, cause),
        .peerEndedHandshake(.server), .closeNotifyBeforeRequest(from: .server), .closeNotifyBeforeRequest(from: .client),
        .closeNotifyMidConnection(from: .client),
        .couldNotSend(.request, .internalError(.applicationDataBeforeHandshake)), .couldNotSend(.response, .internalError(.rsaEncryptionFailed)),
        .nothingReceived(.request, http2: false, timeout), .nothingReceived(.request, http2: true, timeout),
        .nothingReceived(.response, http2: false, timeout), .nothingReceived(.response, http2: true, timeout),
        .requestTimedOut(milliseconds: 10000, http2: false), .requestTimedOut(milliseconds: 10000, http2: true),
        .peerClosedBeforeMessage(.client, .request, started: false), .peerClosedBeforeMessage(.client, .request, started: true),
        .peerClosedBeforeMessage(.server, .response, started: false), .peerClosedBeforeMessage(.server, .response, started: true),
        .peerClosedMidConnection(.client), .requestHeadTooLong(limit: 16384),
        .requestLineRefused(status: 400, line: "HELLO THERE", .notThreeParts), .requestLineRefused(status: 400, line: "G@T / HTTP/1.1", .methodNotToken),
        .requestLineRefused(status: 400, line: "GET  HTTP/1.1", .badTarget), .requestLineRefused(status: 400, line: "GET / HTTP/1", .badVersion),
        .requestLineRefused(status: 505, line: "GET / HTTP/2.0", .unsupportedVersion("HTTP/2.0")),
        .unspokenProtocol("spdy/3"), .http2SendFailed(.internalError(.rsaEncryptionFailed)), .http2SendFailed(nil),
        .http2OwnGoAway(by: .client, .protocolError, reason: "DATA on stream 0"), .http2OwnGoAway(by: .server, .frameSizeError, reason: "frame too large"),
        .http2PeerGoAway(.server, code: 1, lastStream: 3, debug: ""), .http2PeerGoAway(.server, code: 0xff, lastStream: 0, debug: "bye"),
        .http2StreamReset(.refusedStream), .http2PartlyAnswered(answered: 1, requests: 3), .http2ResponseIncomplete,
        .drainStopped(.requestTimedOut(milliseconds: 10000, http2: false), bytes: 65536),
        .responseTooLarge(limit: 16_777_216), .responseTimedOut(milliseconds: 60_000, bytes: 12),
        .responseTruncated(.headIncomplete(bytes: 9)), .responseTruncated(.shorterThanContentLength(received: 5, expected: 100)),
        .responseTruncated(.chunkedUnterminated(bytes: 80)), .responseTruncated(.notClosedProperly(bytes: 70)),
    ]

    static func caseName(_ value: ExchangeFailure) -> String {
        Mirror(reflecting: value).children.first?.label ?? String("\(value)".prefix { $0 != "(" })
    }

    @Test func theExamplesCoverEveryCase() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: root.appendingPathComponent("Sources/Trace/ExchangeFailure.swift"), encoding: .utf8)
        let body = try #require(source.components(separatedBy: "public enum ExchangeFailure:").dropFirst().first)
            .components(separatedBy: "\n}").first ?? ""
        let cases = Set(body.split(separator: "\n").compactMap { line -> String? in
            var text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("indirect ") { text = String(text.dropFirst(9)) }
            guard text.hasPrefix("case ") else { return nil }
            return String(text.dropFirst(5).prefix { $0.isLetter || $0.isNumber })
        })
        #expect(cases.count > 20)
        #expect(Set(Self.examples.map(Self.caseName)) == cases)
    }

    @Test func everyFailureIsWordedInBothLanguages() {
        var englishSeen = Set<String>()
        for failure in Self.examples {
            let english = Explanations.english.exchangeFailure(failure), chinese = Explanations.chinese.exchangeFailure(failure)
            for text in [english, chinese] {
                #expect(!text.contains("{") && !text.contains("exchange.") && !text.contains("requestLine.")
                        && !text.contains("actor.") && !text.contains("socketError."), "\(failure): \(text)")
            }
            #expect(english != chinese, "\(failure): \(english)")
            #expect(englishSeen.insert(english).inserted, "two failures read the same: \(english)")
            #expect(chinese.contains { ChineseTypography.isHan($0) }, "\(failure): \(chinese)")
            #expect(ChineseTypography.problems(in: chinese).isEmpty, "\(failure): \(ChineseTypography.problems(in: chinese))")
            // An empty quoted value (no GOAWAY debug data) quotes nothing: replacing "" would space out every letter.
            let exempt = Self.quotedValues(failure).filter { !$0.isEmpty }
            let kept = exempt.reduce(chinese) { $0.replacing($1, with: " ") }
            #expect(ChineseASCIIWordTests.disallowedWords(in: kept).isEmpty, "\(failure): \(ChineseASCIIWordTests.disallowedWords(in: kept)) in \(chinese)")
        }
    }

    /// Text a failure quotes as it was (a request line and the status line's reason phrase, GOAWAY debug data).
    static func quotedValues(_ failure: ExchangeFailure) -> [String] {
        switch failure {
        case .requestLineRefused(_, let line, _): return [line, "Bad Request", "HTTP Version Not Supported"]
        case .http2OwnGoAway(_, _, let reason): return [reason]
        case .http2PeerGoAway(_, _, _, let debug): return [debug]
        default: return []
        }
    }

    /// The lines `tlslab connect` and `serve` printed before the failures were typed still read the same.
    @Test func theEnglishLinesKeepTheirWords() {
        let english = Explanations.english.exchangeFailure
        #expect(english(.fatalAlertReceived(from: .client, .unknownCA)) == "the client sent a fatal alert: unknown_ca")
        #expect(english(.errorAlertReceived(from: .client, .unrecognizedName)).hasPrefix("the client sent the alert unrecognized_name at warning level; TLS 1.3 treats"))
        #expect(english(.requestTimedOut(milliseconds: 2000, http2: false))
                == "request timed out: no complete HTTP request within the 2000 ms deadline; closed")
        #expect(english(.requestHeadTooLong(limit: 16384)) == "request head longer than 16384 bytes: answered 431 and closed")
        #expect(english(.fatalAlertSent(by: .server, .illegalParameter, Self.cause)).hasPrefix("sent alert illegal_parameter: "))
        #expect(english(.fatalAlertSent(by: .client, .illegalParameter, Self.cause)).hasPrefix("refused: illegal_parameter — "))
        #expect(english(.drainStopped(.peerClosedMidConnection(.client), bytes: 10)).hasSuffix("kept sending after we were done: stopped draining after 10 bytes"))
    }

    /// Peer-controlled text cannot drive a terminal: control bytes in GOAWAY debug data, a request line
    /// or an ALPN name are escaped in both languages.
    @Test func peerTextIsEscaped() {
        let hostile = "x\u{1b}[2J\u{07}y"
        for failure in [ExchangeFailure.http2PeerGoAway(.server, code: 1, lastStream: 1, debug: hostile),
                        .requestLineRefused(status: 400, line: hostile, .notThreeParts), .unspokenProtocol(hostile),
                        .http2OwnGoAway(by: .server, .protocolError, reason: hostile)] {
            for text in [Explanations.english.exchangeFailure(failure), Explanations.chinese.exchangeFailure(failure)] {
                #expect(!text.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 }, "\(failure): \(text.debugDescription)")
            }
        }
    }
}
