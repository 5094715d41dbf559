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
        #expect(first.failure == nil && !first.resumed, "\(first.failure ?? "")")
        let session = try #require(first.session)
        #expect(session.ticket?.isEmpty == false)
        #expect(session.ticketLifetimeHint == 7_200, "OpenSSL's default hint")
        client.configuration.session = session
        let second = client.run()
        #expect(second.failure == nil, "\(second.failure ?? "")")
        #expect(second.resumed)
        // Without the ticket the session cannot be resumed: s_server keeps no IDs.
        var idOnly = session
        idOnly.ticket = nil
        client.configuration.session = idOnly
        client.configuration.offerSessionTicket = false
        let third = client.run()
        #expect(third.failure == nil && !third.resumed, "\(third.failure ?? "")")
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
