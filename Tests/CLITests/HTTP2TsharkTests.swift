import Foundation
import HTTP2
import Simulation
import TestSupport
import Testing
import Trace
import Trust

/// The simulated HTTP/2 runs, exported with `tlslab export` and decoded by tshark — an independent
/// HTTP/2 and HPACK implementation: the same frames (type, stream) in the same order in each
/// direction, and the same decoded header lists (`:path`, the cookie…), as the simulation's own
/// JSON trace says it sent. h2c is decoded as HTTP/2 by port (`-d tcp.port==80,http2`); h2 over
/// TLS through the key log, found by tshark's HTTP/2-over-TLS heuristic (the preface) since the
/// handshake carries no ALPN yet.
@Suite("HTTP/2 exports, decoded by tshark",
       CrossCheckRequirement.trait(Tool.path("tshark") != nil, missing: "tshark is not installed"))
struct HTTP2TsharkTests {
    struct Frame: Equatable, CustomStringConvertible {
        var type: Int
        var stream: Int
        var description: String { "\(type)/\(stream)" }
    }

    /// What the simulation says each side sent: frames in order and header lists, from `run --format json`.
    static func simulated(_ run: String) throws -> (frames: [String: [Frame]], headers: [String: [[String]]]) {
        let result = try CLI.run(["run", run, "--seed", "3", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        var frames: [String: [Frame]] = [:], headers: [String: [[String]]] = [:]
        let codes = Dictionary(uniqueKeysWithValues: HTTP2FrameType.allCases.map { ($0.name, Int($0.rawValue)) })
        for line in result.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == "http2", object["action"] as? String == "frame_sent",
                  let actor = object["actor"] as? String, let type = object["type"] as? String, let code = codes[type],
                  let stream = object["stream"] as? Int else { continue }
            frames[actor, default: []].append(Frame(type: code, stream: stream))
            if let list = object["headers"] as? [String] { headers[actor, default: []].append(list) }
        }
        return (frames, headers)
    }

    /// tshark's view per direction: frames (type, stream) in order, and each header block's fields.
    static func decoded(_ pcap: String, options: [String]) throws -> (frames: [String: [Frame]], headers: [String: [String]]) {
        let out = try Tool.run("tshark", ["-r", pcap] + options + ["-Y", "http2", "-T", "fields", "-E", "separator=\t",
                                                                  "-e", "ip.src", "-e", "http2.type", "-e", "http2.streamid",
                                                                  "-e", "http2.header.name", "-e", "http2.header.value"])
        #expect(out.status == 0, "\(out.output)")
        var frames: [String: [Frame]] = [:], headers: [String: [String]] = [:]
        for line in out.output.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5, f[0].contains(".") else { continue }
            let actor = f[0] == "192.0.2.10" ? "client" : "server"
            let types = f[1].split(separator: ",").compactMap { Int($0) }, streams = f[2].split(separator: ",").compactMap { Int($0) }
            #expect(types.count == streams.count, "\(line)")
            frames[actor, default: []] += zip(types, streams).map { Frame(type: $0, stream: $1) }
            let names = f[3].split(separator: ",", omittingEmptySubsequences: false), values = f[4].split(separator: ",", omittingEmptySubsequences: false)
            if !f[3].isEmpty { headers[actor, default: []] += zip(names, values).map { "\($0): \($1)" } }
        }
        return (frames, headers)
    }

