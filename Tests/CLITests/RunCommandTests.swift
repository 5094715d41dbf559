import Foundation
import HTTP2
import Simulation
import Testing
import Trace
import Trust

@Suite("tlslab run and the default walkthrough")
struct RunCommandTests {
    @Test func defaultRunPrintsTheWholeTraceWhenNotATerminal() throws {
        let result = try CLI.run([])
        #expect(result.status == 0)
        for text in ["TCP three-way handshake", "TLS ClientHello", "TLS ServerHello", "TLS Certificate",
                     "TLS ClientKeyExchange", "master_secret = PRF(", "TLS Finished", "HTTP request",
                     "Success: TLS 1.2, TLS_RSA_WITH_AES_128_GCM_SHA256", "Who knows what", "TIME-WAIT → CLOSED"] {
            #expect(result.stdout.contains(text), "missing: \(text)")
        }
        #expect(!result.stdout.contains("\u{1B}["), "no colour when redirected")
    }

    @Test func sameSeedSameBytesDifferentSeedDifferentRun() throws {
        let a = try CLI.run(["run", "ecdhe", "--seed", "5", "--format", "json"])
        let b = try CLI.run(["run", "ecdhe", "--seed", "5", "--format", "json"])
        let c = try CLI.run(["run", "ecdhe", "--seed", "6", "--format", "json"])
        #expect(a.status == 0 && a.stdout == b.stdout)
        #expect(a.stdout != c.stdout)
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line.prefix(80))")
        }
    }

    /// Every built-in run (`tlslab list`).
    static let builtInRuns = BuiltInRun.allCases.map(\.rawValue)

    @Test func listNamesEveryBuiltInRun() throws {
        let list = try CLI.run(["list"])
        let names = list.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names == Self.builtInRuns)
        #expect(names.contains("wrong-host") && names.contains("tamper-serverhello"))
    }

    @Test(arguments: builtInRuns)
    func jsonContract(run: String) throws {
        let result = try CLI.run(["run", run, "--format", "json"])
        #expect(result.status == 0)
        let objects = try Self.objects(result.stdout)
        #expect(objects.count > 20)
        for o in objects {
            #expect(o["t"] is Double || o["t"] is Int, "t missing")
            #expect(o["actor"] is String && o["event"] is String)
        }
        // Every message (handshake, ChangeCipherSpec, alert) sent is received or dropped exactly once:
        // matched per direction and message, in order. On-path attackers change bytes in flight, so
        // bytes must match except in the runs that tamper or strip.
        func key(_ o: [String: Any]) -> String {
            "\(o["event"]!) \(o["direction"] ?? "?") \(o["message"] ?? o["description"] ?? "?")"
        }
        let units = objects.filter { ["tls_message", "tls_alert"].contains($0["event"] as? String) }
        var pending: [String: [[String: Any]]] = [:]
        var settled = 0
        for o in units {
            #expect(o["direction"] is String, "no direction: \(o)")
            switch o["action"] as? String {
            case "sent":
                pending[key(o), default: []].append(o)
            case "received", "dropped":
                guard var queue = pending[key(o)], !queue.isEmpty else {
                    Issue.record("\(run): \(key(o)) \(o["action"]!) without a matching send")
                    continue
                }
                let sent = queue.removeFirst()
                pending[key(o)] = queue
                settled += 1
                // The on-path attackers of these runs change a handshake message in flight.
                if !["tamper-serverhello", "strip", "tls13-downgrade"].contains(run) {
                    #expect(sent["bytes"] as? String == o["bytes"] as? String, "\(run): \(key(o)) bytes differ")
                }
                if o["action"] as? String == "dropped" {
                    #expect((o["reason"] as? String)?.isEmpty == false, "\(run): a drop gives its reason")
                }
            default:
                Issue.record("\(run): bad action in \(o)")
            }
        }
        let unmatched = pending.filter { !$0.value.isEmpty }.map(\.key)
        #expect(unmatched.isEmpty, "\(run): sent but never received nor dropped: \(unmatched)")
        let plain = ["http-plain", "h2c"].contains(run)
        if !plain { #expect(settled > 0) }
        let sent = units.filter { $0["event"] as? String == "tls_message" && $0["action"] as? String == "sent" }
        if !plain {
            let hello = try #require(sent.first)
            #expect(hello["message"] as? String == "ClientHello")
            #expect((hello["bytes"] as? String)?.hasPrefix("01") == true)
        }
        // HTTP/2: every frame one side sent, the other received, in the same order.
        let frames = objects.filter { $0["event"] as? String == "http2" }
        for (from, to) in [("client", "server"), ("server", "client")] {
            func list(_ actor: String, _ action: String) -> [String] {
                frames.filter { $0["actor"] as? String == actor && $0["action"] as? String == action }
                    .map { "\($0["type"] ?? "?")/\($0["stream"] ?? "?")" }
            }
            #expect(list(from, "frame_sent") == list(to, "frame_received"), "\(run): \(from) → \(to) frames")
        }
        if run.hasPrefix("h2") { #expect(!frames.isEmpty) }
        // Each frame type's fields: SETTINGS its parameters by name, WINDOW_UPDATE its increment,
        // RST_STREAM and GOAWAY their error code's name.
        for f in frames where f["action"] as? String == "frame_sent" || f["action"] as? String == "frame_received" {
            switch f["type"] as? String {
            case "SETTINGS":
                let list = f["settings"] as? [[String: Any]]
                #expect(list?.allSatisfy { ($0["name"] as? String)?.hasPrefix("SETTINGS_") == true && $0["value"] is Int } == true, "\(run): \(f)")
            case "WINDOW_UPDATE":
                #expect(f["increment"] is Int, "\(run): \(f)")
            case "RST_STREAM", "GOAWAY":
                #expect((f["error"] as? String)?.isEmpty == false, "\(run): \(f)")
            default:
                break
            }
        }
        // TCP segments: the first is the client's SYN
        let segments = objects.filter { $0["event"] as? String == "tcp_segment" }
        #expect(segments.first?["flags"] as? String == "S" && segments.first?["action"] as? String == "sent")
        #expect(segments.contains { $0["flags"] as? String == "SA" })
        if run == "lossy" { #expect(segments.contains { $0["action"] as? String == "dropped" }) }
        // the summary closes the stream
        let summary = try #require(objects.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["outcome"] is String)
        guard ["rsa", "dhe", "ecdhe", "lossy"].contains(run) else { return }
        let hello = try #require(sent.first)
        #expect(hello["direction"] as? String == "client->server")
        #expect(summary["outcome"] as? String == "success")
        #expect((summary["master_secret"] as? String)?.count == 96)
        #expect((summary["client_random"] as? String) == (hello["bytes"] as? String).map { String($0.dropFirst(12).prefix(64)) })
        #expect((summary["cipher_suite"] as? String)?.hasPrefix("TLS_") == true)
        #expect(summary["extended_master_secret"] as? Bool == true)
    }

    /// The dropped messages the audit found: ServerHelloDone after a rejected certificate, and the
    /// client's Finished after the server failed to open it.
    @Test func messagesAfterAFailureAreDroppedWithAReason() throws {
        for (run, message, direction) in [("wrong-host", "ServerHelloDone", "server->client"),
                                          ("untrusted", "ServerHelloDone", "server->client"),
                                          ("tamper-serverhello", "Finished", "client->server")] {
            let objects = try Self.objects(try CLI.run(["run", run, "--format", "json"]).stdout)
            let drops = objects.filter { $0["action"] as? String == "dropped" && $0["event"] as? String == "tls_message" }
            #expect(drops.contains { $0["message"] as? String == message && $0["direction"] as? String == direction },
                    "\(run): \(message) not dropped: \(drops)")
        }
    }

    @Test func failedHandshakeSummaryHasTheAlertAndNullSecrets() throws {
        let result = try CLI.run(["run", "untrusted", "--format", "json"])
        let summary = try #require(try Self.objects(result.stdout).last)
        #expect(summary["outcome"] as? String == "unknown_ca")
        #expect(summary["master_secret"] is NSNull)
        #expect(summary["premaster_secret"] is NSNull)
        let wrongHost = try CLI.run(["run", "wrong-host"])
        #expect(wrongHost.stdout.contains("bad_certificate"))
        #expect(wrongHost.stdout.contains("name check failed"))
    }

    @Test func badInputIsExitCode2() throws {
        #expect(try CLI.run(["run", "nope"]).status == 2)
        #expect(try CLI.run(["run", "rsa", "--seed", "x"]).status == 2)
        let xml = try CLI.run(["run", "rsa", "--format", "xml"])
        #expect(xml.status == 2 && xml.stderr.contains("'xml'"))
        #expect(xml.stderr.contains("Usage: tlslab run"), "the run subcommand's usage: \(xml.stderr)")
        #expect(xml.stderr.contains("tlslab run --help"))
        let list = try CLI.run(["list"])
        #expect(list.status == 0 && list.stdout.contains("wrong-host"))
    }
}

@Suite("tlslab run: summary semantics, directions, width")
struct RunSummarySemanticsTests {
    static func objects(_ run: String) throws -> [[String: Any]] {
        try RunCommandTests.objects(try CLI.run(["run", run, "--format", "json"]).stdout)
    }

    /// The summary's premaster and master secret are the client's view: present when the client
    /// derived them even if the server's differ (tamper) or belong to another session (MITM).
    @Test(arguments: ["tamper-serverhello", "mitm-trusting", "rsa"])
    func summarySecretsAreTheClientsView(run: String) throws {
        let objects = try Self.objects(run)
        let summary = try #require(objects.last)
        let derived = objects.filter { $0["event"] as? String == "tls_derived" && $0["name"] as? String == "master_secret" }
        let client = try #require(derived.first { $0["actor"] as? String == "client" })
        #expect(summary["master_secret"] as? String == client["master_secret"] as? String)
        #expect(summary["premaster_secret"] as? String == client["premaster_secret"] as? String)
        #expect(summary["master_secret"] is String)
        // The real server's (behind a MITM the attacker shares the client's session).
        let others = derived.filter { $0["actor"] as? String == "server" }.compactMap { $0["master_secret"] as? String }
        if run == "rsa" {
            #expect(others == [client["master_secret"] as? String])
        } else {
            #expect(!others.isEmpty && !others.contains(client["master_secret"] as? String ?? ""), "\(run): the other side's differs")
        }
        // server_random is the server's, as it sent it.
        let serverHello = try #require(objects.first {
            $0["event"] as? String == "tls_message" && $0["message"] as? String == "ServerHello" && $0["action"] as? String == "sent"
                && ($0["actor"] as? String == "server")
        })
        #expect((serverHello["bytes"] as? String).map { String($0.dropFirst(12).prefix(64)) } == summary["server_random"] as? String)
    }

    /// TLS 1.3's JSON: the summary says so and has no TLS 1.2 premaster or master secret (the 1.3 key
    /// schedule has neither, RFC 8446 §7.1); each side's `tls13_secret` objects name the same secrets
    /// with the same values; every protected record's outer header is application_data 03 03.
    @Test func tls13SummaryAndPerSideSecrets() throws {
        let objects = try Self.objects("tls13")
        let summary = try #require(objects.last)
        #expect(summary["outcome"] as? String == "success" && summary["version"] as? String == "TLS 1.3")
        #expect(summary["master_secret"] is NSNull && summary["premaster_secret"] is NSNull)
        #expect(summary["cipher_suite"] as? String == "TLS_AES_128_GCM_SHA256" && summary["round_trips_to_first_byte"] as? Int == 3)
        func secrets(_ actor: String) -> [String: String] {
            var out: [String: String] = [:]
            for o in objects where o["event"] as? String == "tls13_secret" && o["actor"] as? String == actor {
                out[o["secret"] as? String ?? "?"] = o["value"] as? String
            }
            return out
        }
        let client = secrets("client"), server = secrets("server")
        #expect(client.count == 11 && client == server)
        #expect(client["client_handshake_traffic_secret"]?.count == 64)
        let records = objects.filter { $0["event"] as? String == "tls13_record" }
        #expect(records.count >= 16 && records.allSatisfy { ($0["outer_header"] as? String)?.hasPrefix("170303") == true })
        #expect(Set(records.compactMap { $0["inner_content_type"] as? String }) == ["handshake", "application_data", "alert"])
    }

    /// `direction` holds the two ends of the object's connection, and nothing else.
    @Test(arguments: ["rsa", "mitm", "mitm-trusting", "replay", "lossy", "tls13"])
    func directionsNameTheConnectionsEnds(run: String) throws {
        let allowed: Set<String> = run.hasPrefix("mitm")
            ? ["client->attacker", "attacker->client", "attacker->server", "server->attacker"]
            : ["client->server", "server->client"]
        let directions = Set(try Self.objects(run).compactMap { $0["direction"] as? String })
        #expect(directions.isSubset(of: allowed) && !directions.isEmpty, "\(run): \(directions)")
    }

    @Test func textFitsEightyColumnsTitleIncluded() throws {
        for run in ["strip", "mitm-trusting", "wrong-host"] {
            let result = try CLI.run(["run", run], environment: ["COLUMNS": "80"])
            let wide = result.stdout.split(separator: "\n").filter { $0.count > 80 }
            #expect(result.status == 0 && wide.isEmpty, "\(run): \(wide)")
            #expect(result.stdout.hasPrefix("TLSLab — \(run):"))
        }
    }
}
