import Foundation
@testable import Scenarios
import Testing

/// Issue #22, item 4: a valid lesson cannot make the simulator work for hours or fill memory. Each
/// limit is checked when the file is read, with an error naming file, line, column and field; a
/// lesson at the limit still runs.
@Suite("Bounded lesson work")
struct WorkLimitTests {
    @Test func aSeedSearchBeyondTheLimitIsRefusedWhereItIsWritten() {
        // The issue's example: 65536 process ids × (2 × 10 + 1) clock milliseconds = 1,376,256 guesses.
        let e = validationError(minimal("attacker: { kind: weak_client_random, process_id_space: 65536, clock_window_ms: 10 }\n"))
        #expect(e?.file == "t.yaml")
        #expect(e?.line == 3 && e?.column == 39)
        #expect(e?.path == "attacker.process_id_space")
        #expect(e?.message.contains("1376256 seeds, above the 131072") == true)
        #expect(e?.message.contains("use clock_window_ms ≤ 0") == true)
        // Only the window written: the error sits on it.
        let w = validationError(minimal("attacker: { kind: weak_client_random, clock_window_ms: 2000 }\n"))
        #expect(w?.path == "attacker.clock_window_ms")
        #expect(w?.message.contains("(2 × clock_window_ms 2000 + 1) × process_id_space 64 = 256064 seeds") == true)
    }

    @Test func aSeedSearchAtTheLimitIsAccepted() {
        let limit = LessonWorkLimits.maximumSeedCandidates
        #expect(validationError(minimal("attacker: { kind: weak_client_random, process_id_space: 65536, clock_window_ms: 0 }\n")) == nil)
        #expect(validationError(minimal("attacker: { kind: weak_client_random, process_id_space: \(limit / 2 - 1), clock_window_ms: 0 }\n")) == nil)
        // (2 × 1 + 1) × 43690 = 131070 fits; × 43691 = 131073 does not.
        #expect(validationError(minimal("attacker: { kind: weak_client_random, process_id_space: 43690, clock_window_ms: 1 }\n")) == nil)
        #expect(validationError(minimal("attacker: { kind: weak_client_random, process_id_space: 43691, clock_window_ms: 1 }\n")) != nil)
    }

    static let bigResponse = "HTTP/1.1 200 OK\\r\\nContent-Length: 200000\\r\\n\\r\\n" + String(repeating: "x", count: 200_000)

    @Test func aOneByteWindowWithABigResponseIsRefusedOnTheWindow() {
        // The issue's example: window 1 with a 200 KB response (15 s and 692 MB before this limit).
        let e = validationError(minimal("tcp: { window: 1 }\nhttp: { response: \"\(Self.bigResponse)\" }\n"))
        #expect(e?.path == "tcp.window")
        #expect(e?.line == 3 && e?.column == 8)
        #expect(e?.message.contains("in segments of at most 1 bytes") == true)
        #expect(e?.message.contains("above the 10000 a lesson may ask for; set tcp.window to at least 21") == true)
        // The suggested window is enough.
        #expect(validationError(minimal("tcp: { window: 21 }\nhttp: { response: \"\(Self.bigResponse)\" }\n")) == nil)
        // Three requests each get the response: three times the bytes.
        let three = validationError(minimal("tcp: { window: 21 }\nhttp: { requests: [\"GET / HTTP/1.1\\r\\n\\r\\n\", \"GET / HTTP/1.1\\r\\n\\r\\n\", \"GET / HTTP/1.1\\r\\n\\r\\n\"], response: \"\(Self.bigResponse)\" }\n"))
        #expect(three?.path == "tcp.window")
        #expect(three?.message.contains("set tcp.window to at least 61") == true, "\(three.map { "\($0)" } ?? "valid")")
    }

    @Test func aSmallMSSIsNamedWhenItIsTheSmallerOfTheTwo() {
        // HTTP/1.0: a connection (and a handshake) per request; 7 × (200 KB + 8 KB) in 128-byte segments.
        let requests = (0 ..< 7).map { "\"GET /\($0) HTTP/1.0\\r\\n\\r\\n\"" }.joined(separator: ", ")
        let e = validationError(minimal("tcp: { mss: 128 }\nhttp: { mode: http/1.0, requests: [\(requests)], response: \"\(Self.bigResponse)\" }\n"))
        #expect(e?.path == "tcp.mss")
        #expect(e?.message.contains("segments of at most 128 bytes") == true)
        #expect(e?.message.contains("set tcp.mss to at least 146") == true, "\(e.map { "\($0)" } ?? "valid")")
        // Six fit.
        let six = (0 ..< 6).map { "\"GET /\($0) HTTP/1.0\\r\\n\\r\\n\"" }.joined(separator: ", ")
        #expect(validationError(minimal("tcp: { mss: 128 }\nhttp: { mode: http/1.0, requests: [\(six)], response: \"\(Self.bigResponse)\" }\n")) == nil)
    }

    @Test func aLessonAtTheSegmentLimitRunsAndStaysUnderIt() throws {
        // window 21, 200 KB: just under the limit; the run completes and its segment count is below it.
        let scenario = try ScenarioParser.parse(text: minimal("tcp: { window: 21 }\nhttp: { response: \"\(Self.bigResponse)\" }\n"), file: "t.yaml")
        let run = scenario.run()
        #expect(run.facts["handshake"] == .string("success"))
        let events = run.trace?.events ?? []
        let sent = events.filter { if case .tcp = $0.kind { true } else { false } }
        #expect(!sent.isEmpty)
    }

