import Foundation
import Testing
import TestSupport

/// Issue #22's "gnutls-cli resumes sessions (ID and ticket)" against `tlslab serve`: `gnutls-cli
/// --resume` connects, disconnects and connects again offering the session. With its default
/// priority it asks for a session ticket (RFC 5077), and serve issues one in both connections; with
/// `%NO_TICKETS` it sends no SessionTicket extension, gets no ticket, and resumes by session ID.
@Suite("RealPeer: gnutls-cli --resume against tlslab serve, by ticket and by session ID", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH (it builds the test PKI)"))
struct GnuTLSResumptionTests {
    static func resume(priority: String) throws -> (client: String, serve: String) {
        let pki = try TestPKI.require()
        let tool = try Tools.need(Tools.find("gnutls-cli"), "gnutls-cli is not on the PATH (Debian: gnutls-bin)")
        let (serve, port) = try startServe(["--format", "json", "--max-connections", "2"], pki: pki, logOnly: false)
        defer { serve.stop() }
        // Standard input closed: gnutls-cli resumes, then ends without sending a request.
        let r = try runTool(tool, ["--resume", "--port", "\(port)", "--x509cafile", "root.pem", "--sni-hostname", "localhost",
                                   "--verify-hostname", "localhost", "--priority", priority, "127.0.0.1"],
                            in: pki.dir, stdin: "", timeout: GnuTLS.patience)
        #expect(serve.wait(for: "tlslab serve: stopped", seconds: GnuTLS.patience), "\(serve.output.suffix(1500))")
        return (r.output, serve.output)
    }

    static func count(_ text: String, _ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("default priority: a ticket in each connection, and the second resumes")
    func byTicket() throws {
        let (client, serve) = try Self.resume(priority: "NORMAL:-VERS-ALL:+VERS-TLS1.2")
        #expect(client.contains("*** This is a resumed session"), "\(client.suffix(2000))")
        #expect(Self.count(serve, "\"message\":\"NewSessionTicket\",") == 2, "a ticket, then a renewed one: \(serve.suffix(3000))")
        #expect(Self.count(serve, "\"resumed\":true") >= 1, "\(serve.suffix(3000))")
    }

    @Test("%NO_TICKETS: no ticket at all, and the second connection resumes by session ID")
    func bySessionID() throws {
        let (client, serve) = try Self.resume(priority: "NORMAL:-VERS-ALL:+VERS-TLS1.2:%NO_TICKETS")
        #expect(client.contains("*** This is a resumed session"), "\(client.suffix(2000))")
        #expect(!serve.contains("\"message\":\"NewSessionTicket\""), "\(serve.suffix(3000))")
        #expect(Self.count(serve, "\"resumed\":true") >= 1, "\(serve.suffix(3000))")
    }
}
