import Foundation
import HTTP2
@testable import Rendering
@testable import Simulation
import Testing
import Trace
import Trust

/// HTTP/2 in the text ladder (frames, HPACK sizes and representations, the teaching sentences)
/// and in JSON Lines (an object per frame, the summary's HTTP/2 counts).
@Suite("HTTP/2 rendering")
struct HTTP2RenderingTests {
    static func trace(_ run: BuiltInRun) throws -> Trace { Simulation(try run.setup(seed: 1)).run() }

    @Test func ladderShowsFramesAndHPACK() throws {
        let lines = TextRenderer(verbosity: .bytes, width: 200).render(try Self.trace(.h2c))
        let text = lines.joined(separator: "\n")
        for expected in ["HTTP/2 connection preface", "HTTP/2 SETTINGS stream 0: SETTINGS_ENABLE_PUSH=0",
                         "HTTP/2 HEADERS stream 1 [END_STREAM, END_HEADERS]: :path /, 5 header fields, HPACK 64 → 22 bytes",
                         "HTTP/2 HEADERS stream 3 [END_STREAM, END_HEADERS]: :path /style.css, 5 header fields, HPACK 73 → 13 bytes (4 from the tables)",
                         "HTTP/2 DATA stream 5 [END_STREAM]: 6 bytes of body", "HTTP/2 GOAWAY stream 0: last stream 0, NO_ERROR",
                         "indexed 63 (dynamic) → cookie: session=42", "literal, added to the dynamic table; name from index 32; value Huffman-coded → cookie: session=42",
                         "HTTP/2: 3 streams on 1 connection; header blocks 350 → 67 bytes with HPACK; each request's: 22, 13, 13 bytes"] {
            #expect(text.contains(expected), "missing: \(expected)")
        }
        // Each teaching sentence once, in the catalogue.
        for key in ["phase.h2c", "h2.chosen.h2c", "h2.preface", "h2.settings", "h2.headers", "h2.hpack", "h2.data", "h2.goaway", "knowledge.http2", "stats.http2"] {
            let sentence = try #require(Explanations.english(key), "\(key) is in the catalogue")
            let words = String(sentence.prefix(40))
            #expect(text.components(separatedBy: words).count - 1 >= 1, "\(key) is said")
        }
        let tls = TextRenderer(width: 200).render(try Self.trace(.h2)).joined(separator: "\n")
        #expect(tls.contains("protocol \"h2\"") && tls.contains("HTTP/2 frames inside TLS application data"))
        #expect(!tls.contains(String(try #require(Explanations.english("knowledge.http2")).prefix(40))), "over TLS nothing is decoded")
    }

    /// A GOAWAY is "graceful" only with NO_ERROR; with another code the ladder says the connection
    /// ends with that error, and the Outcome names the HTTP/2 connection error.
    @Test func goawayWithAnErrorIsNotGraceful() throws {
        let graceful = try #require(Explanations.english("h2.goaway"))
        var setup = try BuiltInRun.h2.setup(seed: 1)
        setup.client.cipherSuites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        setup.server.cipherSuites = [.TLS_RSA_WITH_AES_128_GCM_SHA256]
        let text = TextRenderer(width: 200).render(Simulation(setup).run()).joined(separator: "\n")
        #expect(text.contains("HTTP/2 GOAWAY stream 0: last stream 0, INADEQUATE_SECURITY"))
        #expect(!text.contains(String(graceful.prefix(40))) && !text.contains("gracefully"))
        #expect(text.contains(String(try #require(Explanations.english("h2.goawayError")).prefix(40))))
        // JSON: the TLS outcome is success; the HTTP/2 connection error has its own key.
        let last = try #require(JSONLinesRenderer().render(Simulation(setup).run()).last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(summary["outcome"] as? String == "success" && summary["http2_error"] as? String == "INADEQUATE_SECURITY", "\(summary)")
        let outcome = try #require(text.components(separatedBy: "Outcome").last)
        #expect(outcome.contains("HTTP/2 connection error: the client ended the connection with GOAWAY INADEQUATE_SECURITY"), "\(outcome)")
        // Without an error: graceful, and no such line.
        let fine = TextRenderer(width: 200).render(try Self.trace(.h2)).joined(separator: "\n")
        #expect(fine.contains(String(graceful.prefix(40))) && !fine.contains("HTTP/2 connection error"))
    }

