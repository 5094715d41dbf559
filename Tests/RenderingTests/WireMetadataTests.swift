import Rendering
import Simulation
import TLSEngine
import Testing
import Trace

/// The knowledge panel tells the whole truth about a passive eavesdropper on HTTPS: besides the
/// randoms it reads the server name, the certificate chain, the suite, the (EC)DHE group and public
/// values, each record's length, and the addresses and ports (RFC 5246 §6.2, §7.3; RFC 6066 §3).
@Suite("What the eavesdropper reads in the clear")
struct WireMetadataTests {
    static func trace(_ run: BuiltInRun) throws -> Trace { Simulation(try run.setup(seed: 1)).run() }

    @Test func rsaRunFactsComeFromTheWire() throws {
        let trace = try Self.trace(.rsa)
        let m = try #require(trace.wireMetadata)
        #expect(m.serverName == "example.com")
        #expect((m.chainLength ?? 0) >= 1)
        #expect(m.cipherSuite == .TLS_RSA_WITH_AES_128_GCM_SHA256)
        #expect(m.group == nil && !m.publicValuesInClear)
        // Each record length is what its 5-byte header says, and the request and response are there.
        let sent = trace.events.compactMap { e -> (Actor, Int)? in
            guard e.connection == 0, case .tls(.recordSent(let r)) = e.kind, r.contentType == .applicationData else { return nil }
            return (e.actor, Int(r.wire[3]) << 8 | Int(r.wire[4]))
        }
        #expect(m.clientRecordLengths == sent.filter { $0.0 == .client }.map(\.1) && !m.clientRecordLengths.isEmpty)
        #expect(m.serverRecordLengths == sent.filter { $0.0 == .server }.map(\.1) && !m.serverRecordLengths.isEmpty)
        #expect(m.client != nil && m.server != nil)
    }

    @Test func theEphemeralRunsShowTheGroupAndBothPublicValues() throws {
        for run in [BuiltInRun.dhe, .ecdhe] {
            let m = try #require(try Self.trace(run).wireMetadata)
            #expect(m.group != nil && m.publicValuesInClear, "\(run)")
        }
    }

    @Test func thePanelSaysSo() throws {
        let text = TextRenderer(verbosity: .normal, width: 100, color: false).render(try Self.trace(.ecdhe)).joined(separator: "\n")
        for phrase in ["server name (SNI)", "example.com", "certificate chain", "cipher suite", "with both public values",
                       "application-data record(s)", "addresses and ports"] {
            #expect(text.contains(phrase), "\(phrase)")
        }
        // Plain HTTP has no TLS handshake to read these from: no such rows.
        #expect(try Self.trace(.httpPlain).wireMetadata == nil)
    }
}
