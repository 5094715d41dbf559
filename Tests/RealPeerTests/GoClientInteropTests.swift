import Foundation
import RealPeer
import Rendering
import TLSCrypto
import TLSEngine
import Testing
import Trace
import TestSupport

/// Issue #37, server role: Go's crypto/tls client (Tests/Interop/go/tlspeer.go) against our server —
/// MaxVersion TLS 1.3 with each CurvePreferences alone, a HelloRetryRequest, a ClientSessionCache that
/// resumes by PSK, MaxVersion TLS 1.2, client certificates. Go prints what its ConnectionState says
/// (version, DidResume, ALPN; Go 1.19 does not report the group, so the group is our server's fact).
@Suite("RealPeer: Go crypto/tls client against our server", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct GoClientInteropTests {
    typealias Options = TLS13ServeInteropTests.Options

    static func events(_ connection: ServedConnection) -> [TLSEvent] { TLS13ServeInteropTests.events(connection) }

    static func helloRetry(_ connection: ServedConnection) -> NamedGroup? {
        events(connection).lazy.compactMap { if case .tls13(.helloRetryRequested(let group)) = $0 { group } else { nil } }.first
    }

    @Test("MaxVersion TLS 1.3, CurvePreferences with one group: TLS 1.3 in 1-RTT with that group; the second connection resumes (DidResume, PSK resumption on our side)",
          arguments: [("X25519", "x25519"), ("P-256", "secp256r1")])
    func eachCurveAndResumption(_ curve: (go: String, ours: String)) throws {
        let pki = try TestPKI.require()
        let thread = try TLS13ServeInteropTests.server(pki: pki)
        defer { thread.stop() }
        let out = try GoPeer.client(port: thread.port, pki: pki, ["-max", "1.3", "-curves", curve.go, "-connections", "2"])
        let first = try #require(GoPeer.facts(out, connection: 1), "\(out)")
        let second = try #require(GoPeer.facts(out, connection: 2), "\(out)")
        #expect(first["version"] == "TLS1.3" && first["resumed"] == "false" && first["peer"] == "localhost", "\(out)")
        #expect(second["version"] == "TLS1.3" && second["resumed"] == "true", "\(out)")
        #expect(out.contains("page1: key exchange group: \(curve.ours)") && out.contains("page2: PSK resumption: yes"), "our page: \(out)")
        #expect(thread.waitFor(2))
        let served = thread.connections
        #expect(served.map(\.failure) == [nil, nil], "\(served.map(\.failureText))")
        #expect(served.map(\.facts.version) == [.tls13, .tls13])
        #expect(served.map(\.facts.group) == [curve.ours, curve.ours])
        #expect(served.map(\.facts.resumed) == [false, true])
        #expect(served.map(Self.helloRetry) == [nil, nil], "a share for the only group offered: no HelloRetryRequest")
        #expect(Self.events(served[1]).contains { if case .tls13(.pskAccepted) = $0 { true } else { false } })
        let line = Explanations.english.serveLogLine(served[1].logEntry)
        #expect(line.contains("TLS 1.3") && line.contains("PSK resumption yes"), "\(line)")
    }

    @Test("CurvePreferences P-384 alone (we do not serve P-384): our handshake_failure, which Go reports; P-521 alike",
          arguments: ["P-384", "P-521"])
    func unsupportedCurve(_ curve: String) throws {
        let pki = try TestPKI.require()
        let thread = try TLS13ServeInteropTests.server(pki: pki)
        defer { thread.stop() }
        let out = try GoPeer.client(port: thread.port, pki: pki, ["-max", "1.3", "-curves", curve])
        #expect(out.contains("error=connection 1: remote error: tls: handshake failure"), "\(out)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failure == .fatalAlertSent(by: .server, .handshakeFailure, .tls13(.noCommonParameters)),
                "\(served.failureText ?? "none")")
    }

    @Test("CurvePreferences P-384 then P-256: Go's share is for P-384, our HelloRetryRequest asks for secp256r1, then TLS 1.3")
    func helloRetryRequest() throws {
        let pki = try TestPKI.require()
        let thread = try TLS13ServeInteropTests.server(pki: pki)
        defer { thread.stop() }
        let out = try GoPeer.client(port: thread.port, pki: pki, ["-max", "1.3", "-curves", "P-384,P-256"])
        #expect(GoPeer.facts(out, connection: 1)?["version"] == "TLS1.3", "\(out)")
        #expect(out.contains("page1: key exchange group: secp256r1"), "our page: \(out)")
        #expect(thread.waitFor(1))
        let served = try #require(thread.connections.first)
        #expect(served.failure == nil, "\(served.failureText ?? "")")
        #expect(Self.helloRetry(served) == .secp256r1)
    }

    /// Go 1.19.6 and later (Debian's 1.19.8 included) compute the binder of the second ClientHello
    /// without the HelloRetryRequest in the transcript (golang/go#59424: `transcriptMsg(hs.serverHello,
    /// hs.transcript)` writes it to the handshake transcript instead of the binder's), so a resumption
    /// that meets a HelloRetryRequest fails: our server recomputes the binder over message_hash, the
    /// HelloRetryRequest and the truncated ClientHello (RFC 8446 §4.2.11.2, §4.4.1) and refuses it with
    /// decrypt_error. The control: OpenSSL's client, across the same HelloRetryRequest, resumes.
    @Test("A resumption across a HelloRetryRequest: OpenSSL's binder verifies; Go 1.19's (golang/go#59424) does not, and we say decrypt_error")
    func resumptionAcrossHelloRetryRequest() throws {
        let pki = try TestPKI.require()
        let thread = try TLS13ServeInteropTests.server(pki: pki)
        defer { thread.stop() }
        let session = "go-hrr-\(UUID().uuidString).pem"
        _ = try TLS13ServeInteropTests.sClient(thread.port, pki: pki, ["-tls1_3", "-groups", "P-384:P-256", "-sess_out", session])
        let control = try TLS13ServeInteropTests.sClient(thread.port, pki: pki, ["-tls1_3", "-groups", "P-384:P-256", "-sess_in", session])
        #expect(control.contains("Reused, TLSv1.3") && control.contains("PSK resumption: yes"), "\(control)")
        #expect(thread.waitFor(2))
        #expect(thread.connections.map(Self.helloRetry) == [.secp256r1, .secp256r1])
        #expect(thread.connections.map(\.facts.resumed) == [false, true])

        let out = try GoPeer.client(port: thread.port, pki: pki, ["-max", "1.3", "-curves", "X25519", "-later-curves", "P-384,P-256", "-connections", "2"])
        #expect(GoPeer.facts(out, connection: 1)?["resumed"] == "false", "\(out)")
        #expect(thread.waitFor(4))
        let retried = try #require(thread.connections.last)
        #expect(Self.helloRetry(retried) == .secp256r1)
        let binders = Self.events(retried).compactMap { e -> ([UInt8], [UInt8])? in
            if case .tls13(.pskBinderChecked(_, let expected, let received)) = e { (expected, received) } else { nil } }
        if GoPeer.facts(out, connection: 2)?["resumed"] == "true" {
            // A Go with the fix: then the binder must have verified.
            #expect(retried.facts.resumed && binders.allSatisfy { $0.0 == $0.1 })
        } else {
            #expect(out.contains("error=connection 2: remote error: tls: error decrypting message"), "\(out)")
            #expect(binders.count == 1 && binders.first.map { $0.0 != $0.1 } == true)
            #expect(retried.failure == .fatalAlertSent(by: .server, .decryptError, .tls13(.pskBinderInvalid)), "\(retried.failureText ?? "none")")
        }
    }

    /// Our server with TLS 1.2 resumption as `tlslab serve` has it: a session cache and ticket keys
    /// (Go's client resumes TLS 1.2 by session ticket, RFC 5077), TLS 1.3 beside it.
    static func resumingServer(pki: TestPKI) throws -> ServerThread {
        let identity = try PeerFiles.identity(certificate: pki.path("chain.pem"), key: pki.path("leaf.key"))
        let sessions = TLSSessionCache(capacity: 16)
        let keys = SessionTicketKeys(random: SystemRandom())
        let real = RealServer(listener: try TCPListener(port: 0), timeoutMilliseconds: 5_000, page: englishPage) {
            var c = TLSServerConfiguration(identity: identity, random: SystemRandom(), cipherSuites: CipherSuite.allImplementedWithECDSA,
                                           sessionCache: sessions)
            c.sessionTicketKeys = keys
            return c
        }
        real.makeTLS13Configuration = { TLS13ServerConfiguration(identity: identity, groups: [.x25519, .secp256r1]) }
        real.drainMilliseconds = 300
        return ServerThread(real)
    }

    @Test("MaxVersion TLS 1.2: TLS 1.2 with the DOWNGRD sentinel written (Go 1.19 does not check it when it offers 1.2 at most); the second connection resumes by session ticket")
    func maxVersionTLS12() throws {
        let pki = try TestPKI.require()
        let thread = try Self.resumingServer(pki: pki)
        defer { thread.stop() }
        let out = try GoPeer.client(port: thread.port, pki: pki, ["-max", "1.2", "-connections", "2"])
        #expect(GoPeer.facts(out, connection: 1)?["version"] == "TLS1.2", "\(out)")
        #expect(GoPeer.facts(out, connection: 1)?["suite"]?.hasPrefix("TLS_ECDHE_") == true, "\(out)")
        #expect(GoPeer.facts(out, connection: 2)?["resumed"] == "true", "\(out)")
        #expect(out.contains("page1: version: TLS 1.2"), "our page: \(out)")
        #expect(thread.waitFor(2))
        let served = thread.connections
        #expect(served.map(\.facts.version) == [.tls12, .tls12])
        #expect(served.map(\.failure) == [nil, nil], "\(served.map(\.failureText))")
        #expect(Self.events(served[0]).contains { if case .downgradeSentinelWritten = $0 { true } else { false } })
        #expect(served.map(\.facts.resumed) == [false, true])
    }

    @Test("A client certificate in TLS 1.3 (RSA and ECDSA) with --client-auth require: judged and named; without one, refused",
          arguments: [("client.pem", "client.key", "CN=TLSLab Test Client"), ("ecclient.pem", "ecclient.key", "CN=TLSLab Test EC Client")])
    func clientCertificate(_ c: (certificate: String, key: String, subject: String)) throws {
        let pki = try TestPKI.require()
        var o = Options()
        o.auth = .require
        let thread = try TLS13ServeInteropTests.server(pki: pki, o)
        defer { thread.stop() }
        let out = try GoPeer.client(port: thread.port, pki: pki, ["-max", "1.3", "-cert", c.certificate, "-key", c.key])
        #expect(GoPeer.facts(out, connection: 1)?["version"] == "TLS1.3", "\(out)")
        #expect(out.contains("page1: client certificate: \(c.subject)"), "our page: \(out)")
        #expect(thread.waitFor(1))
        #expect(thread.connections.first?.facts.clientCertificateSubject == c.subject)
        let refused = try GoPeer.client(port: thread.port, pki: pki, ["-max", "1.3"])
        #expect(refused.contains("error=connection 1:") && refused.contains("certificate required"), "\(refused)")
        #expect(thread.waitFor(2))
        #expect(thread.connections.last?.failure != nil)
    }
}