    @Test func tcpSendsAreBoundedBeforeTheirBytesAreMade() {
        var actions = "actions:\n  - { do: connect }\n"
        for _ in 0 ..< 5 { actions += "  - { do: send, by: client, bytes: 1000000 }\n" }
        let e = validationError("title: t\ndescription: a description long enough to teach\nkind: tcp\n" + actions + "expect:\n  client_state: ESTABLISHED\n")
        #expect(e?.path == "actions.bytes" || e?.path.hasSuffix("bytes") == true)
        #expect(e?.line == 10)
        #expect(e?.message.contains("5000000 bytes in all, above the 4194304") == true)
    }

    @Test func synFloodsAreBoundedInAll() {
        let text = "title: t\ndescription: a description long enough to teach\nkind: tcp\nactions:\n"
            + "  - { do: syn_flood, per_second: 1000, seconds: 60 }\n  - { do: syn_flood, per_second: 1000, seconds: 60 }\n"
            + "expect:\n  client_state: CLOSED\n"
        let e = validationError(text)
        #expect(e?.line == 6)
        #expect(e?.message.contains("120000 SYNs in all") == true)
    }

    @Test func everyLibraryLessonIsWithinTheLimits() throws {
        for file in Library.files {
            _ = try ScenarioParser.parse(contentsOf: file)
        }
    }
}

/// Issue #38 defect 8: the total work a valid lesson may ask for is bounded after YAML aliases are
/// expanded — requests, each request's and the response's bytes, all the run carries, the
/// description's length, a TCP lesson's actions — each error on the key that asks for it.
@Suite("Bounded lesson work: totals after aliases")
struct WorkTotalTests {
    static func requests(_ n: Int) -> String {
        (0 ..< n).map { "\"GET /\($0) HTTP/1.1\\r\\nHost: example.com\\r\\n\\r\\n\"" }.joined(separator: ", ")
    }

    @Test func tooManyRequests() {
        let limit = LessonWorkLimits.maximumRequests
        let e = validationError(minimal("http: { mode: keep-alive, requests: [\(Self.requests(limit + 1))] }\n"))
        #expect(e?.path == "http.requests" && e?.message.contains("\(limit + 1) requests, above the \(limit)") == true, "\(e.map { "\($0)" } ?? "valid")")
        #expect(validationError(minimal("http: { mode: keep-alive, requests: [\(Self.requests(limit))] }\n")) == nil)
    }

    @Test func aliasesCountEveryTimeTheyAreUsed() {
        // One 200 KB response named by an anchor and reused by 12 requests: 2.4 MB carried.
        let body = String(repeating: "x", count: 200_000)
        let yaml = minimal("http:\n  mode: keep-alive\n  response: &big \"HTTP/1.1 200 OK\\r\\nContent-Length: 200000\\r\\n\\r\\n\(body)\"\n  requests: [\(Self.requests(12))]\n")
        let e = validationError(yaml)
        #expect(e?.path == "http.response", "\(e.map { "\($0)" } ?? "valid")")
        #expect(e?.message.contains("above the \(LessonWorkLimits.maximumCarriedBytes) a lesson may ask for") == true, "\(e.map { "\($0)" } ?? "valid")")
    }

    @Test func oneResponseOrRequestTooLarge() {
        let big = String(repeating: "x", count: LessonWorkLimits.maximumResponseBytes)
        let r = validationError(minimal("http: { response: \"HTTP/1.1 200 OK\\r\\nContent-Length: \(big.count)\\r\\n\\r\\n\(big)\" }\n"))
        #expect(r?.path == "http.response" && r?.message.contains("above the \(LessonWorkLimits.maximumResponseBytes)") == true, "\(r.map { "\($0)" } ?? "valid")")
        let long = String(repeating: "a", count: LessonWorkLimits.maximumRequestBytes)
        let q = validationError(minimal("http: { request: \"GET /\(long) HTTP/1.1\\r\\nHost: example.com\\r\\n\\r\\n\" }\n"))
        #expect(q?.path == "http.request" && q?.message.contains("request 1 has") == true, "\(q.map { "\($0)" } ?? "valid")")
    }

    @Test func descriptionsAreBounded() {
        let limit = LessonWorkLimits.maximumDescriptionCharacters
        let long = String(repeating: "word ", count: limit / 5 + 1)
        let e = validationError("title: t\ndescription: \"\(long)\"\nexpect:\n  handshake: success\n")
        #expect(e?.path == "description" && e?.message.contains("at most \(limit) characters") == true, "\(e.map { "\($0)" } ?? "valid")")
        let zh = String(repeating: "讲解", count: limit / 2 + 1)
        let z = validationError(minimal("title_zh: 标题\ndescription_zh: \(zh)\n"))
        #expect(z?.path == "description_zh", "\(z.map { "\($0)" } ?? "valid")")
        #expect(validationError("title: t\ndescription: \"\(String(repeating: "word ", count: limit / 5 - 1))\"\nexpect:\n  handshake: success\n") == nil)
    }

    @Test func tcpActionsAreBounded() {
        var actions = "actions:\n  - { do: connect }\n"
        for _ in 0 ..< LessonWorkLimits.maximumActions { actions += "  - { do: send, by: client, bytes: 1 }\n" }
        let e = validationError("title: t\ndescription: a description long enough to teach\nkind: tcp\n" + actions + "expect:\n  client_state: ESTABLISHED\n")
        #expect(e?.path == "actions" && e?.message.contains("above the \(LessonWorkLimits.maximumActions)") == true, "\(e.map { "\($0)" } ?? "valid")")
    }
}
