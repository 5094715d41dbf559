import Foundation
import Testing
import TestSupport

/// Issue #38, defect 5, against OpenSSL's client: RFC 7627 §5.3 in `tlslab serve`. A session made with
/// the extended master secret, offered by an s_client that has it switched off: the handshake ends
/// with handshake_failure, as `s_server` does ("inconsistent extms"). A session made without it,
/// offered with it: a full handshake ("New").
@Suite("RealPeer: RFC 7627 §5.3 with s_client -sess_in", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct EMSResumptionInteropTests {
    @Test("EMS session offered without EMS: handshake_failure, the rule in serve's log; the other way: a full handshake",
          arguments: [false, true])
    func bothRules(noTickets: Bool) throws {
        let pki = try TestPKI.require()
        let (serve, port) = try startServe(noTickets ? ["--no-tickets"] : [], pki: pki)
        defer { serve.stop() }
        let noEMS = ["OPENSSL_CONF": pki.path("noems.cnf")]
        func sClient(_ extra: [String], environment: [String: String]? = nil) throws -> String {
            try runTool(Tools.openssl ?? "openssl",
                        ["s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-CAfile", "root.pem", "-servername", "localhost"] + extra,
                        in: pki.dir, stdin: "", environment: environment, timeout: 20).output
        }
        let withEMS = "ems-\(UUID().uuidString).pem", withoutEMS = "noems-\(UUID().uuidString).pem"
        let first = try sClient(["-sess_out", withEMS])
        #expect(first.contains("Extended master secret: yes"), "\(first.suffix(1500))")
        let dropped = try sClient(["-sess_in", withEMS], environment: noEMS)
        #expect(dropped.contains("alert handshake failure"), "\(dropped.suffix(1500))")
        #expect(!dropped.contains("Reused, TLSv1.2"))
        #expect(serve.wait(for: "the server MUST abort the abbreviated handshake (RFC 7627 §5.3)"), "\(serve.output.suffix(1500))")

        let plain = try sClient(["-sess_out", withoutEMS], environment: noEMS)
        #expect(plain.contains("Extended master secret: no"), "\(plain.suffix(1500))")
        let added = try sClient(["-sess_in", withoutEMS])
        #expect(added.contains("New, TLSv1.2") && added.contains("Extended master secret: yes"), "\(added.suffix(1500))")
    }
}
