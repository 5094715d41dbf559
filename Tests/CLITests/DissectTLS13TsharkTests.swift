import Foundation
import Testing

/// `tlslab dissect` on TLS 1.3 bytes against tshark's reading of the same bytes: a built-in TLS 1.3 run
/// exported as a pcap, tshark's `-T fields` for the hellos (supported_versions, the key_share groups,
/// the suite) and their TCP payload, which `tlslab dissect` then reads on its own.
@Suite("tlslab dissect: TLS 1.3 hellos agree with tshark")
struct DissectTLS13TsharkTests {
    /// The line of `output` for the field whose name ends in `name`.
    static func line(_ output: String, _ name: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.contains(name + " = ") }
    }

    @Test(.enabled(if: Tool.path("tshark") != nil, "tshark is not installed (CI installs it)"), arguments: ["tls13", "tls13-hrr"])
    func hellosAgreeWithTshark(run: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcap = dir.appendingPathComponent("run.pcap").path
        let export = try CLI.run(["export", run, "--pcap", pcap, "--seed", "1"])
        #expect(export.status == 0, "\(export.stderr)")
        let fields = try Tool.run("tshark", ["-r", pcap, "-Y", "tls.handshake.type == 1 || tls.handshake.type == 2", "-T", "fields",
                                             "-E", "separator=/t", "-e", "tls.handshake.type", "-e", "tls.handshake.extensions.supported_version",
                                             "-e", "tls.handshake.extensions_key_share_group", "-e", "tls.handshake.extensions_key_share_selected_group",
                                             "-e", "tls.handshake.ciphersuite", "-e", "tcp.payload"])
        let rows = fields.output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count == 6 && ($0[0].hasPrefix("1") || $0[0].hasPrefix("2")) }
        #expect(rows.count >= 2, "\(fields.output)")
        var sawServerHello = false
        for row in rows {
            // A HelloRetryRequest's group is tshark's key_share_selected_group.
            let (type, versions, groups, suite, payload) = (row[0], row[1], row[2].isEmpty ? row[3] : row[2], row[4], row[5])
            // The second ClientHello of a HelloRetryRequest exchange follows the client's compatibility
            // ChangeCipherSpec in its segment (RFC 8446 Appendix D.4): nothing before it says TLS 1.3, so say it.
            let afterChangeCipherSpec = payload.hasPrefix("14")
            let dissect = try CLI.run(["dissect", "--width", "220", payload] + (afterChangeCipherSpec ? ["--tls13"] : []))
            #expect(dissect.status == 0, "\(dissect.stderr)")
            let out = dissect.stdout
            #expect(!out.contains("refuses"), "no refusal of a run's own bytes: \(out)")
            // tshark writes a version in hex (0x0304) and a group in decimal (29); dissect names both with their hex.
            let firstVersion = try #require(versions.split(separator: ",").first.map(String.init))
            let firstGroup = try #require(groups.split(separator: ",").first.flatMap { Int($0) })
            let groupHex = "(0x" + String(format: "%04x", firstGroup) + ")"
            if type.hasPrefix("1") {
                #expect(Self.line(out, "versions[0]")?.contains("(\(firstVersion))") == true, "\(firstVersion): \(out)")
                #expect(Self.line(out, "client_shares[0].group")?.contains(groupHex) == true, "\(groupHex): \(out)")
                #expect(Self.line(out, "cipher_suites[0]")?.contains("(\(suite.split(separator: ",").first ?? ""))") == true, "\(suite)")
            } else {
                #expect(Self.line(out, "selected_version")?.contains("(\(firstVersion))") == true, "\(firstVersion): \(out)")
                // A HelloRetryRequest names the group it wants; a ServerHello sends its share of it.
                let group = Self.line(out, "server_share.group") ?? Self.line(out, "selected_group")
                #expect(group?.contains(groupHex) == true, "\(groupHex): \(out)")
                #expect(Self.line(out, "cipher_suite")?.contains("(\(suite))") == true, "\(suite): \(out)")
                sawServerHello = true
            }
        }
        #expect(sawServerHello)
    }
}
