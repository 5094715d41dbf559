import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// `tlslab connect --no-tickets` and `--unoffered-dh-group`, as a user runs them: against `tlslab serve`
/// (which issues tickets) and `openssl s_server` (which sends its own RFC 3526 DHE group, not one the
/// client names in supported_groups). Each flag is checked beside its default, so the test fails when
/// the flag does nothing.
@Suite("RealPeer: connect --no-tickets and --unoffered-dh-group", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ConnectOptionsTests {
    static func connect(_ port: UInt16, pki: TestPKI, _ extra: [String]) throws -> (status: Int32, output: String) {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        return try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                    "--format", "json", "--request", "GET / HTTP/1.0\\r\\n\\r\\n"] + extra,
                           in: pki.dir, timeout: 60)
    }

    @Test("--no-tickets: no SessionTicket extension, serve sends no NewSessionTicket, --reconnect resumes by session ID; without it a ticket comes")
    func noTickets() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--concurrent", "2"], pki: pki)
        defer { serve.stop() }
        let with = try Self.connect(port, pki: pki, ["--tls", "1.2"])
        #expect(with.status == 0, "\(with.output.suffix(1500))")
        #expect(with.output.contains("\"message\":\"NewSessionTicket\""), "by default connect asks for a ticket: \(with.output.suffix(1500))")
        let without = try Self.connect(port, pki: pki, ["--tls", "1.2", "--no-tickets", "--reconnect", "1"])
        #expect(without.status == 0, "\(without.output.suffix(1500))")
        #expect(!without.output.contains("\"message\":\"NewSessionTicket\""), "\(without.output.suffix(3000))")
        #expect(without.output.contains("connection 2 of 2: resumed the offered session"), "by session ID: \(without.output.suffix(1500))")
        // The ClientHello carries no session_ticket extension (type 35 = 0x0023) in any connection.
        let hellos = without.output.split(separator: "\n").filter { $0.contains("\"message\":\"ClientHello\"") && $0.contains("\"action\":\"sent\"") }
        #expect(hellos.count == 2)
        for hello in hellos { #expect(!Self.extensionTypes(String(hello)).contains(0x0023), "\(hello)") }
        let withHello = with.output.split(separator: "\n").first { $0.contains("\"message\":\"ClientHello\"") }
        #expect(withHello.map { Self.extensionTypes(String($0)).contains(0x0023) } == true, "the control: the default offers it")
    }

    @Test("--unoffered-dh-group: s_server's MODP 2048 is accepted by default and with accept, refused with insufficient_security by refuse")
    func unofferedGroup() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-cipher", "DHE-RSA-AES128-GCM-SHA256", "-www"], pki: pki)
        defer { server.stop() }
        let suite = ["--suite", "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256"]
        for extra in [[], ["--unoffered-dh-group", "accept"]] {
            let accepted = try Self.connect(port, pki: pki, suite + extra)
            #expect(accepted.status == 0, "\(extra): \(accepted.output.suffix(1500))")
            #expect(accepted.output.contains("modp2048"), "\(extra): \(accepted.output.suffix(1500))")
        }
        let refused = try Self.connect(port, pki: pki, suite + ["--unoffered-dh-group", "refuse"])
        #expect(refused.status == 1, "\(refused.output.suffix(1500))")
        #expect(refused.output.contains("insufficient_security"), "\(refused.output.suffix(1500))")
        let bad = try Self.connect(port, pki: pki, ["--unoffered-dh-group", "maybe"])
        #expect(bad.status == 2, "\(bad.output.suffix(500))")
    }

    @Test("issue #38 defect 6: --session-out DIR or . against a live server deletes nothing: exit 2, the folder and its files as they were")
    func sessionOutDirectorySurvives() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--concurrent", "2"], pki: pki)
        defer { serve.stop() }
        let dir = pki.dir.appendingPathComponent("keep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: dir.appendingPathComponent("precious.txt"))
        for target in [dir.path, dir.path + "/."] {
            let result = try Self.connect(port, pki: pki, ["--session-out", target])
            #expect(result.status == 2, "\(result.output.suffix(800))")
            #expect(result.output.contains("is a directory"), "\(result.output.suffix(800))")
            #expect(FileManager.default.contents(atPath: dir.appendingPathComponent("precious.txt").path) == Data("precious".utf8))
            #expect((try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["precious.txt"])
        }
        // The server's own folder (the test's current directory for connect) as `.`: its PKI files and a
        // file of this test's own are all still there, unchanged. (Other tests running at the same time
        // add and remove files of their own in this folder, so the listing as a whole is not compared.)
        let sentinel = pki.dir.appendingPathComponent("precious-\(UUID().uuidString).txt")
        try Data("precious".utf8).write(to: sentinel)
        defer { try? FileManager.default.removeItem(at: sentinel) }
        let pem = try FileManager.default.contentsOfDirectory(atPath: pki.dir.path).filter { $0.hasSuffix(".pem") }
        let contents = Dictionary(uniqueKeysWithValues: pem.map { ($0, FileManager.default.contents(atPath: pki.dir.appendingPathComponent($0).path)) })
        #expect(!pem.isEmpty)
        let dot = try Self.connect(port, pki: pki, ["--session-out", "."])
        #expect(dot.status == 2, "\(dot.output.suffix(800))")
        #expect(FileManager.default.contents(atPath: sentinel.path) == Data("precious".utf8))
        for name in pem { #expect(FileManager.default.contents(atPath: pki.dir.appendingPathComponent(name).path) == contents[name], "\(name)") }
    }

    @Test("--session-out writes the session (0600), --session-in resumes it; past the ticket's lifetime hint it is not offered")
    func sessionFiles() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--concurrent", "2"], pki: pki)
        defer { serve.stop() }
        let file = pki.dir.appendingPathComponent("session-\(UUID().uuidString).txt").path
        let first = try Self.connect(port, pki: pki, ["--tls", "1.2", "--session-out", file])
        #expect(first.status == 0, "\(first.output.suffix(1500))")
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600, "the file holds the master secret: \(String(mode ?? 0, radix: 8))")
        var session = try SessionFile.read(file)
        #expect(session.ticket != nil && session.ticketLifetimeHint == 7_200, "serve's default hint")
        let received = try #require(session.ticketReceivedAt).secondsSinceEpoch
        #expect(abs(Int64(received) - Int64(Date().timeIntervalSince1970)) < 120)
        let resumed = try Self.connect(port, pki: pki, ["--tls", "1.2", "--session-in", file])
        #expect(resumed.status == 0 && resumed.output.contains("\"event\":\"tls_handshake_complete\",\"resumed\":true"), "\(resumed.output.suffix(2000))")
        #expect(!resumed.output.contains("tls_session_ticket_expired"))
        // The same session, its ticket received 7200 s + 5 s ago: not offered, a full handshake.
        session.ticketReceivedAt = SessionTime(secondsSinceEpoch: received - 7_205)
        try SessionFile.write(session, to: file)
        let old = try Self.connect(port, pki: pki, ["--tls", "1.2", "--session-in", file])
        #expect(old.status == 0, "\(old.output.suffix(1500))")
        #expect(old.output.contains("\"event\":\"tls_session_ticket_expired\""), "\(old.output.prefix(3000))")
        #expect(old.output.contains("\"event\":\"tls_handshake_complete\",\"resumed\":false"), "\(old.output.suffix(2000))")
        // A file that is not a session: a clear error, exit 2.
        try "hello\n".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try Self.connect(port, pki: pki, ["--tls", "1.2", "--session-in", file])
        #expect(bad.status == 2 && bad.output.contains("not a TLSLab session file"), "\(bad.status): \(bad.output.suffix(500))")
    }

    @Test("a session file round-trips, and malformed ones are refused with the reason")
    func sessionFileFormat() throws {
        var session = TLSSession(sessionID: Array(repeating: 7, count: 32), version: .tls12, cipherSuite: CipherSuite(rawValue: 0xC02F),
                                 masterSecret: Array(0 ..< 48), extendedMasterSecret: true, encryptThenMAC: false)
        #expect(try SessionFile.session(from: SessionFile.text(session)) == session)
        session.ticket = [1, 2, 3]
        session.ticketLifetimeHint = 300
        session.ticketReceivedAt = SessionTime(secondsSinceEpoch: 1_800_000_000)
        let text = SessionFile.text(session)
        #expect(try SessionFile.session(from: text) == session)
        let broken = [text.replacingOccurrences(of: "master_secret: 00", with: "master_secret: "),  // 47.5 bytes
                      text.replacingOccurrences(of: "extended_master_secret: true", with: "extended_master_secret: yes"),
                      text + "colour: blue\n", text + "ticket: 01\n", String(text.drop { $0 != "\n" })]
        for b in broken { #expect(throws: SessionFile.FormatError.self) { try SessionFile.session(from: b) } }
    }

    @Test("connect --help names both options")
    func help() throws {
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let help = try runTool(tlslab, ["connect", "--help"], in: FileManager.default.temporaryDirectory)
        #expect(help.status == 0)
        for text in ["--no-tickets", "--unoffered-dh-group", "accept", "refuse", "RFC 7919"] {
            #expect(help.output.contains(text), "connect --help lacks \(text): \(help.output)")
        }
    }

    /// The extension types of a ClientHello's JSON line, read from its `bytes` (RFC 5246 §7.4.1.2).
    static func extensionTypes(_ line: String) -> [UInt16] {
        guard let range = line.range(of: #""bytes":"[0-9a-f]+""#, options: .regularExpression) else { return [] }
        let hex = line[range].dropFirst(9).dropLast()
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index ..< next], radix: 16) ?? 0)
            index = next
        }
        // type(1) length(3) version(2) random(32) session_id<1> suites<2> compression<1> extensions<2>
        var i = 4 + 2 + 32
        guard i < bytes.count else { return [] }
        i += 1 + Int(bytes[i])
        guard i + 1 < bytes.count else { return [] }
        i += 2 + (Int(bytes[i]) << 8 | Int(bytes[i + 1]))
        guard i < bytes.count else { return [] }
        i += 1 + Int(bytes[i])
        guard i + 1 < bytes.count else { return [] }
        let end = min(bytes.count, i + 2 + (Int(bytes[i]) << 8 | Int(bytes[i + 1])))
        i += 2
        var types: [UInt16] = []
        while i + 3 < end {
            types.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            i += 4 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return types
    }
}
