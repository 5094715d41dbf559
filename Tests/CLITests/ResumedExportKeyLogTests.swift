import Foundation
import Testing

/// Issue #38, defect 1: `export --keylog` of the resumption lessons lists every connection, so tshark
/// decrypts the Finished messages and the requests of the resumed connections too (by session ID and
/// by ticket).
@Suite("tlslab export --keylog: resumed connections decrypt")
struct ResumedExportKeyLogTests {
    @Test(.enabled(if: Tool.path("tshark") != nil, "tshark is not installed (CI installs it)"),
          arguments: ["http/resumption", "http/resumption-ticket"])
    func everyConnectionDecrypts(lesson: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcap = dir.appendingPathComponent("run.pcap").path, keys = dir.appendingPathComponent("run.keys").path
        let result = try CLI.run(["export", lesson, "--pcap", pcap, "--keylog", keys])
        #expect(result.status == 0, "\(result.stderr)")
        let keylog = try String(contentsOfFile: keys, encoding: .utf8)
        #expect(keylog.split(separator: "\n").filter { $0.hasPrefix("CLIENT_RANDOM ") }.count == 3, "\(keylog)")
        #expect(result.stdout.contains("3 session(s)") || result.stderr.contains("3 session(s)"), "\(result.stdout)\(result.stderr)")
        func streams(_ filter: String) throws -> [String] {
            let r = try Tool.run("tshark", ["-r", pcap, "-o", "tls.keylog_file:\(keys)", "-Y", filter, "-T", "fields", "-e", "tcp.stream"])
            return r.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        }
        let all = Set(try streams("tcp.flags.syn == 1 && tcp.flags.ack == 0"))
        #expect(all.count == 3, "\(all)")
        let finished = try streams("tls.handshake.type == 20")
        #expect(finished.count == 6 && Set(finished) == all, "both Finished of every connection decrypted: \(finished)")
        #expect(Set(try streams("http.request")) == all, "every connection's request decrypted")
    }
}