    /// Server push, exported from its lesson: tshark reads the PUSH_PROMISE on stream 1, the
    /// promised stream 2 and the pushed request, and the pushed response on stream 2.
    @Test func tsharkSeesThePush() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lesson = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/http/http2-server-push.yaml").path
        let pcap = dir.appendingPathComponent("push.pcap").path, keys = dir.appendingPathComponent("push.keys").path
        let export = try CLI.run(["export", lesson, "--seed", "3", "--pcap", pcap, "--keylog", keys])
        #expect(export.status == 0, "\(export.stderr)")
        let sim = try Self.simulated(lesson)
        let seen = try Self.decoded(pcap, options: ["-o", "tls.keylog_file:\(keys)"])
        #expect(seen.frames["server"] == sim.frames["server"] && seen.headers["server"] == sim.headers["server"]?.flatMap { $0 })
        #expect(seen.frames["server"]?.contains(Frame(type: 5, stream: 1)) == true, "PUSH_PROMISE on stream 1")
        #expect(seen.frames["server"]?.contains(Frame(type: 0, stream: 2)) == true, "DATA on stream 2")
        let promised = try Tool.run("tshark", ["-r", pcap, "-o", "tls.keylog_file:\(keys)", "-Y", "http2.type == 5",
                                               "-T", "fields", "-e", "http2.push_promise.promised_stream_id"])
        #expect(promised.output.split(separator: "\n").contains("2"), "\(promised.output)")
        #expect(seen.headers["server"]?.contains(":path: /style.css") == true)
    }

    /// The frames this simulation adds, decoded by tshark: a header block beyond 16384 octets as
    /// HEADERS + CONTINUATION (RFC 9113 §6.10), a request body in DATA after HEADERS without
    /// END_STREAM (§8.1).
    @Test func tsharkSeesContinuationAndRequestBodies() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = String(repeating: "x", count: 20_000)
        let lesson = dir.appendingPathComponent("bodies.yaml").path
        try """
        title: continuation and bodies
        description: a header block continued and a request body, for tshark to decode
        http:
          mode: h2
          tls: false
          requests:
            - "GET /big HTTP/1.1\\r\\nHost: example.com\\r\\nX-Big: \(big)\\r\\n\\r\\n"
            - "POST /form HTTP/1.1\\r\\nHost: example.com\\r\\nContent-Length: 11\\r\\n\\r\\nhello=world"
        expect:
          requests: 2
          responses: 2
        """.write(toFile: lesson, atomically: true, encoding: .utf8)
        let pcap = dir.appendingPathComponent("bodies.pcap").path
        let export = try CLI.run(["export", lesson, "--seed", "3", "--pcap", pcap])
        #expect(export.status == 0, "\(export.stderr)")
        let options = ["-d", "tcp.port==80,http2"]
        let sim = try Self.simulated(lesson)
        let seen = try Self.decoded(pcap, options: options)
        for actor in ["client", "server"] {
            #expect(seen.frames[actor] == sim.frames[actor], "\(actor): tshark \(seen.frames[actor] ?? []) vs simulated \(sim.frames[actor] ?? [])")
        }
        #expect(sim.frames["client"]?.contains(Frame(type: 9, stream: 1)) == true, "CONTINUATION on stream 1")
        #expect(seen.headers["client"] == sim.headers["client"]?.flatMap { $0 }, "client headers")
        #expect(sim.frames["client"]?.contains(Frame(type: 0, stream: 3)) == true, "DATA on stream 3")
        let client = seen.headers["client"] ?? []
        #expect(client.contains("x-big: \(big)") && client.contains(":path: /form"), "tshark reassembled the continued block")
        let body = try Tool.run("tshark", ["-r", pcap] + options + ["-Y", "http2.type == 0 && http2.streamid == 3", "-T", "fields", "-e", "http2.data.data"])
        #expect(body.output.contains(Array("hello=world".utf8).map { String(format: "%02x", $0) }.joined()), "\(body.output)")
        let experts = try Tool.run("tshark", ["-r", pcap, "-q", "-z", "expert,warn"] + options)
        #expect(!experts.output.contains("Malformed") && !experts.output.contains("Warnings ("), "\(experts.output)")
    }

    @Test(arguments: ["h2c", "h2"])
    func tsharkSeesTheSameFramesAndHeaders(run: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcap = dir.appendingPathComponent("\(run).pcap").path, keys = dir.appendingPathComponent("\(run).keys").path
        let export = try CLI.run(["export", run, "--seed", "3", "--pcap", pcap] + (run == "h2" ? ["--keylog", keys] : []))
        #expect(export.status == 0, "\(export.stderr)")
        let options = run == "h2c" ? ["-d", "tcp.port==80,http2"] : ["-o", "tls.keylog_file:\(keys)"]
        let sim = try Self.simulated(run)
        let seen = try Self.decoded(pcap, options: options)
        for actor in ["client", "server"] {
            #expect(!(sim.frames[actor] ?? []).isEmpty)
            #expect(seen.frames[actor] == sim.frames[actor], "\(actor): tshark \(seen.frames[actor] ?? []) vs simulated \(sim.frames[actor] ?? [])")
            #expect(seen.headers[actor] == sim.headers[actor]?.flatMap { $0 }, "\(actor) headers")
        }
        // The values that matter, by name, as tshark decoded them (HPACK's dynamic table included:
        // the later requests' cookie and :authority are one-byte indices on the wire).
        let client = seen.headers["client"] ?? []
        #expect(client.filter { $0 == "cookie: session=42" }.count == 3, "\(client)")
        #expect(client.filter { $0.hasPrefix(":path: ") } == [":path: /", ":path: /style.css", ":path: /logo.png"])
        #expect(client.contains(":scheme: \(run == "h2" ? "https" : "http")"))
        // The preface, as tshark recognises it; frames are well formed: no malformed or warning items.
        let magic = try Tool.run("tshark", ["-r", pcap] + options + ["-Y", "http2.magic", "-T", "fields", "-e", "http2.magic"])
        #expect(magic.output.contains("PRI * HTTP/2.0"), "\(magic.output)")
        let experts = try Tool.run("tshark", ["-r", pcap, "-q", "-z", "expert,warn", "-o", "tcp.check_checksum:TRUE"] + options)
        #expect(!experts.output.contains("Malformed") && !experts.output.contains("Warnings ("), "\(experts.output)")
        if run == "h2" {
            // Without the key log tshark sees TLS records only.
            let blind = try Tool.run("tshark", ["-r", pcap, "-Y", "http2", "-T", "fields", "-e", "http2.type"])
            #expect(!blind.output.split(separator: "\n").contains { $0.first?.isNumber == true }, "\(blind.output)")
        }
    }
}