    /// "HPACK at work" sits at the first request whose block indexes the dynamic table, not at a
    /// pushed response that reuses the server's entries first.
    @Test func hpackNoteSitsAtTheRepeatedRequest() throws {
        let note = String(try #require(Explanations.english("h2.hpack")).prefix(40))
        var setup = try BuiltInRun.h2.setup(seed: 1)
        setup.requests = ["GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n"]
        setup.http2Push = ["/style.css"]
        let push = TextRenderer(width: 200).render(Simulation(setup).run())
        #expect(!push.contains { $0.contains(note) }, "one request repeats nothing")
        let lines = TextRenderer(width: 200).render(try Self.trace(.h2c))
        let at = try #require(lines.firstIndex { $0.contains(note) })
        let frame = try #require(lines[..<at].last { $0.contains("HTTP/2 ") && $0.contains(" stream ") })
        #expect(frame.contains("HTTP/2 HEADERS stream 3") && frame.contains(":path /style.css"), "\(frame)")
    }

    /// RST_STREAM names its error code in the ladder (here REFUSED_STREAM beyond the server's limit).
    @Test func resetStreamsNameTheirError() throws {
        var setup = try BuiltInRun.h2c.setup(seed: 1)
        setup.http2MaxConcurrentStreams = 1
        let text = TextRenderer(width: 200).render(Simulation(setup).run()).joined(separator: "\n")
        #expect(text.contains("HTTP/2 RST_STREAM stream 3: REFUSED_STREAM"), "\(text)")
        // The refused request goes again, said as a retry, and JSON counts it once.
        #expect(text.contains("HTTP request again on a new stream (stream 3 was refused"), "\(text)")
        let objects = try JSONLinesRenderer().render(Simulation(setup).run()).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let retried = objects.filter { $0["action"] as? String == "request_retried" }
        #expect(retried.map { $0["refused_stream"] as? Int } == [3, 5], "\(retried)")
        let summary = try #require(objects.last)
        #expect(summary["requests"] as? Int == objects.filter { $0["action"] as? String == "request_sent" }.count)
        #expect(summary["requests"] as? Int == 3, "\(summary)")
    }

    @Test func jsonHasAnObjectPerFrameAndTheCounts() throws {
        let lines = JSONLinesRenderer().render(try Self.trace(.h2))
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let frames = objects.filter { $0["event"] as? String == "http2" && $0["action"] as? String == "frame_sent" }
        #expect(frames.count == 14)
        let first = try #require(frames.first { $0["type"] as? String == "HEADERS" })
        #expect(first["stream"] as? Int == 1 && first["hpack_raw"] as? Int == 65 && first["hpack_encoded"] as? Int == 22)
        #expect((first["headers"] as? [String])?.contains("cookie: session=42") == true)
        #expect(objects.contains { $0["action"] as? String == "chosen" && $0["protocol"] as? String == "h2" })
        let summary = try #require(objects.last)
        #expect(summary["streams"] as? Int == 3 && summary["pushed_responses"] as? Int == 0)
        #expect(summary["hpack_encoded_bytes"] as? Int ?? 0 < summary["hpack_raw_bytes"] as? Int ?? 0)
        #expect(summary.keys.contains("http2_error") && summary["http2_error"] is NSNull)
        // Runs without HTTP/2 keep the summary as it was.
        let rsa = JSONLinesRenderer().render(try Self.trace(.rsa))
        #expect(try #require(rsa.last).contains("\"streams\"") == false)
        // SETTINGS parameters by name and value, an ACK with none; WINDOW_UPDATE's increment;
        // RST_STREAM's and GOAWAY's error codes by name.
        let settings = try #require(frames.first { $0["type"] as? String == "SETTINGS" }?["settings"] as? [[String: Any]])
        #expect(settings.map { $0["name"] as? String } == ["SETTINGS_ENABLE_PUSH", "SETTINGS_MAX_CONCURRENT_STREAMS", "SETTINGS_INITIAL_WINDOW_SIZE"])
        #expect(settings.map { $0["value"] as? Int } == [0, 100, 65535])
        #expect(frames.contains { $0["type"] as? String == "SETTINGS" && ($0["flags"] as? [String]) == ["ACK"] && ($0["settings"] as? [Any])?.isEmpty == true })
        #expect(frames.contains { $0["type"] as? String == "GOAWAY" && $0["error"] as? String == "NO_ERROR" && $0["last_stream"] as? Int == 0 })
        var setup = try BuiltInRun.h2c.setup(seed: 1)
        setup.httpResponse = "HTTP/1.1 200 OK\r\nContent-Length: 70000\r\n\r\n" + String(repeating: "x", count: 70_000)
        setup.requests = ["POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\nhello"]
        let long = try JSONLinesRenderer().render(Simulation(setup).run()).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }.filter { $0["event"] as? String == "http2" && $0["action"] as? String == "frame_sent" }
        #expect(long.contains { $0["type"] as? String == "RST_STREAM" && $0["error"] as? String == "PROTOCOL_ERROR" && $0["stream"] as? Int == 1 })
        setup.requests = nil
        let updates = try JSONLinesRenderer().render(Simulation(setup).run()).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }.filter { $0["type"] as? String == "WINDOW_UPDATE" && $0["action"] as? String == "frame_sent" }
        #expect(!updates.isEmpty && updates.allSatisfy { ($0["increment"] as? Int ?? 0) > 0 })
    }
}

extension HTTP2RenderingTests {
    @Test func windowUpdatesAreShownAndExplained() throws {
        var setup = try BuiltInRun.h2c.setup(seed: 1)
        setup.httpResponse = "HTTP/1.1 200 OK\r\nContent-Length: 40000\r\n\r\n" + String(repeating: "x", count: 40_000)
        let text = TextRenderer(width: 200).render(Simulation(setup).run()).joined(separator: "\n")
        #expect(text.contains("HTTP/2 WINDOW_UPDATE stream 0: "))
        #expect(text.contains(String(try #require(Explanations.english("h2.windowUpdate")).prefix(40))))
    }
}
