import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// `tlslab serve` issues session IDs from a bounded cache, so OpenSSL's client resumes
/// (RFC 5246 §7.3, §7.4.1.2: the abbreviated handshake) — with `-reconnect` and across processes
/// with `-sess_out` / `-sess_in`; `--no-resumption` sends an empty session ID, and nothing resumes.
@Suite("RealPeer: s_client resumes sessions with tlslab serve", .serialized, CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct ResumptionInteropTests {
    static func sClient(_ port: UInt16, pki: TestPKI, _ extra: [String]) throws -> String {
        try runTool(Tools.openssl ?? "openssl",
                    ["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-CAfile", "root.pem", "-verify_return_error",
                     "-servername", "localhost"] + extra,
                    in: pki.dir, stdin: "", timeout: 20).output
    }

    static func count(_ text: String, _ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("s_client -reconnect: the first connection is new, the five reconnections resume")
    func reconnect() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startServe(["--concurrent", "4"], pki: pki)
        defer { server.stop() }
        let out = try Self.sClient(port, pki: pki, ["-reconnect"])
        #expect(Self.count(out, "New, TLSv1.2") == 1, "\(out.suffix(3000))")
        #expect(Self.count(out, "Reused, TLSv1.2") == 5, "\(out.suffix(3000))")
    }

    @Test("s_client -sess_out, then a new s_client -sess_in: resumed; with --no-resumption: never")
    func sessionFile() throws {
        let pki = try TestPKI.require()
        let (server, port) = try startServe([], pki: pki)
        defer { server.stop() }
        let file = "session-\(UUID().uuidString).pem"
        let first = try Self.sClient(port, pki: pki, ["-sess_out", file])
        #expect(first.contains("New, TLSv1.2"), "\(first.suffix(2000))")
        let second = try Self.sClient(port, pki: pki, ["-sess_in", file])
        #expect(second.contains("Reused, TLSv1.2"), "\(second.suffix(2000))")

        let (plain, plainPort) = try startServe(["--no-resumption"], pki: pki)
        defer { plain.stop() }
        let again = try Self.sClient(plainPort, pki: pki, ["-reconnect"])
        #expect(Self.count(again, "Reused, TLSv1.2") == 0, "\(again.suffix(2000))")
        #expect(Self.count(again, "New, TLSv1.2") == 6, "\(again.suffix(2000))")
    }

    @Test("our client resumes with s_server (session ID) and with tlslab serve; EMS kept (RFC 7627 §5.3)")
    func clientResumes() throws {
        let pki = try TestPKI.require()
        let (sServer, sPort) = try startSServer(["-cert", "chain.pem", "-key", "leaf.key", "-www"], pki: pki)
        defer { sServer.stop() }
        let (serve, servePort) = try startServe(["--concurrent", "2"], pki: pki)
        defer { serve.stop() }
        for port in [sPort, servePort] {
            var client = try ClientRoleTests.client(port: port, pki: pki)
            let first = client.run()
            #expect(first.failureText == nil && !first.resumed, "\(first.failureText ?? "")")
            let session = try #require(first.session, "the server gave a session ID")
            #expect(session.extendedMasterSecret)
            client.configuration.session = session
            let second = client.run()
            #expect(second.failureText == nil, "\(second.failureText ?? "")")
            #expect(second.resumed, "port \(port): the offered session was resumed")
            #expect(second.suite == first.suite && second.extendedMasterSecret)
        }
    }

    @Test("tlslab connect --reconnect 2 against tlslab serve: a full handshake, then two resumptions")
    func connectReconnect() throws {
        let pki = try TestPKI.require()
        let tlslab = try Tools.need(Tools.tlslab, "the tlslab executable is not next to the test bundle")
        let (serve, port) = try startServe([], pki: pki)
        defer { serve.stop() }
        let r = try runTool(tlslab, ["connect", "127.0.0.1:\(port)", "--servername", "localhost", "--ca", "root.pem",
                                     "--reconnect", "2", "--format", "json"], in: pki.dir, timeout: 30)
        #expect(r.status == 0, "\(r.output.suffix(1500))")
        #expect(r.output.contains("connection 1 of 3: full handshake"), "\(r.output.suffix(1500))")
        #expect(r.output.contains("connection 2 of 3: resumed the offered session"), "\(r.output.suffix(1500))")
        #expect(r.output.contains("connection 3 of 3: resumed the offered session"), "\(r.output.suffix(1500))")
    }
}
