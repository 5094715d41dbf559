import Foundation
import Testing

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

    @Test(arguments: ["rsa", "dhe", "ecdhe", "lossy"])
    func jsonContract(run: String) throws {
        let result = try CLI.run(["run", run, "--format", "json"])
        #expect(result.status == 0)
        let objects = try Self.objects(result.stdout)
        #expect(objects.count > 20)
        for o in objects {
            #expect(o["t"] is Double || o["t"] is Int, "t missing")
            #expect(o["actor"] is String && o["event"] is String)
        }
        // every handshake message is sent once and received once, with its exact bytes
        let messages = objects.filter { $0["event"] as? String == "tls_message" }
        let sent = messages.filter { $0["action"] as? String == "sent" }
        let received = messages.filter { $0["action"] as? String == "received" }
        #expect(!sent.isEmpty)
        #expect(sent.map { "\($0["message"]!)\($0["bytes"]!)\($0["direction"]!)" }.sorted()
                == received.map { "\($0["message"]!)\($0["bytes"]!)\($0["direction"]!)" }.sorted())
        let hello = try #require(sent.first)
        #expect(hello["message"] as? String == "ClientHello" && hello["direction"] as? String == "client->server")
        #expect((hello["bytes"] as? String)?.hasPrefix("01") == true)
        // TCP segments: the first is the client's SYN
        let segments = objects.filter { $0["event"] as? String == "tcp_segment" }
        #expect(segments.first?["flags"] as? String == "S" && segments.first?["action"] as? String == "sent")
        #expect(segments.contains { $0["flags"] as? String == "SA" })
        if run == "lossy" { #expect(segments.contains { $0["action"] as? String == "dropped" }) }
        // the summary closes the stream
        let summary = try #require(objects.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["outcome"] as? String == "success")
        #expect((summary["master_secret"] as? String)?.count == 96)
        #expect((summary["client_random"] as? String) == (hello["bytes"] as? String).map { String($0.dropFirst(12).prefix(64)) })
        #expect((summary["cipher_suite"] as? String)?.hasPrefix("TLS_") == true)
        #expect(summary["extended_master_secret"] as? Bool == true)
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
        #expect(try CLI.run(["run", "rsa", "--format", "xml"]).status == 2)
        let list = try CLI.run(["list"])
        #expect(list.status == 0 && list.stdout.contains("wrong-host"))
    }
}
