import Foundation
import RealPeer
import TLSEngine
import Testing
import TestSupport

/// Issue #37: the ClientHello that offers TLS 1.3 and TLS 1.2 (connect's default) resumes too: a
/// stored TLS 1.3 ticket goes in pre_shared_key, its binder over that ClientHello (RFC 8446
/// §4.2.11.2), and a stored TLS 1.2 session beside it, by legacy_session_id and its RFC 5077 ticket
/// (§4.1.2, Appendix D). Against OpenSSL's s_server each kind resumes, and the ClientHello read back
/// from the trace still offers both versions.
@Suite("RealPeer: the dual-version ClientHello resumes TLS 1.3 and TLS 1.2 sessions", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct DualHelloResumptionTests {
    /// The ClientHello the client sent, read back from its trace.
    static func sentHello(_ result: RealClient.Result) throws -> ClientHello {
        let bytes = try #require(ClientRoleTests.tlsEvents(result.trace).lazy.compactMap { e -> [UInt8]? in
            if case .handshakeSent(_, let b) = e, b.first == HandshakeType.clientHello.rawValue { b } else { nil } }.first)
        var r = ByteReader(Array(bytes.dropFirst(4)))
        let hello = try ClientHello(from: &r)
        #expect(r.isAtEnd)
        return hello
    }

    static func versions(_ hello: ClientHello) -> [ProtocolVersion] {
        guard case .unknown(_, let data)? = (hello.extensions ?? []).first(ofType: .supportedVersions),
              case .offered(let list)? = try? SupportedVersions(extensionData: data, inClientHello: true) else { return [] }
        return list
    }

    @Test("A TLS 1.3 ticket in the dual ClientHello: s_server -tls1_3 and a default s_server resume it (Reused, TLSv1.3)",
          arguments: [["-tls1_3"], []])
    func tls13Ticket(_ versionFlags: [String]) throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(versionFlags + ["-www"], pki: pki)
        defer { server.stop() }
        let first = try TLS13ConnectInteropTests.client(port: port, pki: pki).run()
        #expect(first.failureText == nil && first.version == .tls13, "\(first.failureText ?? "")")
        var again = try TLS13ConnectInteropTests.client(port: port, pki: pki)
        #expect(again.versions == .tls12AndTLS13)
        again.tls13Ticket = try #require(first.tls13Tickets.last)
        let second = again.run()
        #expect(second.failureText == nil, "\(second.failureText ?? "")")
        #expect(second.resumed && second.version == .tls13)
        #expect(second.response?.contains("Reused, TLSv1.3") == true, "\(second.response ?? "no response")")
        let hello = try Self.sentHello(second)
        #expect(Self.versions(hello) == [.tls13, .tls12])
        #expect(hello.extensions?.last?.type == .preSharedKey)
        #expect(TLS13ConnectInteropTests.tls13(second.trace).contains { if case .pskAccepted = $0 { true } else { false } })
    }

    @Test("A TLS 1.2 session in the dual ClientHello: s_server -tls1_2 resumes it by session ID (-no_ticket) and by ticket (Reused, TLSv1.2)",
          arguments: [true, false])
    func tls12Session(_ bySessionID: Bool) throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_2", "-www"] + (bySessionID ? ["-no_ticket"] : []), pki: pki)
        defer { server.stop() }
        // Asking for a ticket (RFC 5077 §3.2), as connect does unless --no-tickets.
        var firstClient = try TLS13ConnectInteropTests.client(port: port, pki: pki)
        firstClient.configuration.offerSessionTicket = true
        let first = firstClient.run()
        #expect(first.failureText == nil && first.version == .tls12, "\(first.failureText ?? "")")
        let session = try #require(first.session)
        #expect(bySessionID ? session.ticket == nil : session.ticket != nil)
        var again = try TLS13ConnectInteropTests.client(port: port, pki: pki)
        again.configuration.offerSessionTicket = true
        again.configuration.session = session
        let second = again.run()
        #expect(second.failureText == nil, "\(second.failureText ?? "")")
        #expect(second.resumed && second.version == .tls12)
        #expect(second.response?.contains("Reused, TLSv1.2") == true, "\(second.response ?? "no response")")
        let hello = try Self.sentHello(second)
        #expect(Self.versions(hello) == [.tls13, .tls12])
        if bySessionID {
            #expect(hello.sessionID == session.sessionID)
        } else {
            #expect(hello.sessionID.count == 32)
            guard case .sessionTicket(let ticket)? = (hello.extensions ?? []).first(ofType: .sessionTicket) else {
                Issue.record("no SessionTicket extension"); return
            }
            #expect(ticket == session.ticket)
        }
        #expect(ClientRoleTests.tlsEvents(second.trace).contains { if case .sessionResumed = $0 { true } else { false } })
    }

    @Test("Both at once: a 1.3 ticket and a 1.2 session in one ClientHello; a default s_server picks 1.3 and resumes the ticket")
    func both() throws {
        let pki = try TestPKI.require()
        let (server12, port12) = try TLS13ConnectInteropTests.sServer(["-tls1_2", "-www", "-no_ticket"], pki: pki)
        defer { server12.stop() }
        let session = try #require(try TLS13ConnectInteropTests.client(port: port12, pki: pki).run().session)
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-www"], pki: pki)
        defer { server.stop() }
        let first = try TLS13ConnectInteropTests.client(port: port, pki: pki).run()
        var again = try TLS13ConnectInteropTests.client(port: port, pki: pki)
        again.tls13Ticket = try #require(first.tls13Tickets.last)
        again.configuration.session = session
        let second = again.run()
        #expect(second.failureText == nil, "\(second.failureText ?? "")")
        #expect(second.resumed && second.version == .tls13)
        let hello = try Self.sentHello(second)
        #expect(hello.sessionID == session.sessionID && hello.extensions?.last?.type == .preSharedKey)
    }

    @Test("connect --reconnect 1 (default versions) against s_server -tls1_2 -no_ticket: the second connection resumes the session")
    func reconnectCommand() throws {
        let pki = try TestPKI.require()
        let (server, port) = try TLS13ConnectInteropTests.sServer(["-tls1_2", "-www", "-no_ticket"], pki: pki)
        defer { server.stop() }
        let r = try TLS13ConnectCommandTests.connect(port, ["--reconnect", "1"], pki: pki)
        #expect(r.status == 0, "\(r.output.suffix(1500))")
        #expect(r.output.contains("Reused, TLSv1.2"), "\(r.output.suffix(1500))")
    }
}
