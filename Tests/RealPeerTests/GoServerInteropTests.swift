import Foundation
import RealPeer
import TLSCrypto
import TLSEngine
import Testing
import Trace
import TestSupport

/// Issue #37, client role: our client (and `tlslab connect`) against Go's crypto/tls server
/// (Tests/Interop/go/tlspeer.go): TLS 1.3 with each CurvePreferences alone (a HelloRetryRequest when
/// our first share is for another group), session tickets resumed by PSK (`connect --reconnect 1`),
/// RequireAndVerifyClientCert, MaxVersion 1.2, and a capture tshark decrypts with our key log. The Go
/// server answers each request with what its ConnectionState says, and prints the same line.
@Suite("RealPeer: our client against Go's crypto/tls server", .serialized,
       CrossCheckRequirement.trait(Tools.openssl != nil, missing: "openssl is not on the PATH"))
struct GoServerInteropTests {
    static func client(port: UInt16, pki: TestPKI, versions: RealClient.VersionOffer = .tls12AndTLS13) throws -> RealClient {
        try TLS13ConnectInteropTests.client(port: port, pki: pki, versions: versions)
    }

    @Test("CurvePreferences with one group: TLS 1.3 by supported_versions with that group; a HelloRetryRequest unless it is X25519 (our first key share)",
          arguments: [("X25519", NamedGroup.x25519), ("P-256", .secp256r1)])
    func eachCurve(_ curve: String, _ group: NamedGroup) throws {
        let pki = try TestPKI.require()
        let (server, port) = try GoPeer.server(pki: pki, ["-max", "1.3", "-curves", curve])
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")\n\(server.output.suffix(800))")
        #expect(result.version == .tls13)
        #expect(TLS13ConnectInteropTests.choices(result.trace) == [VersionChoice(role: .client, version: .tls13, reason: .serverSelectsTLS13)])
        #expect(TLS13ConnectInteropTests.group(result.trace) == group)
        #expect(TLS13ConnectInteropTests.helloRetry(result.trace) == (group == .x25519 ? nil : group))
        #expect(result.response?.contains("Go crypto/tls: connection=1 version=TLS1.3") == true, "\(result.response ?? "no response")")
        #expect(server.wait(for: "connection=1 version=TLS1.3 suite=TLS_AES_128_GCM_SHA256 resumed=false"), "\(server.output)")
        // Go sends one NewSessionTicket after the handshake.
        #expect(result.tls13Tickets.count == 1)
    }

    @Test("Go's session ticket offered as a PSK (binder, ticket age): Go resumes (DidResume), no certificate is sent")
    func pskResumption() throws {
        let pki = try TestPKI.require()
        let (server, port) = try GoPeer.server(pki: pki, ["-max", "1.3"])
        defer { server.stop() }
        let first = try Self.client(port: port, pki: pki).run()
        #expect(first.failureText == nil, "\(first.failureText ?? "")")
        var again = try Self.client(port: port, pki: pki)
        again.tls13Ticket = try #require(first.tls13Tickets.last)
        let second = again.run()
        #expect(second.failureText == nil, "\(second.failureText ?? "")")
        #expect(second.resumed)
        #expect(second.response?.contains("connection=2 version=TLS1.3 suite=TLS_AES_128_GCM_SHA256 resumed=true") == true,
                "\(second.response ?? "no response")")
        let events = TLS13ConnectInteropTests.tls13(second.trace)
        #expect(events.contains { if case .pskOffered = $0 { true } else { false } })
        #expect(events.contains { if case .pskAccepted = $0 { true } else { false } })
        #expect(!ClientRoleTests.tlsEvents(second.trace).contains { if case .certificateDecision = $0 { true } else { false } })
    }

    @Test("tlslab connect --reconnect 1: the second connection resumes by PSK, and Go says DidResume")
    func connectReconnect() throws {
        let pki = try TestPKI.require()
        let (server, port) = try GoPeer.server(pki: pki, ["-max", "1.3"])
        defer { server.stop() }
        let r = try TLS13ConnectCommandTests.connect(port, ["--reconnect", "1"], pki: pki)
        #expect(r.status == 0, "\(r.output.suffix(1000))")
        #expect(r.output.contains("connection 2 of 2: resumed the offered session"), "\(r.output.suffix(800))")
        #expect(server.wait(for: "connection=2 version=TLS1.3 suite=TLS_AES_128_GCM_SHA256 resumed=true"), "\(server.output)")
    }

    @Test("RequireAndVerifyClientCert: our RSA and ECDSA client certificates verified by Go (CertificateVerify in TLS 1.3); none: Go 1.19's bad_certificate",
          arguments: [("client.pem", "client.key", "TLSLab_Test_Client", SignatureScheme.rsaPSSRSAESHA256),
                      ("ecclient.pem", "ecclient.key", "TLSLab_Test_EC_Client", .ecdsaSECP256r1SHA256)])
    func clientCertificate(_ file: String, _ key: String, _ subject: String, _ scheme: SignatureScheme) throws {
        let pki = try TestPKI.require()
        let (server, port) = try GoPeer.server(pki: pki, ["-max", "1.3", "-clientca", "root.pem"])
        defer { server.stop() }
        let identity = try PeerFiles.identity(certificate: pki.path(file), key: pki.path(key))
        var client = try ClientRoleTests.client(port: port, pki: pki, identity: identity)
        client.versions = .tls12AndTLS13
        let result = client.run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")\n\(server.output.suffix(800))")
        #expect(result.version == .tls13)
        #expect(TLS13ConnectInteropTests.tls13(result.trace).contains { if case .certificateRequested = $0 { true } else { false } })
        #expect(TLS13ConnectInteropTests.tls13(result.trace).contains { if case .certificateVerifySigned(scheme, _, _) = $0 { true } else { false } })
        #expect(result.response?.contains("peer=\(subject)") == true, "Go verified our certificate: \(result.response ?? "no response")")
        // RFC 8446 §4.4.2.4 lets a server abort with certificate_required; Go 1.19 sends bad_certificate
        // (handshake_server.go: `c.sendAlert(alertBadCertificate)` when a required certificate is missing).
        let without = try Self.client(port: port, pki: pki).run()
        #expect(without.failureText?.contains("bad_certificate") == true, "\(without.failureText ?? "none")")
        #expect(server.wait(for: "connection=2 handshake-error="), "\(server.output)")
    }

    @Test("MaxVersion 1.2: we fall back to TLS 1.2 (no supported_versions in Go's ServerHello, no DOWNGRD sentinel: Go writes it only when it could speak a higher version)")
    func maxVersionTLS12() throws {
        let pki = try TestPKI.require()
        let (server, port) = try GoPeer.server(pki: pki, ["-max", "1.2"])
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")\n\(server.output.suffix(800))")
        #expect(result.version == .tls12)
        #expect(TLS13ConnectInteropTests.choices(result.trace) == [VersionChoice(role: .client, version: .tls12,
                                                                                  reason: .serverHelloWithoutSupportedVersions(serverVersion: .tls12))])
        #expect(Self.serverRandomTail(result.trace) != Self.downgradeTLS12, "no sentinel from a 1.2-only Go server")
        #expect(result.response?.contains("connection=1 version=TLS1.2") == true, "\(result.response ?? "no response")")
        #expect(result.keyLog?.masterSecret?.count == 48)
    }

    @Test("A 1.2-only client (--tls 1.2) and Go with MaxVersion 1.3: Go writes DOWNGRD 01 (RFC 8446 §4.1.3) and our 1.2 client goes on")
    func downgradeSentinelToTLS12Client() throws {
        let pki = try TestPKI.require()
        let (server, port) = try GoPeer.server(pki: pki, ["-max", "1.3"])
        defer { server.stop() }
        let result = try Self.client(port: port, pki: pki, versions: .tls12).run()
        #expect(result.failureText == nil, "\(result.failureText ?? "")\n\(server.output.suffix(800))")
        #expect(result.version == .tls12)
        #expect(Self.serverRandomTail(result.trace) == Self.downgradeTLS12)
        #expect(result.response?.contains("connection=1 version=TLS1.2") == true, "\(result.response ?? "no response")")
    }

    @Test("tshark decrypts a capture of tlslab connect and the Go server with the key log connect writes")
    func tsharkDecrypts() throws {
        let pki = try TestPKI.require()
        _ = try Tools.need(Tools.tshark, "tshark is not on the PATH")
        let (server, port) = try GoPeer.server(pki: pki, ["-max", "1.3"])
        defer { server.stop() }
        try TLS13ConnectCommandTests.expectKeyLogDecrypts(port: port, pki: pki, name: "go")
    }

    /// "DOWNGRD" then 01: the last 8 bytes of a TLS 1.3-capable server's random when it negotiates TLS 1.2 (RFC 8446 §4.1.3).
    static let downgradeTLS12: [UInt8] = Array("DOWNGRD".utf8) + [0x01]

    /// The last 8 bytes of ServerHello.random as received (the message: type, length, version, then the random).
    static func serverRandomTail(_ trace: Trace) -> [UInt8]? {
        ClientRoleTests.tlsEvents(trace).lazy.compactMap { e -> [UInt8]? in
            guard case .handshakeReceived(_, let bytes) = e, bytes.first == 2, bytes.count >= 38 else { return nil }
            return Array(bytes[30 ..< 38])
        }.first
    }
}
