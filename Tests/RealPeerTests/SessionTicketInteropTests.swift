import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Session tickets (RFC 5077) with OpenSSL in both roles. Resumption by ticket is told apart from
/// resumption by session ID by taking the ID away: serve's one-entry session cache is overwritten by
/// another connection, and `openssl s_server -no_cache` keeps no sessions at all.
@Suite("RealPeer: session tickets with OpenSSL, both roles", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct SessionTicketInteropTests {
    @Test("s_client -sess_out gets a ticket from serve; -sess_in resumes by it after the session ID was forgotten")
    func sClientAgainstServe() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--session-cache-size", "1", "--ticket-lifetime", "300"], pki: pki)
        defer { serve.stop() }
        let file = "ticket-\(UUID().uuidString).pem"
        let first = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_out", file])
        #expect(first.contains("New, TLSv1.2"), "\(first.suffix(2000))")
        #expect(first.contains("TLS session ticket lifetime hint: 300 (seconds)"), "\(first.suffix(2500))")
        // Another client's session takes the cache's only place.
        let other = try ResumptionInteropTests.sClient(port, pki: pki, ["-no_ticket"])
        #expect(other.contains("New, TLSv1.2"), "\(other.suffix(1500))")
        let resumed = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_in", file])
        #expect(resumed.contains("Reused, TLSv1.2"), "\(resumed.suffix(2500))")
        // Without the ticket the same session file cannot resume: the ID alone is forgotten.
        let idOnly = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_in", file, "-no_ticket"])
        #expect(idOnly.contains("New, TLSv1.2"), "\(idOnly.suffix(1500))")
    }

    @Test("serve --ticket-lifetime 1: s_client's ticket and session ID both expire; serve's trace names the expiry, s_client gets a full handshake")
    func ticketLifetimeEnforced() throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(["--ticket-lifetime", "1", "--format", "json"], pki: pki, logOnly: false)
        defer { serve.stop() }
        let ticketFile = "ticket-\(UUID().uuidString).pem", idFile = "id-\(UUID().uuidString).pem"
        let started = Date()
        let first = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_out", ticketFile])
        #expect(first.contains("New, TLSv1.2"), "\(first.suffix(2000))")
        #expect(first.contains("TLS session ticket lifetime hint: 1 (seconds)"), "\(first.suffix(2500))")
        // Without tickets the session file keeps serve's own session ID (with a ticket, OpenSSL's client
        // replaces the ID by the ticket's SHA-256, which no cache knows).
        let second = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_out", idFile, "-no_ticket"])
        #expect(second.contains("New, TLSv1.2"), "\(second.suffix(2000))")
        // The session's age counts in whole seconds of serve's clock: over two seconds on, each is at least
        // 1 s old. (The wait is the thing tested: a session older than its lifetime.)
        let wait = 2.2 - Date().timeIntervalSince(started)
        if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        let byTicket = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_in", ticketFile])
        #expect(byTicket.contains("New, TLSv1.2"), "an expired ticket: \(byTicket.suffix(2500))")
        let byID = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_in", idFile, "-no_ticket"])
        #expect(byID.contains("New, TLSv1.2"), "an expired session ID: \(byID.suffix(2500))")
        // The server saw each offer and refused it for its age (not a client that stopped offering it).
        let trace = try #require(waitForOutput(serve, count: 2, of: "\"event\":\"tls_session_expired\""), "\(serve.output.suffix(3000))")
        #expect(trace.contains("\"event\":\"tls_session_expired\",\"offer\":\"ticket\""), "\(trace.suffix(3000))")
        #expect(trace.contains("\"event\":\"tls_session_expired\",\"offer\":\"sessionID\""), "\(trace.suffix(3000))")
        #expect(trace.contains("\"lifetime\":1}"), "\(trace.suffix(3000))")
    }

    /// The child's output once `needle` occurs `count` times in it (within 10 s), nil otherwise.
    func waitForOutput(_ child: Child, count: Int, of needle: String) -> String? {
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let text = child.output
            if text.components(separatedBy: needle).count - 1 >= count { return text }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    @Test("a serve restarted with new ticket keys does not resume the old ticket: a full handshake; --no-tickets sends none")
    func ticketFromAnotherServe() throws {
        let pki = try TestPKI.require()
        let file = "ticket-\(UUID().uuidString).pem"
        do {
            let (serve, port) = try startServe([], pki: pki)
            defer { serve.stop() }
            _ = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_out", file])
        }
        let (again, port) = try startServe(["--no-tickets"], pki: pki)
        defer { again.stop() }
        let out = try ResumptionInteropTests.sClient(port, pki: pki, ["-sess_in", file])
        #expect(out.contains("New, TLSv1.2"), "\(out.suffix(2000))")
        #expect(!out.contains("TLS session ticket:"), "--no-tickets: \(out.suffix(2000))")
    }

    @Test("tlslab connect --reconnect 2 against openssl s_server -no_cache: resumed twice, by ticket alone")
    func connectAgainstSServer() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        guard let openssl = Tools.openssl else { try Tools.unavailable("openssl is not on the PATH") }
        let (running, port) = try #require(try Self.sServerWithoutCache(openssl, pki: pki), "s_server did not start")
        defer { running.stop() }
        let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                     "--reconnect", "2", "--format", "json", "--request", "GET / HTTP/1.0\\r\\n\\r\\n"],
                            in: pki.dir, timeout: 60)
        #expect(r.status == 0, "\(r.output.suffix(1500))")
        #expect(r.output.contains("connection 1 of 3: full handshake"), "\(r.output.suffix(1500))")
        #expect(r.output.contains("connection 2 of 3: resumed the offered session"), "\(r.output.suffix(1500))")
        #expect(r.output.contains("connection 3 of 3: resumed the offered session"), "\(r.output.suffix(1500))")
        // s_server keeps no session cache (-no_cache): the ticket did it, and the trace shows it arrive.
        #expect(r.output.contains("\"message\":\"NewSessionTicket\""), "the NewSessionTicket is traced: \(r.output.prefix(3000))")
    }

    @Test("our RealClient against s_server -no_cache: the session carries OpenSSL's ticket and resumes by it")
    func realClientTicket() throws {
        let pki = try TestPKI.require()
        guard let openssl = Tools.openssl else { try Tools.unavailable("openssl is not on the PATH") }
        let (running, port) = try #require(try Self.sServerWithoutCache(openssl, pki: pki), "s_server did not start")
        defer { running.stop() }
        var client = try ClientRoleTests.client(port: port, pki: pki)
        client.configuration.offerSessionTicket = true
        let first = client.run()
        #expect(first.failureText == nil && !first.resumed, "\(first.failureText ?? "")")
        let session = try #require(first.session)
        #expect(session.ticket?.isEmpty == false)
        #expect(session.ticketLifetimeHint == 7_200, "OpenSSL's default hint")
        client.configuration.session = session
        let second = client.run()
        #expect(second.failureText == nil, "\(second.failureText ?? "")")
        #expect(second.resumed)
        // Without the ticket the session cannot be resumed: s_server keeps no IDs.
        var idOnly = session
        idOnly.ticket = nil
        client.configuration.session = idOnly
        client.configuration.offerSessionTicket = false
        let third = client.run()
        #expect(third.failureText == nil && !third.resumed, "\(third.failureText ?? "")")
    }

    /// `openssl s_server -tls1_2 -no_cache -www` on a free port (nil when it did not start): with no
    /// session cache, only a ticket resumes.
    static func sServerWithoutCache(_ openssl: String, pki: TestPKI) throws -> (Child, UInt16)? {
        for _ in 0 ..< 5 {
            guard let candidate = freePort() else { continue }
            let child = try Child(openssl, ["s_server", "-accept", "\(candidate)", "-tls1_2", "-no_cache", "-cert", "chain.pem",
                                            "-key", "leaf.key", "-www"], in: pki.dir)
            if child.wait(for: "ACCEPT") { return (child, candidate) }
            child.stop()
        }
        return nil
    }
}
